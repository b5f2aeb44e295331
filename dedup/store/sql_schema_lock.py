"""One connection that alone may change the store's schema, in one transaction where the database
allows it: what makes a killed `dedup migrate` (or first use) all-or-nothing or resumable, and two
first uses of a new store at once safe.

- SQLite: ``BEGIN IMMEDIATE`` with pysqlite's own transaction handling off, so that the DDL is
  inside the transaction too (pysqlite opens one only before INSERT/UPDATE/DELETE, and left each
  CREATE or ALTER before that committed on its own); the write lock waits for another writer.
- PostgreSQL: DDL is transactional; a transaction-scoped advisory lock per schema serialises two
  creators (without it the second fails on the catalog's unique index).
- MySQL/MariaDB: every DDL statement commits itself, so a session-scoped named lock per database
  serialises creators, and the revisions do only what is missing (migrations/sql/idempotent.py).

A killed process's transaction is rolled back and its lock freed by the database itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from ..errors import StoreError

LOCK_WAIT_S = 600  # MySQL/MariaDB: how long to wait for another dedup changing the schema


@contextmanager
def schema_transaction(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A connection in a transaction, holding the store's schema lock; committed when the block ends."""
    name = engine.dialect.name
    if name == "sqlite":
        with _sqlite_immediate(engine) as conn:
            yield conn
    elif name in ("mysql", "mariadb"):
        with engine.connect() as conn, _named_lock(conn):
            with conn.begin():
                yield conn
    else:
        with engine.begin() as conn:
            if name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext('dedup schema ' || current_schema()))"))
            yield conn


@contextmanager
def _sqlite_immediate(engine: sa.Engine) -> Iterator[sa.Connection]:
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        level = raw.isolation_level
        raw.isolation_level = None  # pysqlite begins nothing itself: the BEGIN below covers every statement
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
        finally:
            raw.isolation_level = level


@contextmanager
def _named_lock(conn: sa.Connection) -> Iterator[None]:
    name = sa.text("CONCAT('dedup schema ', MD5(COALESCE(DATABASE(), '')))")
    got = conn.execute(sa.select(sa.func.get_lock(name, LOCK_WAIT_S))).scalar()
    conn.commit()
    if got != 1:
        raise StoreError(f"another dedup has been changing the store's schema for {LOCK_WAIT_S} s: try again later")
    try:
        yield
    finally:
        try:
            conn.execute(sa.select(sa.func.release_lock(name)))
            conn.commit()
        except sa.exc.DBAPIError:  # the connection broke: its session, and the lock with it, are gone
            pass

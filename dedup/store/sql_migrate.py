"""Applying and checking the SQL store's Alembic revisions from inside dedup."""

from __future__ import annotations

from functools import cache

import sqlalchemy as sa
from alembic.config import Config as AlembicConfig
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from ..errors import ConfigError, StoreError
from . import sql_schema
from .sql_schema_lock import schema_transaction

VERSION_TABLE = "dedup_alembic_version"


# The repository keeps migrations/ at the top level; installed (wheel or editable), it is the
# package dedup._migrations, so Alembic finds the revisions as package data wherever dedup runs.
SCRIPT_LOCATION = "dedup._migrations:sql"


def _alembic_config(connection=None) -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    cfg.attributes["connection"] = connection
    return cfg


@cache
def _script() -> ScriptDirectory:
    """The revisions, read once a process: Alembic's commands parse every revision file again on
    each call, which made opening a new store cost a quarter of a second of Python (issue 23)."""
    return ScriptDirectory.from_config(_alembic_config())


def head_revision() -> str:
    return _script().get_current_head()


def _upgrade_to_head(conn: sa.Connection) -> None:
    """What ``alembic.command.upgrade(cfg, "head")`` does, on the revisions read once (``_script``)."""
    script = _script()
    with EnvironmentContext(_alembic_config(conn), script, destination_rev="head",
                            fn=lambda rev, _context: script._upgrade_revs("head", rev)):
        script.run_env()


def current_revision(conn: sa.Connection) -> str | None:
    return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


def upgrade(engine: sa.Engine, first_use: bool = False) -> tuple[str | None, str]:
    """Bring the store's schema to the newest revision; returns (before, after).

    Under the schema lock, in one transaction where the database has transactional DDL; where it
    has not, an interrupted revision is run again (each does only what is missing). ``first_use``:
    a store at another revision that holds anything is refused (`dedup migrate` upgrades it).
    """
    head = head_revision()
    with schema_transaction(engine) as conn:
        before = current_revision(conn)
        if before is None:
            _refuse_foreign_tables(conn)
        elif first_use and before != head and not (_known(before) and _unused(conn)):
            _refuse(before, head)
        _upgrade_to_head(conn)
    return before, head


def _refuse_foreign_tables(conn: sa.Connection) -> None:
    """A database that never held a dedup store but has a table of a store's name (the source's
    database, say) is refused before anything is made in it. A version table, even empty, says a
    creation of the store began and was interrupted: that one is finished."""
    insp = sa.inspect(conn)
    if insp.has_table(VERSION_TABLE):
        return
    clash = sorted(set(insp.get_table_names()) & set(sql_schema.metadata.tables))
    if clash:
        raise ConfigError(f"store.url: the database already has a table {clash[0]} that dedup did not make: "
                          "give the store a database (or schema) of its own")


def _unused(conn: sa.Connection) -> bool:
    """Not one row in any of the store's tables: a store whose creation was interrupted (MySQL/MariaDB
    commit each revision as it goes) or that was never used, which its first use may bring to the
    newest revision; a store holding anything waits for `dedup migrate`."""
    have = set(sa.inspect(conn).get_table_names())
    return not any(conn.execute(sa.select(sa.literal(1)).select_from(sa.table(name)).limit(1)).first()
                   for name in sql_schema.metadata.tables if name in have)


def _known(revision: str) -> bool:
    return revision in {s.revision for s in _script().walk_revisions()}


def _refuse(current: str, head: str) -> None:
    if _known(current):
        raise StoreError(f"the store's schema is at revision {current}, this dedup needs {head}: run `dedup migrate`")
    raise StoreError(f"the store's schema (revision {current}) is newer than this dedup knows: upgrade dedup")


def ensure_schema(engine: sa.Engine) -> None:
    """Create the schema in an empty store, or finish one whose creation another process has under
    way or left part way; refuse a store holding anything at another revision than this dedup's.
    Decided under the schema lock, where no other creator is at work."""
    with engine.connect() as conn:
        current = current_revision(conn)
    if current != head_revision():
        upgrade(engine, first_use=True)


def check_revision(engine: sa.Engine) -> None:
    """Refuse a store at another revision than this dedup's, writing nothing (reports)."""
    head = head_revision()
    with engine.connect() as conn:
        current = current_revision(conn)
    if current != head:
        _refuse(current, head)

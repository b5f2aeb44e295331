"""The embedded store: the logical model of the MongoDB store in SQL tables, through SQLAlchemy.

SQLite by default (no server needed); PostgreSQL and MySQL/MariaDB work the same way. A full
run's result, and an incremental run's changes, are each written in one transaction, so a
failure or a kill leaves the previous state in place.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Callable

import numpy as np
import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..clock import now
from ..db.engine import first_line, make_engine, read_only_sqlite_url
from ..db.masking import mask_secrets
from ..errors import LockedError, StoreError
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from . import sql_schema as S
from . import sql_write as W
from .base import Store, StoreBase
from .gathered import GatheredRows
from .model import (GroupChange, RunRecord, Skipped, TableChanges, TableSnapshot, TableState, blob_words,
                    checked_terms, signed_hashes, to_unsigned)
from .sql_actions import SqlActions
from .sql_decisions import SqlDecisions
from .sql_staging import SqlStaging
from .sql_migrate import check_revision, current_revision, ensure_schema

_CHUNK = W.CHUNK  # keys per IN (...)
# term hashes per IN (...): small enough that PostgreSQL probes the primary key rather than
# scanning a table of a million terms
_TERMS_CHUNK = 1000


class SqlStore(SqlActions, SqlDecisions, SqlStaging, StoreBase):
    def __init__(self, url: str, migrate: bool = True, read_only: bool = False, **_ignored):
        """``read_only``: open for reading only (report): a SQLite file read-only, nothing created or
        migrated; a store without dedup's tables (or no file at all) reads as empty."""
        self.url = url
        opened = read_only_sqlite_url(url) if read_only else url
        self.empty = opened is None  # a SQLite file that does not exist: never create it
        self.engine = make_engine(opened or "sqlite://", "store")
        self.statements = 0  # round trips to the database, for benchmarks
        sa.event.listen(self.engine, "before_cursor_execute", self._count)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_busy if read_only else _sqlite_pragmas)
        if read_only and not self.empty:
            self.empty = self._guard(_schema_absent, self.engine)
        elif migrate:
            self._guard(ensure_schema, self.engine)

    def _count(self, *_args) -> None:
        self.statements += 1

    def _guard(self, fn, *args):
        try:
            return fn(*args)
        except sa_exc.SQLAlchemyError as e:
            raise StoreError(f"store {mask_secrets(self.url)}: {self.why(e)}") from None

    def why(self, e: Exception) -> str:
        """A driver's error in one line; a SQLite file that cannot be opened says what it likely is."""
        if "unable to open database file" not in str(e):
            return first_line(e)
        path = self.engine.url.database or ""
        if os.path.isdir(path):
            return f"{path} is a directory, not a SQLite file"
        return f"{first_line(e)} (is the store's file or directory read-only?)"

    def close(self) -> None:
        self.engine.dispose()

    def concurrent_writer(self) -> Callable[[], Store] | None:
        """This store opened anew (a forked child cannot share the parent's pooled connections), for
        a child writing one transaction while the parent reads the last committed results: on a
        server, or a SQLite file in WAL mode (without WAL, on a file system without shared memory,
        the child's write would lock the parent's reads out); None for an in-memory SQLite store."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite":
            if url.database in (None, "", ":memory:"):
                return None
            with self.engine.connect() as conn:
                if str(conn.exec_driver_sql("PRAGMA journal_mode").scalar()).lower() != "wal":
                    return None
        return functools.partial(SqlStore, self.url, migrate=False)

    # -- runs and locks ------------------------------------------------------------------------
    def start_run(self, run: RunRecord) -> int:
        def write():
            with self.engine.begin() as conn:
                result = conn.execute(S.runs.insert().values(
                    table_name=run.table, kind=run.kind, started_at=run.started_at, status=run.status,
                    summary=json.dumps(run.summary)))
                return int(result.inserted_primary_key[0])
        run.id = self._guard(write)
        return run.id

    def finish_run(self, run_id: int, status: str, summary: dict) -> None:
        def write():
            with self.engine.begin() as conn:
                conn.execute(S.runs.update().where(S.runs.c.id == run_id).values(
                    finished_at=now(), status=status, summary=json.dumps(summary)))
        self._guard(write)

    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        if self.empty:
            return []

        def read():
            r = S.runs.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(r.id, r.kind, r.started_at, r.finished_at, r.status, r.summary).where(
                    r.table_name == table).order_by(r.id.desc()).limit(limit)).all()
            return [RunRecord(table, k, s, f, st, json.loads(sm or "{}"), i) for i, k, s, f, st, sm in rows]
        return self._guard(read)

    def acquire_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None = None) -> None:
        t = S.tables.c

        def take():
            try:
                with self.engine.begin() as conn:
                    if conn.execute(sa.select(t.table_name).where(t.table_name == table)).first() is None:
                        conn.execute(S.tables.insert().values(table_name=table, max_group_id=0))
            except sa_exc.IntegrityError:
                pass  # another process inserted the row first
            at = now()
            with self.engine.begin() as conn:
                taken = conn.execute(S.tables.update().where(
                    t.table_name == table,
                    sa.or_(t.lock_owner.is_(None), t.lock_expires < at, t.lock_owner == owner,
                           t.lock_owner == (steal_from or owner)),
                ).values(lock_owner=owner, lock_expires=at + _dt.timedelta(seconds=ttl_seconds))).rowcount
                if taken:
                    return None
                return conn.execute(sa.select(t.lock_owner, t.lock_expires).where(t.table_name == table)).first()
        holder = self._guard(take)
        if holder is not None:
            raise LockedError(f"table {table!r} is locked by another run ({holder[0]}) until "
                              f"{holder[1]:%Y-%m-%d %H:%M:%S} UTC; try again later", owner=holder[0])

    def release_lock(self, table: str, owner: str) -> None:
        def write():
            t = S.tables.c
            with self.engine.begin() as conn:
                conn.execute(S.tables.update().where(t.table_name == table, t.lock_owner == owner).values(
                    lock_owner=None, lock_expires=None))
        self._guard(write)

    def lock_holder(self, table: str) -> tuple[str, _dt.datetime] | None:
        if self.empty:
            return None

        def read():
            t = S.tables.c
            with self.engine.connect() as conn:
                return conn.execute(sa.select(t.lock_owner, t.lock_expires).where(
                    t.table_name == table, t.lock_owner.is_not(None))).first()
        held = self._guard(read)
        return (held[0], held[1]) if held is not None else None

    # -- reads ---------------------------------------------------------------------------------
    def state(self, table: str) -> TableState | None:
        if self.empty:
            return None

        def read():
            t = S.tables.c
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(t.version, t.watermark, t.updated_at).where(t.table_name == table)).first()
            if row is None or row.version is None:
                return None
            return TableState(table, json.loads(row.version), json.loads(row.watermark) if row.watermark else None,
                              row.updated_at)
        return self._guard(read)

    def fingerprints(self, table: str, keys: list[str] | None = None) -> dict[str, int]:
        f = S.fingerprints.c
        query = sa.select(f.row_key, f.fingerprint).where(f.table_name == table)
        rows = self._guard(self._select_in, query, f.row_key, keys)
        return {k: to_unsigned(v) for k, v in rows}

    def row_watermarks(self, table: str, keys: list[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for t in (S.skipped, S.fingerprints):  # a key in both (never, but) counts as fingerprinted
            query = sa.select(t.c.row_key, t.c.watermark).where(t.c.table_name == table)
            out.update(self._guard(self._select_in, query, t.c.row_key, keys))
        return out

    def keys(self, table: str) -> set[str]:
        out: set[str] = set()
        for t in (S.fingerprints, S.skipped):  # two scans, no UNION: the set drops repeats
            out.update(k for (k,) in self._guard(self._select_in, sa.select(t.c.row_key).where(
                t.c.table_name == table), None, None))
        return out

    def count_keys(self, table: str) -> int:
        def read():
            with self.engine.connect() as conn:
                return sum(int(conn.execute(sa.select(sa.func.count()).select_from(t).where(
                    t.c.table_name == table)).scalar_one()) for t in (S.fingerprints, S.skipped))
        return 0 if self.empty else self._guard(read)

    def sketches(self, table: str, keys: list[str]) -> dict[str, tuple[int, ...]]:
        """``signature``'s words, or a row written before revision 0004 its three sketch columns."""
        f = S.fingerprints.c
        query = sa.select(f.row_key, f.signature, f.sketch1, f.sketch2, f.sketch3).where(
            f.table_name == table, sa.or_(f.signature.is_not(None), f.sketch1.is_not(None)))
        rows = self._guard(self._select_in, query, f.row_key, keys)
        return {k: blob_words(sig) if sig is not None else (to_unsigned(a), to_unsigned(b), to_unsigned(c))
                for k, sig, a, b, c in rows}

    def term_counts(self, table: str, hashes: Sequence[int] | np.ndarray) -> dict[int, int]:
        tc = S.term_counts.c
        query = sa.select(tc.term_hash, tc.doc_count).where(tc.table_name == table)
        rows = self._guard(self._select_in, query, tc.term_hash, signed_hashes(hashes), _TERMS_CHUNK)
        return {to_unsigned(h): int(n) for h, n in rows}

    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        b = S.blocks.c
        query = sa.select(b.block_name, b.hashcode, b.textname).where(b.table_name == table)
        out: dict[str, list[tuple[int, str]]] = {}
        for name, h, key in self._guard(self._select_in, query, b.block_name, block_names):
            out.setdefault(name, []).append((to_unsigned(h), key))
        return out

    def group_ids_of(self, table: str, keys: list[str]) -> dict[str, int]:
        m = S.members.c
        query = sa.select(m.row_key, m.group_id).where(m.table_name == table)
        return dict(self._guard(self._select_in, query, m.row_key, keys))

    def _group_id_tops(self, table: str) -> tuple[int | None, int | None]:
        def read():
            with self.engine.connect() as conn:
                stored = conn.execute(sa.select(S.tables.c.max_group_id).where(
                    S.tables.c.table_name == table)).scalar()
                live = conn.execute(sa.select(sa.func.max(S.groups.c.group_id)).where(
                    S.groups.c.table_name == table)).scalar()
            return stored, live
        return self._guard(read)

    def groups(self, table: str, ids: list[int] | None = None) -> list[Group]:
        def read():
            g, m, p = S.groups.c, S.members.c, S.pairs.c
            heads = self._select_in(sa.select(g.group_id, g.created_run, g.updated_run, g.merged_from).where(
                g.table_name == table), g.group_id, ids)
            rows = self._select_in(sa.select(m.group_id, m.row_key, m.distance).where(m.table_name == table),
                                   m.group_id, ids)
            by_id = {gid: Group(gid, [], [], [], cr, ur, json.loads(mf or "[]")) for gid, cr, ur, mf in heads}
            group_of: dict[str, int] = {}
            for gid, key, dist in rows:
                if gid in by_id:
                    by_id[gid].keys.append(key)
                    by_id[gid].distances.append(dist)
                    group_of[key] = gid
            prs = self._select_in(sa.select(p.key_a, p.key_b, p.distance).where(p.table_name == table),
                                  p.key_a, None if ids is None else list(group_of))
            for a, b, d in prs:
                if a in group_of:
                    by_id[group_of[a]].pairs.append(Pair(a, b, d))
            for grp in by_id.values():
                order = sorted(range(grp.size), key=lambda i: key_sort(grp.keys[i]))
                grp.keys = [grp.keys[i] for i in order]
                grp.distances = [grp.distances[i] for i in order]
                grp.pairs.sort(key=lambda pr: (key_sort(pr.a), key_sort(pr.b)))
            return [by_id[i] for i in sorted(by_id)]
        return self._guard(read)

    def run_changes(self, table: str, run_id: int) -> list[GroupChange]:
        def read():
            c = S.run_changes.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(c.group_id, c.kinds, c.detail).where(
                    c.table_name == table, c.run_id == int(run_id)).order_by(c.group_id)).all()
            return [GroupChange.of(gid, kinds.split(","), json.loads(detail)) for gid, kinds, detail in rows]
        return [] if self.empty else self._guard(read)

    def _skipped_rows(self, table: str) -> list[Skipped]:
        def read():
            s = S.skipped.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(s.row_key, s.reason, s.detail).where(s.table_name == table)).all()
            return [Skipped(k, r, d or "") for k, r, d in rows]
        return self._guard(read)

    def _select_in(self, query, column, values: list | None, chunk: int = _CHUNK) -> list:
        """Run ``query``, restricted to ``column IN values`` chunk by chunk (all rows when values is None)."""
        with self.engine.connect() as conn:
            if values is None:
                return list(conn.execute(query).all())
            out: list = []
            values = list(dict.fromkeys(values))
            for start in range(0, len(values), chunk):
                out.extend(conn.execute(query.where(column.in_(values[start:start + chunk]))).all())
            return out

    # -- writes --------------------------------------------------------------------------------
    def _replace_table(self, snap: TableSnapshot, sketches: np.ndarray | GatheredRows | None, later=None) -> None:
        """``later`` is called inside the transaction, once the rows are written."""
        def rows(conn) -> None:
            W.add_rows(conn, snap.table, snap.keys, [int(v) for v in snap.fingerprints], sketches,
                       snap.row_watermarks)
            if isinstance(sketches, GatheredRows):  # read once: let go before the blocks are written
                sketches.release()
            W.add_blocks(conn, snap.table, snap.blocks)
        self._guard(self._replace, snap, rows, later)

    def _replace(self, snap: TableSnapshot, rows, later=None) -> None:
        """In one transaction: the table's results deleted, its rows written by ``rows(conn)``, then
        terms, skipped rows, groups, the run's history and the state (replace_table and
        replace_table_staged differ only in where the rows come from)."""
        term_hashes, term_counts = checked_terms(snap.table, snap.terms)
        with self.engine.begin() as conn:
            for tbl in S.PER_TABLE:  # term counts included
                conn.execute(tbl.delete().where(tbl.c.table_name == snap.table))
            rows(conn)
            W.add_terms(conn, snap.table, term_hashes, term_counts)
            if len(term_hashes) and conn.dialect.name == "postgresql":
                # fresh statistics, else PostgreSQL scans the whole table for each lookup until
                # autovacuum gets to it (a non-owner only gets a warning: no harm)
                conn.execute(sa.text(f"ANALYZE {S.term_counts.name}"))
            W.add_skipped(conn, snap.table, snap.skipped)
            if later is not None:
                snap = replace(snap, **later())
            W.add_groups(conn, snap.table, snap.groups)
            W.add_changes(conn, snap.table, snap.run_id, snap.changes)
            W.set_state(conn, snap.table, snap.version, snap.watermark, snap.groups)

    def _apply_changes(self, ch: TableChanges, sketches: np.ndarray | GatheredRows | None) -> None:
        def write():
            t = ch.table
            gone = list(dict.fromkeys([*ch.remove_keys, *ch.add_keys, *(s.key for s in ch.skipped)]))
            f = S.fingerprints.c
            with self.engine.begin() as conn:  # one transaction: blocks always match fingerprints
                W.remove_blocks(conn, t, ch.remove_blocks)
                W.remove_blocks(conn, t, ch.add_blocks)
                for start in range(0, len(gone), _CHUNK):
                    chunk = gone[start:start + _CHUNK]
                    conn.execute(S.fingerprints.delete().where(f.table_name == t, f.row_key.in_(chunk)))
                    conn.execute(S.skipped.delete().where(S.skipped.c.table_name == t, S.skipped.c.row_key.in_(chunk)))
                W.add_rows(conn, t, ch.add_keys, [int(v) for v in ch.add_fingerprints], sketches, ch.add_row_watermarks)
                W.add_blocks(conn, t, ch.add_blocks)
                W.add_skipped(conn, t, ch.skipped)
                W.drop_groups(conn, t, [*ch.delete_groups, *(g.id for g in ch.upsert_groups)])
                W.add_groups(conn, t, ch.upsert_groups)
                W.add_changes(conn, t, ch.run_id, ch.changes)
                W.set_state(conn, t, ch.version, ch.watermark, ch.upsert_groups)
        self._guard(write)


def _schema_absent(engine: sa.Engine) -> bool:
    """Read-only: True for a store without dedup's tables; a schema at another revision is refused
    (it says whether to run `dedup migrate`); nothing is written."""
    with engine.connect() as conn:
        if current_revision(conn) is None:
            return True
    check_revision(engine)  # at this revision: returns; else raises, before any write
    return False


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.close()
    _sqlite_busy(dbapi_conn, _record)


def _sqlite_busy(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()

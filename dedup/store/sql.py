"""The embedded store: the logical model of the MongoDB store in SQL tables, through SQLAlchemy.

SQLite by default (no server needed); PostgreSQL and MySQL/MariaDB work the same way. A full
run's result, and an incremental run's changes, are each written in one transaction, so a
failure or a kill leaves the previous state in place.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
from collections.abc import Sequence

import numpy as np
import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..db.engine import first_line, make_engine, read_only_sqlite_url
from ..db.masking import mask_secrets
from ..errors import LockedError, StoreError
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from . import sql_schema as S
from .model import (BlockEntries, RunRecord, Skipped, TableChanges, TableSnapshot, TableState, blob_words,
                    checked_sketches, checked_terms, signed_hashes, sketch_blobs, to_signed, to_unsigned)
from .sql_migrate import current_revision, ensure_schema

_CHUNK = 5000  # rows per executemany and keys per IN (...)
# term hashes per IN (...): small enough that PostgreSQL probes the primary key rather than
# scanning a table of a million terms
_TERMS_CHUNK = 1000


class SqlStore:
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
            hint = " (is the store's file or directory read-only?)" if "unable to open database file" in str(e) else ""
            raise StoreError(f"store {mask_secrets(self.url)}: {first_line(e)}{hint}") from None

    def close(self) -> None:
        self.engine.dispose()

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
                    finished_at=_now(), status=status, summary=json.dumps(summary)))
        self._guard(write)

    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
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
            now = _now()
            with self.engine.begin() as conn:
                taken = conn.execute(S.tables.update().where(
                    t.table_name == table,
                    sa.or_(t.lock_owner.is_(None), t.lock_expires < now, t.lock_owner == owner,
                           t.lock_owner == (steal_from or owner)),
                ).values(lock_owner=owner, lock_expires=now + _dt.timedelta(seconds=ttl_seconds))).rowcount
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

    def max_group_id(self, table: str) -> int:
        def read():
            with self.engine.connect() as conn:
                stored = conn.execute(sa.select(S.tables.c.max_group_id).where(
                    S.tables.c.table_name == table)).scalar()
                live = conn.execute(sa.select(sa.func.max(S.groups.c.group_id)).where(
                    S.groups.c.table_name == table)).scalar()
            return max(stored or 0, live or 0)
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

    def skipped(self, table: str) -> list[Skipped]:
        def read():
            s = S.skipped.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(s.row_key, s.reason, s.detail).where(s.table_name == table)).all()
            return sorted((Skipped(k, r, d or "") for k, r, d in rows), key=lambda x: key_sort(x.key))
        return self._guard(read)

    def _select_in(self, query, column, values: list | None, chunk: int = _CHUNK) -> list:
        """Run ``query``, restricted to ``column IN values`` chunk by chunk (all rows when values is None)."""
        with self.engine.connect() as conn:
            if values is None:
                return conn.execute(query).all()
            out: list = []
            values = list(dict.fromkeys(values))
            for start in range(0, len(values), chunk):
                out.extend(conn.execute(query.where(column.in_(values[start:start + chunk]))).all())
            return out

    # -- writes --------------------------------------------------------------------------------
    def replace_table(self, snap: TableSnapshot) -> None:
        sketches = checked_sketches(snap.table, len(snap.keys), snap.sketches)
        term_hashes, term_counts = checked_terms(snap.table, snap.terms)

        def write():
            with self.engine.begin() as conn:
                for tbl in S.PER_TABLE:  # term counts included
                    conn.execute(tbl.delete().where(tbl.c.table_name == snap.table))
                _add_rows(conn, snap.table, snap.keys, [int(v) for v in snap.fingerprints], sketches)
                _add_blocks(conn, snap.table, snap.blocks)
                _add_terms(conn, snap.table, term_hashes, term_counts)
                if len(term_hashes) and conn.dialect.name == "postgresql":
                    # fresh statistics, else PostgreSQL scans the whole table for each lookup until
                    # autovacuum gets to it (a non-owner only gets a warning: no harm)
                    conn.execute(sa.text(f"ANALYZE {S.term_counts.name}"))
                _add_skipped(conn, snap.table, snap.skipped)
                _add_groups(conn, snap.table, snap.groups)
                _set_state(conn, snap.table, snap.version, snap.watermark, snap.groups)
        self._guard(write)

    def apply_changes(self, ch: TableChanges) -> None:
        def write():
            t = ch.table
            gone = list(dict.fromkeys([*ch.remove_keys, *ch.add_keys, *(s.key for s in ch.skipped)]))
            f = S.fingerprints.c
            sketches = checked_sketches(t, len(ch.add_keys), ch.add_sketches)
            with self.engine.begin() as conn:  # one transaction: blocks always match fingerprints
                _remove_blocks(conn, t, ch.remove_blocks)
                _remove_blocks(conn, t, ch.add_blocks)
                for start in range(0, len(gone), _CHUNK):
                    chunk = gone[start:start + _CHUNK]
                    conn.execute(S.fingerprints.delete().where(f.table_name == t, f.row_key.in_(chunk)))
                    conn.execute(S.skipped.delete().where(S.skipped.c.table_name == t, S.skipped.c.row_key.in_(chunk)))
                _add_rows(conn, t, ch.add_keys, [int(v) for v in ch.add_fingerprints], sketches)
                _add_blocks(conn, t, ch.add_blocks)
                _add_skipped(conn, t, ch.skipped)
                _drop_groups(conn, t, [*ch.delete_groups, *(g.id for g in ch.upsert_groups)])
                _add_groups(conn, t, ch.upsert_groups)
                _set_state(conn, t, ch.version, ch.watermark, ch.upsert_groups)
        self._guard(write)


def _add_rows(conn, table: str, keys: list[str], fps: list[int], sketches: np.ndarray | None) -> None:
    """Fingerprint rows, with their sketches if any (all words in ``signature``; sketch1..3 stay NULL)."""
    if len(keys) != len(fps):
        raise StoreError(f"table {table!r}: {len(keys)} keys but {len(fps)} fingerprints")
    _insert(conn, S.fingerprints, (
        {"table_name": table, "row_key": k, "fingerprint": to_signed(fp), "signature": sig}
        for k, fp, sig in zip(keys, fps, sketch_blobs(sketches, len(keys)))))


def _add_blocks(conn, table: str, entries: BlockEntries) -> None:
    """Block entries through the driver's own executemany, as plain tuples: SQLAlchemy's per-row
    parameter handling cost 15 of the 39 s that 2.9 million entries took (200k rows)."""
    names, keys, fps = entries.names, entries.keys, entries.fingerprints.view(np.int64).tolist()
    # by block name, so the primary key's index grows by appends, not random inserts; a name's few
    # entries may come in any order (sorting by whole tuples took 10 s of CPU for 2.9 million)
    order = sorted(range(len(names)), key=names.__getitem__)
    rows = iter([(table, names[i], keys[i], fps[i]) for i in order])
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(conn.dialect.paramstyle)
    if mark is None:  # a driver with named parameters: the general path
        _insert(conn, S.blocks, ({"table_name": t, "block_name": n, "textname": k, "hashcode": h}
                                 for t, n, k, h in rows))
        return
    q = conn.dialect.identifier_preparer
    cols = ", ".join(q.quote(c) for c in ("table_name", "block_name", "textname", "hashcode"))
    sql = f"INSERT INTO {q.format_table(S.blocks)} ({cols}) VALUES ({', '.join([mark] * 4)})"
    for chunk in iter(lambda: list(itertools.islice(rows, _CHUNK)), []):
        conn.exec_driver_sql(sql, chunk)


def _remove_blocks(conn, table: str, entries: BlockEntries) -> None:
    """Delete block entries by their exact primary keys: the cost follows the batch, not the store."""
    if not len(entries):
        return
    b = S.blocks.c
    rows = [{"b_t": table, "b_n": name, "b_k": key} for name, key in zip(entries.names, entries.keys)]
    for start in range(0, len(rows), _CHUNK):
        conn.execute(S.blocks.delete().where(
            b.table_name == sa.bindparam("b_t"), b.block_name == sa.bindparam("b_n"),
            b.textname == sa.bindparam("b_k")), rows[start:start + _CHUNK])


def _add_terms(conn, table: str, hashes: np.ndarray, counts: np.ndarray) -> None:
    _insert(conn, S.term_counts, (
        {"table_name": table, "term_hash": h, "doc_count": n}
        for h, n in zip(hashes.view(np.int64).tolist(), counts.tolist())))


def _add_skipped(conn, table: str, skipped: list[Skipped]) -> None:
    _insert(conn, S.skipped, (
        {"table_name": table, "row_key": s.key, "reason": s.reason, "detail": s.detail[:2000]} for s in skipped))


def _add_groups(conn, table: str, groups: list[Group]) -> None:
    _insert(conn, S.groups, (
        {"table_name": table, "group_id": g.id, "size": g.size, "created_run": g.created_run,
         "updated_run": g.updated_run, "merged_from": json.dumps(g.merged_from) if g.merged_from else None}
        for g in groups))
    _insert(conn, S.members, (
        {"table_name": table, "row_key": k, "group_id": g.id, "distance": d}
        for g in groups for k, d in zip(g.keys, g.distances)))
    _insert(conn, S.pairs, (
        {"table_name": table, "key_a": p.a, "key_b": p.b, "distance": p.distance} for g in groups for p in g.pairs))


def _drop_groups(conn, table: str, ids: list[int]) -> None:
    """Delete groups with their members and pairs."""
    ids = list(dict.fromkeys(ids))
    m = S.members.c
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        keys = conn.execute(sa.select(m.row_key).where(m.table_name == table, m.group_id.in_(chunk))).scalars().all()
        for k_start in range(0, len(keys), _CHUNK):
            kc = keys[k_start:k_start + _CHUNK]
            conn.execute(S.pairs.delete().where(S.pairs.c.table_name == table, S.pairs.c.key_a.in_(kc)))
        conn.execute(S.members.delete().where(m.table_name == table, m.group_id.in_(chunk)))
        conn.execute(S.groups.delete().where(S.groups.c.table_name == table, S.groups.c.group_id.in_(chunk)))


def _set_state(conn, table: str, version: dict, watermark: dict | None, groups: list[Group]) -> None:
    """Version stamp, watermark and largest group id; the lock columns are left as they are."""
    t = S.tables.c
    top = max((g.id for g in groups), default=0)
    values = {"version": json.dumps(version, sort_keys=True),
              "watermark": json.dumps(watermark) if watermark is not None else None, "updated_at": _now()}
    updated = conn.execute(S.tables.update().where(t.table_name == table).values(
        max_group_id=sa.case((t.max_group_id < top, top), else_=t.max_group_id), **values)).rowcount
    if not updated:
        conn.execute(S.tables.insert().values(table_name=table, max_group_id=top, **values))


def _insert(conn, table: sa.Table, rows) -> None:
    chunk: list[dict] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= _CHUNK:
            conn.execute(table.insert(), chunk)
            chunk = []
    if chunk:
        conn.execute(table.insert(), chunk)


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)


def _schema_absent(engine: sa.Engine) -> bool:
    """Read-only: True for a store without dedup's tables; a schema at another revision is refused
    (it says whether to run `dedup migrate`); nothing is written."""
    with engine.connect() as conn:
        if current_revision(conn) is None:
            return True
    ensure_schema(engine)  # at this revision: returns; else raises, before any write
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

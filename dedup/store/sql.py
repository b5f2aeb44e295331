"""The embedded store: the logical model of the MongoDB store in SQL tables, through SQLAlchemy.

SQLite by default (no server needed); PostgreSQL and MySQL/MariaDB work the same way. A full
run's result replaces the table's rows inside one transaction, so a failure leaves the previous
result in place.
"""

from __future__ import annotations

import json
import datetime as _dt

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..blocks import BlockLayout
from ..errors import StoreError
from ..fingerprint import to_signed, to_unsigned
from ..groups import Group, Pair
from ..masking import mask_secrets
from ..normalize import key_sort
from ..source import first_line, make_engine
from . import sql_schema as S
from .model import RunRecord, Skipped, TableSnapshot, TableState
from .sql_migrate import ensure_schema

_CHUNK = 5000  # rows per executemany and keys per IN (...)


class SqlStore:
    def __init__(self, url: str, migrate: bool = True):
        self.url = url
        self.engine = make_engine(url, "store")
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        if migrate:
            self._guard(ensure_schema, self.engine)

    def _guard(self, fn, *args):
        try:
            return fn(*args)
        except sa_exc.SQLAlchemyError as e:
            raise StoreError(f"store {mask_secrets(self.url)}: {first_line(e)}") from None

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ----------------------------------------------------------------------------
    def replace_table(self, snap: TableSnapshot) -> None:
        self._guard(self._replace_table, snap)

    def _replace_table(self, snap: TableSnapshot) -> None:
        t = snap.table
        layout = BlockLayout.for_distance(int(snap.version["max_distance"]))
        with self.engine.begin() as conn:
            for tbl in S.PER_TABLE:
                conn.execute(tbl.delete().where(tbl.c.table_name == t))
            run_id = self._insert_run(conn, snap.run)
            fps = [int(v) for v in snap.fingerprints]
            _insert(conn, S.fingerprints, (
                {"table_name": t, "row_key": k, "fingerprint": to_signed(fp)} for k, fp in zip(snap.keys, fps)))
            _insert(conn, S.blocks, (
                {"table_name": t, "block_name": name, "textname": k, "hashcode": to_signed(fp)}
                for k, fp in zip(snap.keys, fps) for name in layout.names(fp)))
            _insert(conn, S.groups, (
                {"table_name": t, "group_id": g.id, "size": g.size, "created_run": run_id, "updated_run": run_id}
                for g in snap.groups))
            _insert(conn, S.members, (
                {"table_name": t, "row_key": k, "group_id": g.id, "distance": d}
                for g in snap.groups for k, d in zip(g.keys, g.distances)))
            _insert(conn, S.pairs, (
                {"table_name": t, "key_a": p.a, "key_b": p.b, "distance": p.distance}
                for g in snap.groups for p in g.pairs))
            _insert(conn, S.skipped, (
                {"table_name": t, "row_key": s.key, "reason": s.reason, "detail": s.detail[:2000]}
                for s in snap.skipped))
            conn.execute(S.tables.delete().where(S.tables.c.table_name == t))
            conn.execute(S.tables.insert().values(
                table_name=t, version=json.dumps(snap.version, sort_keys=True),
                watermark=json.dumps(snap.watermark) if snap.watermark is not None else None,
                updated_at=_now()))

    def _insert_run(self, conn, run: RunRecord) -> int:
        result = conn.execute(S.runs.insert().values(
            table_name=run.table, kind=run.kind, started_at=run.started_at,
            finished_at=run.finished_at or _now(), status=run.status, summary=json.dumps(run.summary)))
        return int(result.inserted_primary_key[0])

    def record_failed_run(self, run: RunRecord) -> None:
        """Keep a failed run in the history (its results were not written)."""
        def write():
            with self.engine.begin() as conn:
                self._insert_run(conn, run)
        self._guard(write)

    # -- reading ----------------------------------------------------------------------------
    def fingerprints(self, table: str) -> dict[str, int]:
        def read():
            with self.engine.connect() as conn:
                q = sa.select(S.fingerprints.c.row_key, S.fingerprints.c.fingerprint).where(
                    S.fingerprints.c.table_name == table)
                return {k: to_unsigned(v) for k, v in conn.execute(q)}
        return self._guard(read)

    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        def read():
            out: dict[str, list[tuple[int, str]]] = {}
            b = S.blocks.c
            with self.engine.connect() as conn:
                for start in range(0, len(block_names), _CHUNK):
                    chunk = block_names[start:start + _CHUNK]
                    q = sa.select(b.block_name, b.hashcode, b.textname).where(
                        b.table_name == table, b.block_name.in_(chunk))
                    for name, h, key in conn.execute(q):
                        out.setdefault(name, []).append((to_unsigned(h), key))
            return out
        return self._guard(read)

    def groups(self, table: str) -> list[Group]:
        def read():
            with self.engine.connect() as conn:
                m = S.members.c
                rows = conn.execute(sa.select(m.group_id, m.row_key, m.distance).where(m.table_name == table)).all()
                p = S.pairs.c
                prs = conn.execute(sa.select(p.key_a, p.key_b, p.distance).where(p.table_name == table)).all()
            by_id: dict[int, Group] = {}
            group_of: dict[str, int] = {}
            for gid, key, dist in rows:
                g = by_id.setdefault(gid, Group(gid, [], []))
                g.keys.append(key)
                g.distances.append(dist)
                group_of[key] = gid
            for g in by_id.values():
                order = sorted(range(g.size), key=lambda i: key_sort(g.keys[i]))
                g.keys = [g.keys[i] for i in order]
                g.distances = [g.distances[i] for i in order]
            for a, b, d in prs:
                if a in group_of:
                    by_id[group_of[a]].pairs.append(Pair(a, b, d))
            for g in by_id.values():
                g.pairs.sort(key=lambda pr: (key_sort(pr.a), key_sort(pr.b)))
            return [by_id[i] for i in sorted(by_id)]
        return self._guard(read)

    def skipped(self, table: str) -> list[Skipped]:
        def read():
            s = S.skipped.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(s.row_key, s.reason, s.detail).where(s.table_name == table)).all()
            return sorted((Skipped(k, r, d or "") for k, r, d in rows), key=lambda x: key_sort(x.key))
        return self._guard(read)

    def state(self, table: str) -> TableState | None:
        def read():
            t = S.tables.c
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(t.version, t.watermark, t.updated_at).where(t.table_name == table)).first()
            if row is None:
                return None
            return TableState(table, json.loads(row.version), json.loads(row.watermark) if row.watermark else None,
                              row.updated_at)
        return self._guard(read)

    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        def read():
            r = S.runs.c
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(r.kind, r.started_at, r.finished_at, r.status, r.summary).where(
                    r.table_name == table).order_by(r.id.desc()).limit(limit)).all()
            return [RunRecord(table, k, s, f, st, json.loads(sm or "{}")) for k, s, f, st, sm in rows]
        return self._guard(read)


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


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()

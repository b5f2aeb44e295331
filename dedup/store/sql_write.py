"""The SQL store's writes: rows, blocks, groups, the run history and table state, inside a caller's transaction."""

from __future__ import annotations

import json
import numpy as np
import sqlalchemy as sa

from ..clock import now
from ..errors import StoreError
from ..index.groups import Group
from . import sql_schema as S
from .gathered import GatheredRows
from .model import BlockEntries, GroupChange, Skipped, sketch_blobs, to_signed
from .entries import PackedEntries, packed
from .sql_bulk import CHUNK, insert_columns, insert_dicts as insert, insert_tuples


def add_rows(conn, table: str, keys: list[str], fps: list[int], sketches: np.ndarray | GatheredRows | None,
             watermarks: list[str | None] | None = None) -> None:
    """Fingerprint rows, with their sketches if any (all words in ``signature``; sketch1..3 stay
    NULL) and their watermark texts if given."""
    wms = [None] * len(keys) if watermarks is None else watermarks
    if not len(keys) == len(fps) == len(wms):
        raise StoreError(f"table {table!r}: {len(keys)} keys but {len(fps)} fingerprints and {len(wms)} watermarks")
    insert_tuples(conn, S.fingerprints, ("table_name", "row_key", "fingerprint", "signature", "watermark"), (
        (table, k, to_signed(fp), sig, wm) for k, fp, sig, wm in zip(keys, fps, sketch_blobs(sketches, len(keys)), wms)))


def add_blocks(conn, table: str, entries: BlockEntries | PackedEntries) -> None:
    """Block entries in the index's order (dedup.store.entries), made a slice at a time and handed
    over column by column (``insert_columns``):
    SQLAlchemy's per-row parameter handling cost 15 of the 39 s that 2.9 million entries took (200k
    rows), random index inserts most of the rest, and a tuple an entry a fifth of what was left
    (bench/results/store-s36.md)."""
    insert_columns(conn, S.blocks, ("table_name", "block_name", "textname", "hashcode"), (
        (table, part.names, part.keys, part.fingerprints.view(np.int64).tolist())
        for part in packed(entries).slices(by_key=True)))


def remove_blocks(conn, table: str, entries: BlockEntries) -> None:
    """Delete block entries by their exact primary keys: the cost follows the batch, not the store."""
    if not len(entries):
        return
    b = S.blocks.c
    rows = [{"b_t": table, "b_n": name, "b_k": key} for name, key in zip(entries.names, entries.keys)]
    for start in range(0, len(rows), CHUNK):
        conn.execute(S.blocks.delete().where(
            b.table_name == sa.bindparam("b_t"), b.block_name == sa.bindparam("b_n"),
            b.textname == sa.bindparam("b_k")), rows[start:start + CHUNK])


def add_terms(conn, table: str, hashes: np.ndarray, counts: np.ndarray) -> None:
    insert(conn, S.term_counts, (
        {"table_name": table, "term_hash": h, "doc_count": n}
        for h, n in zip(hashes.view(np.int64).tolist(), counts.tolist())))


def add_skipped(conn, table: str, skipped: list[Skipped]) -> None:
    insert(conn, S.skipped, (
        {"table_name": table, "row_key": s.key, "reason": s.reason, "detail": s.detail[:2000],
         "watermark": s.watermark} for s in skipped))


def add_groups(conn, table: str, groups: list[Group]) -> None:
    insert(conn, S.groups, (
        {"table_name": table, "group_id": g.id, "size": g.size, "created_run": g.created_run,
         "updated_run": g.updated_run, "merged_from": json.dumps(g.merged_from) if g.merged_from else None}
        for g in groups))
    insert_tuples(conn, S.members, ("table_name", "row_key", "group_id", "distance"),
                  ((table, k, g.id, d) for g in groups for k, d in zip(g.keys, g.distances)))
    insert_tuples(conn, S.pairs, ("table_name", "key_a", "key_b", "distance"),
                  ((table, p.a, p.b, p.distance) for g in groups for p in g.pairs))


def add_changes(conn, table: str, run_id: int, changes: list[GroupChange]) -> None:
    """The run's history (any of the same run written before go first: a repeat never doubles it)."""
    c = S.run_changes.c
    conn.execute(S.run_changes.delete().where(c.table_name == table, c.run_id == int(run_id)))
    insert(conn, S.run_changes, (
        {"table_name": table, "run_id": int(run_id), "group_id": ch.group, "kinds": ",".join(ch.kinds),
         "detail": json.dumps(ch.detail(), ensure_ascii=False)} for ch in changes))


def drop_groups(conn, table: str, ids: list[int]) -> None:
    """Delete groups with their members and pairs."""
    ids = list(dict.fromkeys(ids))
    m = S.members.c
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        keys = conn.execute(sa.select(m.row_key).where(m.table_name == table, m.group_id.in_(chunk))).scalars().all()
        for k_start in range(0, len(keys), CHUNK):
            kc = keys[k_start:k_start + CHUNK]
            conn.execute(S.pairs.delete().where(S.pairs.c.table_name == table, S.pairs.c.key_a.in_(kc)))
        conn.execute(S.members.delete().where(m.table_name == table, m.group_id.in_(chunk)))
        conn.execute(S.groups.delete().where(S.groups.c.table_name == table, S.groups.c.group_id.in_(chunk)))


def set_state(conn, table: str, version: dict, watermark: dict | None, groups: list[Group]) -> None:
    """Version stamp, watermark and largest group id; the lock columns are left as they are."""
    t = S.tables.c
    top = max((g.id for g in groups), default=0)
    values = {"version": json.dumps(version, sort_keys=True),
              "watermark": json.dumps(watermark) if watermark is not None else None, "updated_at": now()}
    updated = conn.execute(S.tables.update().where(t.table_name == table).values(
        max_group_id=sa.case((t.max_group_id < top, top), else_=t.max_group_id), **values)).rowcount
    if not updated:
        conn.execute(S.tables.insert().values(table_name=table, max_group_id=top, **values))


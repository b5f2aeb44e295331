"""Bulk inserts for the SQL store: plain tuples through the driver's executemany, in index order."""

from __future__ import annotations

import itertools

import numpy as np
import sqlalchemy as sa

from .model import BlockEntries

CHUNK = 5000  # rows per executemany


def insert_dicts(conn, table: sa.Table, rows) -> None:
    chunk: list[dict] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= CHUNK:
            conn.execute(table.insert(), chunk)
            chunk = []
    if chunk:
        conn.execute(table.insert(), chunk)


def insert_tuples(conn, table: sa.Table, columns: tuple[str, ...], rows) -> None:
    """Insert plain tuples of ``columns`` through the driver's own executemany, CHUNK at a time."""
    rows = iter(rows)
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(conn.dialect.paramstyle)
    if mark is None:  # a driver with named parameters: the general path
        insert_dicts(conn, table, (dict(zip(columns, r)) for r in rows))
        return
    q = conn.dialect.identifier_preparer
    cols = ", ".join(q.quote(c) for c in columns)
    sql = f"INSERT INTO {q.format_table(table)} ({cols}) VALUES ({', '.join([mark] * len(columns))})"
    for chunk in iter(lambda: list(itertools.islice(rows, CHUNK)), []):
        conn.exec_driver_sql(sql, chunk)


def index_order(entries: BlockEntries) -> np.ndarray:
    """The entries' positions in (block name, row key) order, the store's index order, so inserts
    append instead of landing at random. Sorting millions of (table, name, key, fingerprint)
    tuples took most of a hot table's insert time and memory, so numpy sorts: the names as
    fixed-width ASCII bytes (the pipeline's names are ASCII and at most 32 characters: 55 MB and
    1.3 s for 2.6 million, where ranking them through a dict took 6.9 s), the keys by their rank
    (any text, so ranked once each distinct key)."""
    def ranks(values: list[str]) -> np.ndarray:
        rank = {v: i for i, v in enumerate(sorted(set(values)))}
        return np.fromiter((rank[v] for v in values), dtype=np.int64, count=len(values))
    try:
        names = np.array(entries.names, dtype="S") if entries.names else ranks(entries.names)
    except UnicodeEncodeError:  # a name given from outside the pipeline
        names = ranks(entries.names)
    return np.lexsort((ranks(entries.keys), names))

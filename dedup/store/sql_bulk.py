"""Bulk inserts for the SQL store: plain tuples through the driver's executemany, in index order."""

from __future__ import annotations

import itertools

import numpy as np
import sqlalchemy as sa

from .model import BlockEntries

CHUNK = 5000  # rows per executemany
SQLITE_VARS = 999  # parameters a SQLite statement may take (the limit of SQLite before 3.32)


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
    """Insert plain tuples of ``columns`` through the driver's own executemany, CHUNK at a time;
    on SQLite many rows a statement (``sqlite_rows``)."""
    rows = iter(rows)
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(conn.dialect.paramstyle)
    if mark is None:  # a driver with named parameters: the general path
        insert_dicts(conn, table, (dict(zip(columns, r)) for r in rows))
        return
    q = conn.dialect.identifier_preparer
    cols = ", ".join(q.quote(c) for c in columns)
    head, one = f"INSERT INTO {q.format_table(table)} ({cols}) VALUES ", f"({', '.join([mark] * len(columns))})"
    if conn.dialect.name == "sqlite":
        sqlite_rows(conn, head, one, len(columns), rows)
        return
    for chunk in iter(lambda: list(itertools.islice(rows, CHUNK)), []):
        conn.exec_driver_sql(head + one, chunk)


def sqlite_rows(conn, head: str, one: str, width: int, rows) -> None:
    """SQLite: ``per`` rows in each INSERT's VALUES (their parameters flattened, at most
    SQLITE_VARS a statement), the rest one a row. Stepping one statement a row cost about half
    of a bulk insert's time (3.2 million block entries of a 200k-row run: bench/results/store-write-i26.md);
    the rows and their order in the table are the same."""
    per = max(1, SQLITE_VARS // width)
    many, step = head + ",".join([one] * per), per * width
    for chunk in iter(lambda: list(itertools.islice(rows, CHUNK // per * per or per)), []):
        whole = len(chunk) // per * per
        if whole:
            flat = list(itertools.chain.from_iterable(chunk[:whole]))
            conn.exec_driver_sql(many, [tuple(flat[i:i + step]) for i in range(0, len(flat), step)])
        if whole < len(chunk):
            conn.exec_driver_sql(head + one, chunk[whole:])


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

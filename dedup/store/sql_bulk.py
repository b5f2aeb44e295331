"""Bulk inserts for the SQL store: plain tuples through the driver's executemany, many rows a
statement on SQLite and COPY on PostgreSQL (psycopg 3)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import sqlalchemy as sa

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
    on SQLite many rows a statement (``sqlite_rows``), on PostgreSQL one COPY (``postgres_copy``)."""
    rows = iter(rows)
    head, one = _statement(conn, table, columns)
    if head is None:  # a driver with named parameters: the general path
        insert_dicts(conn, table, (dict(zip(columns, r)) for r in rows))
        return
    if conn.dialect.name == "sqlite":
        sqlite_rows(conn, head, one, len(columns), rows)
        return
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        postgres_copy(conn, _table_name(conn, table), _columns(conn, columns), rows)
        return
    for chunk in iter(lambda: list(itertools.islice(rows, CHUNK)), []):
        conn.exec_driver_sql(head + one, chunk)


def insert_columns(conn, table: sa.Table, columns: tuple[str, ...], parts: Iterable[Sequence]) -> None:
    """Insert rows given column by column, a part at a time: each part holds a list for each column
    (all of one length) or a single value for a column the same in every row. On SQLite each part's
    parameters are laid out by slice assignments, not a tuple a row then flattened (a fifth of the
    block entries' write CPU: bench/results/store-s36.md); elsewhere, and the rows and their order,
    as ``insert_tuples``."""
    head, one = _statement(conn, table, columns)
    if head is None or conn.dialect.name != "sqlite":  # one stream of tuples: one COPY on PostgreSQL
        insert_tuples(conn, table, columns, itertools.chain.from_iterable(
            zip(*(v if isinstance(v, list) else itertools.repeat(v, _length(values)) for v in values))
            for values in parts))
        return
    for values in parts:
        _sqlite_flat(conn, head, one, len(columns), _flat(len(columns), values))


def _length(values: Sequence) -> int:
    return max((len(v) for v in values if isinstance(v, list)), default=0)


def _flat(width: int, values: Sequence) -> list:
    """The rows' parameters one after another, laid out a column at a time."""
    n = _length(values)
    flat: list = [None] * (n * width)
    for j, v in enumerate(values):
        flat[j::width] = v if isinstance(v, list) else [v] * n
    return flat


def _statement(conn, table: sa.Table, columns: tuple[str, ...]) -> tuple[str | None, str]:
    """The INSERT's head (``INSERT INTO t (a, b) VALUES ``) and one row's placeholders; head None
    for a driver with named parameters."""
    mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(conn.dialect.paramstyle)
    if mark is None:
        return None, ""
    return (f"INSERT INTO {_table_name(conn, table)} ({_columns(conn, columns)}) VALUES ",
            f"({', '.join([mark] * len(columns))})")


def _table_name(conn, table: sa.Table) -> str:
    return conn.dialect.identifier_preparer.format_table(table)


def _columns(conn, columns: tuple[str, ...]) -> str:
    return ", ".join(conn.dialect.identifier_preparer.quote(c) for c in columns)


def sqlite_rows(conn, head: str, one: str, width: int, rows) -> None:
    """SQLite: ``per`` rows in each INSERT's VALUES (their parameters flattened, at most
    SQLITE_VARS a statement), the rest one a row. Stepping one statement a row cost about half
    of a bulk insert's time (3.2 million block entries of a 200k-row run: bench/results/store-write-i26.md);
    the rows and their order in the table are the same."""
    per = max(1, SQLITE_VARS // width)
    for chunk in iter(lambda: list(itertools.islice(rows, CHUNK // per * per or per)), []):
        _sqlite_flat(conn, head, one, width, list(itertools.chain.from_iterable(chunk)))


def _sqlite_flat(conn, head: str, one: str, width: int, flat: list) -> None:
    """Rows whose parameters lie one after another in ``flat``: ``SQLITE_VARS // width`` rows a
    statement, the few left one a row."""
    per = max(1, SQLITE_VARS // width)
    step = per * width
    whole = len(flat) // step * step
    if whole:
        conn.exec_driver_sql(head + ",".join([one] * per), [tuple(flat[i:i + step]) for i in range(0, whole, step)])
    if whole < len(flat):
        conn.exec_driver_sql(head + one, [tuple(flat[i:i + width]) for i in range(whole, len(flat), width)])


def postgres_copy(conn, table: str, cols: str, rows) -> None:
    """PostgreSQL: the rows through one ``COPY … FROM STDIN`` on the connection's own transaction,
    in their order (so identity columns number them as the INSERTs did). psycopg's executemany
    still sends a statement a row; COPY streams them (bench/perf/store_copy.py measures both)."""
    with conn.connection.driver_connection.cursor() as cur, cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)

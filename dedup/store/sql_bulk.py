"""Bulk inserts for the SQL store: plain tuples through the driver's executemany, many rows a
statement on SQLite and COPY on PostgreSQL (psycopg 3)."""

from __future__ import annotations

import itertools

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
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        postgres_copy(conn, q.format_table(table), cols, rows)
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


def postgres_copy(conn, table: str, cols: str, rows) -> None:
    """PostgreSQL: the rows through one ``COPY … FROM STDIN`` on the connection's own transaction,
    in their order (so identity columns number them as the INSERTs did). psycopg's executemany
    still sends a statement a row; COPY streams them (bench/perf/store_copy.py measures both)."""
    with conn.connection.driver_connection.cursor() as cur, cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)

"""The SQL store's bulk insert: SQLite's many-rows-a-statement path writes the rows the one-a-row
path writes, whatever their number against the rows a statement holds."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from dedup.store import sql_bulk

metadata = sa.MetaData()
table = sa.Table("t", metadata, sa.Column("a", sa.String(20), primary_key=True), sa.Column("b", sa.BigInteger),
                 sa.Column("c", sa.LargeBinary, nullable=True))


def rows(n: int) -> list[tuple]:
    return [(f"k{i:05d}", (i * 7919) % 1013 - 500 if i % 3 else -(1 << 63), bytes([i % 256]) * (i % 4) or None)
            for i in range(n)]


def written(conn) -> list[tuple]:
    return [tuple(r) for r in conn.execute(sa.select(table.c.a, table.c.b, table.c.c).order_by(table.c.a))]


@pytest.mark.parametrize("n", [0, 1, 332, 333, 334, 5000, 12_345])
def test_sqlite_writes_each_row_once_however_many(n):
    engine = sa.create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as conn:
        sql_bulk.insert_tuples(conn, table, ("a", "b", "c"), iter(rows(n)))
        assert written(conn) == rows(n)


def test_sqlite_puts_many_rows_in_a_statement_within_its_parameter_limit(monkeypatch):
    engine = sa.create_engine("sqlite://")
    metadata.create_all(engine)
    statements: list[int] = []
    sa.event.listen(engine, "before_cursor_execute",
                    lambda _c, _cur, sql, params, _ctx, many: statements.append(len(params) if many else 1))
    monkeypatch.setattr(sql_bulk, "SQLITE_VARS", 30)  # 10 rows of 3 columns a statement
    with engine.begin() as conn:
        sql_bulk.insert_tuples(conn, table, ("a", "b", "c"), rows(95))
        # 9 statements of 10 rows in one executemany, then the 5 left one a row
        assert statements == [9, 5]
        assert written(conn) == rows(95)


ordered = sa.Table("o", metadata, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                   sa.Column("a", sa.String(40)), sa.Column("c", sa.LargeBinary, nullable=True))
AWKWARD = ["tab\there", "new\nline", "back\\slash", "\\N", "quote ' \" ", "信访 件", "", "\r\n end"]


def test_postgres_copy_writes_what_the_inserts_wrote_in_their_order_and_rolls_back(postgres_url):
    engine = sa.create_engine(postgres_url)
    metadata.create_all(engine)
    data = rows(7000) + [(f"z{i}", i, s.encode()) for i, s in enumerate(AWKWARD)]
    awkward = [(s, s.encode() + b"\x00\\\t") for s in AWKWARD] + [(None, None)]
    statements: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    with engine.begin() as conn:
        sql_bulk.insert_tuples(conn, table, ("a", "b", "c"), iter(data))
        sql_bulk.insert_tuples(conn, ordered, ("a", "c"), iter(awkward))
        assert written(conn) == sorted(data)
        assert [tuple(r) for r in conn.execute(sa.select(ordered.c.a, ordered.c.c).order_by(ordered.c.id))] == awkward
    assert not any(s.startswith("INSERT") for s in statements)  # the COPY path, not executemany
    with pytest.raises(RuntimeError), engine.begin() as conn:
        sql_bulk.insert_tuples(conn, table, ("a", "b", "c"), iter([("late", 1, None)]))
        raise RuntimeError("the run fails after the write")
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(table).where(table.c.a == "late")).scalar() == 0
    engine.dispose()

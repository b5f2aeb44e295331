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


@pytest.mark.parametrize("n", [0, 1, 332, 333, 334, 5000, 12_345])
def test_columns_write_the_rows_tuples_write_in_their_order(n):
    """insert_columns (lists and a value the same in every row) stores what insert_tuples stores,
    in the same order: a rowid table numbers them alike."""
    engine = sa.create_engine("sqlite://")
    metadata.create_all(engine)
    data = rows(n)
    with engine.begin() as conn:
        halves = (data[:n // 2], data[n // 2:])  # parts of any length, an empty one included
        sql_bulk.insert_columns(conn, table, ("a", "b", "c"), (
            ([r[0] for r in part], [r[1] for r in part], [r[2] for r in part]) for part in (*halves, [])))
        assert written(conn) == data
        sql_bulk.insert_columns(conn, ordered, ("a", "c"), [([r[0] for r in data], b"same")])
        sql_bulk.insert_tuples(conn, ordered, ("a", "c"), [(r[0], b"same") for r in data])
        stored = [tuple(r) for r in conn.execute(sa.select(ordered.c.a, ordered.c.c).order_by(ordered.c.id))]
        assert stored == [(r[0], b"same") for r in data] * 2


def test_columns_on_a_server_go_through_the_same_path_as_tuples(postgres_url):
    engine = sa.create_engine(postgres_url)
    metadata.create_all(engine)
    data = rows(700)
    with engine.begin() as conn:
        conn.execute(table.delete())
        sql_bulk.insert_columns(conn, table, ("a", "b", "c"), [([r[0] for r in data], [r[1] for r in data], None)])
        assert written(conn) == [(a, b, None) for a, b, _ in data]
        conn.execute(table.delete())
    engine.dispose()


def test_a_part_that_fails_to_be_made_stops_the_write_with_its_error():
    engine = sa.create_engine("sqlite://")
    metadata.create_all(engine)

    def parts():
        yield ["a1", "a2"], 1, None
        raise ValueError("the third slice could not be made")

    with pytest.raises(ValueError, match="third slice"), engine.begin() as conn:
        sql_bulk.insert_columns(conn, table, ("a", "b", "c"), parts())
    with engine.connect() as conn:
        assert written(conn) == []  # the transaction rolled back

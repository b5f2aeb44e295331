"""Bad input never stops a table: repeated and NULL keys, unreadable values and watermarks, huge
cells and NULL watermarks each end as a processed row or a skipped one with its reason (issue 13).

Cases run on SQLite, PostgreSQL and MariaDB (``db_url``) where the database matters; the ones a
server refuses at insert time (text in a NUMERIC or DATETIME column, the values 1 and '1' in one
key column) are SQLite-only, the one database that keeps them. Cases where the store matters run
on a SQL store and on the MongoDB store (mongomock).
"""

from __future__ import annotations

import datetime as dt
import decimal
import logging

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from dedup.config import parse_config
from dedup.db.source import Source
from dedup.db.watermark import watermark_from_json
from dedup.errors import ConfigError
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe
from dedup.runs.stages import NULL_KEY
from dedup.store import open_store
from dedup.text.normalize import value_to_text
from helpers import config_for
from mongo_fixtures import store_url_of

FIELDS = {"name": "short", "content": "text"}
T0 = dt.datetime(2024, 1, 1)


@pytest.fixture(params=["sqlite", "mongomock"])
def store_url(request, tmp_path, monkeypatch):
    """A SQL store and the MongoDB store (mongomock, one client shared by every store opened)."""
    return store_url_of(request.param, request, tmp_path, monkeypatch)


def loose_table(url: str, rows: list[dict], key_type=sa.Integer) -> None:
    """A petitions table whose key column is neither a primary key nor unique nor NOT NULL."""
    engine = sa.create_engine(url)
    md = sa.MetaData()
    tbl = sa.Table(
        "petitions", md, sa.Column("id", key_type, nullable=True), sa.Column("name", sa.String(50)),
        sa.Column("content", sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")),
        sa.Column("amount", sa.Numeric(10, 2)), sa.Column("updated_at", sa.DateTime))
    md.drop_all(engine, tables=[tbl], checkfirst=True)
    md.create_all(engine)
    insert(url, rows, engine)


def insert(url: str, rows: list[dict], engine=None) -> None:
    engine = engine or sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    if rows:
        with engine.begin() as conn:
            conn.execute(tbl.insert(), [{c: r.get(c) for c in tbl.c.keys()} for r in rows])
    engine.dispose()


def row(key, i: int, content: str | None = None, **extra) -> dict:
    return {"id": key, "name": f"name {i}", "content": content or f"投诉 第{i}号 小区 停车 问题 {i}",
            "updated_at": T0 + dt.timedelta(minutes=i), **extra}


def cfg(source_url: str, store_url: str, batch_size: int = 3, **kw):
    return config_for(source_url, store_url, fields=FIELDS, watermark="updated_at", batch_size=batch_size,
                      text={"workers": 1}, **kw)


def skipped(config) -> dict[str, tuple[str, str]]:
    store = open_store(config.store_url)
    try:
        return {s.key: (s.reason, s.detail) for s in store.skipped("petitions")}
    finally:
        store.close()


def stored_keys(config) -> set[str]:
    store = open_store(config.store_url)
    try:
        return set(store.fingerprints("petitions", [str(k) for k in range(1, 40)]))
    finally:
        store.close()


# -- keys that repeat ---------------------------------------------------------------------------

@pytest.mark.parametrize("batch_size", [1, 2, 3, 4, 7])
def test_a_key_repeated_across_a_batch_boundary_loses_no_row(db_url, batch_size):
    rows = [row(k, i) for i, k in enumerate([1, 2, 3, 3, 4, 5, 6], 1)]
    rows[3]["updated_at"] = rows[2]["updated_at"]  # by watermark too, the two key-3 rows share a position
    loose_table(db_url, rows)
    config = cfg(db_url, "sqlite://", batch_size=batch_size)
    with Source(db_url, config.table("petitions"), batch_size) as source:
        for by_watermark in (False, True):
            read = [r["name"] for b in source.batches(by_watermark=by_watermark) for _k, r in b.rows]
            assert sorted(read) == [f"name {i}" for i in range(1, 8)]  # every row once, both key-3 rows included


def test_rows_sharing_a_key_are_all_skipped_as_duplicate_key(db_url, store_url):
    """Both rows of key 3 are skipped: a key that names two rows cannot say which one a group, a
    report or a later change means; keeping the first would let the second silently replace it."""
    loose_table(db_url, [row(k, i) for i, k in enumerate([1, 2, 3, 3, 4, 5, 6], 1)])
    config = cfg(db_url, store_url)
    result = run_full(config)
    assert result.rows_read == 7
    assert sorted(result.keys) == ["1", "2", "4", "5", "6"]
    assert skipped(config) == {"3": ("duplicate_key", "2 rows have this key: none of them is fingerprinted")}
    assert result.summary()["duplicate_keys"] == 1


def test_a_new_row_repeating_a_stored_key_skips_both(db_url, store_url):
    loose_table(db_url, [row(k, k) for k in range(1, 6)])
    config = cfg(db_url, store_url)
    run_full(config)
    insert(db_url, [row(2, 9)])  # a second row with key 2, past the watermark
    result = run_incremental(config)
    assert result.summary()["skipped"] == 1
    assert skipped(config)["2"][0] == "duplicate_key"
    assert stored_keys(config) == {"1", "3", "4", "5"}


def test_sqlite_values_1_and_text_1_in_one_key_column_are_one_duplicate_key(tmp_path, store_url):
    url = f"sqlite:///{tmp_path / 'src.db'}"  # SQLite only: a column without a type keeps 1 and '1' apart
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE petitions (id, name TEXT, content TEXT, amount NUMERIC, updated_at DATETIME)"))
    insert(url, [row(1, 1), row("1", 2), row(2, 3), row(3, 4)], engine)
    config = cfg(url, store_url)
    result = run_full(config)
    assert sorted(result.keys) == ["2", "3"]
    reason, detail = skipped(config)["1"]
    assert reason == "duplicate_key" and "int, str" in detail
    insert(url, [row("3", 5)])  # in an incremental run: the stored row 3 and the new '3'
    run_incremental(config)
    assert skipped(config)["3"][0] == "duplicate_key"
    assert stored_keys(config) == {"2"}


def test_rows_with_a_null_key_are_counted_and_skipped(db_url, store_url):
    loose_table(db_url, [row(None, 1), row(1, 2), row(None, 3), row(2, 4), row(3, 5)])
    config = cfg(db_url, store_url, batch_size=2)
    result = run_full(config)
    assert sorted(result.keys) == ["1", "2", "3"]
    assert result.summary()["null_keys"] == 2
    reason, detail = skipped(config)[NULL_KEY]
    assert reason == "null_key" and detail.startswith("2 rows have a NULL key (id)")
    insert(db_url, [row(None, 6), row(4, 7)])
    inc = run_incremental(config)
    assert inc.fingerprinted == 1
    assert skipped(config)[NULL_KEY][1].startswith("1 rows have a NULL key")
    assert stored_keys(config) == {"1", "2", "3", "4"}


# -- values that cannot be read -----------------------------------------------------------------

def sqlite_with(url: str, rows: list[dict], raw: list[str]) -> None:
    loose_table(url, rows)
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for statement in raw:
            conn.execute(sa.text(statement))
    engine.dispose()


def test_text_in_a_numeric_field_skips_its_row_as_unreadable(sqlite_url, store_url):
    """SQLite only: PostgreSQL and MariaDB refuse 'abc' in a NUMERIC column at insert time."""
    sqlite_with(sqlite_url, [row(k, k) for k in range(1, 8)], ["UPDATE petitions SET amount = 'abc' WHERE id = 5"])
    config = config_for(sqlite_url, store_url, fields={**FIELDS, "amount": "short"}, watermark="updated_at",
                        batch_size=3, text={"workers": 1})
    result = run_full(config)
    assert sorted(result.keys) == ["1", "2", "3", "4", "6", "7"]
    reason, detail = skipped(config)["5"]
    assert reason == "unreadable" and "TypeError" in detail or "real number" in detail
    sqlite_engine_update(sqlite_url, "UPDATE petitions SET amount = 'xyz', updated_at = '2025-01-01 00:00:00.000000' WHERE id = 6")
    inc = run_incremental(config)
    assert inc.unreadable == 1 and skipped(config)["6"][0] == "unreadable"


def test_repeated_and_null_keys_in_a_batch_read_row_by_row(sqlite_url, store_url):
    """SQLite only (text in a NUMERIC column): the fallback once stopped on 'Multiple rows were found'."""
    rows = [row(k, i) for i, k in enumerate([1, 2, 3, 3, None, None, 4], 1)]
    sqlite_with(sqlite_url, rows, ["UPDATE petitions SET amount = 'abc' WHERE id = 1"])
    config = config_for(sqlite_url, store_url, fields={**FIELDS, "amount": "short"}, batch_size=3,
                        text={"workers": 1})
    result = run_full(config)
    assert sorted(result.keys) == ["2", "4"]
    assert {k: r for k, (r, _d) in skipped(config).items()} == {
        "1": "unreadable", "3": "duplicate_key", NULL_KEY: "null_key"}


def sqlite_engine_update(url: str, statement: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(statement))
    engine.dispose()


def test_a_value_that_cannot_become_text_skips_its_row(sqlite_url):
    class Huge:
        def __str__(self):
            raise OverflowError("too large to write")

    config = cfg(sqlite_url, "sqlite://")
    recipe = Recipe.of(config, "petitions")
    keys, _feats, skip = featurize_rows(recipe.featurizer, [("1", {"name": Huge()}), ("2", {"name": "x"})])
    assert keys == ["2"] and skip[0].reason == "unreadable" and "OverflowError" in skip[0].detail
    assert value_to_text(decimal.Decimal("1E+999999999")) == "1E+999999999"  # not a billion digits


def test_a_bad_watermark_skips_its_row_and_incremental_runs_go_on(sqlite_url, store_url):
    """SQLite only: the other databases refuse 'garbage-ts' in a DATETIME column."""
    sqlite_with(sqlite_url, [row(k, k) for k in range(1, 8)],
                ["UPDATE petitions SET updated_at = 'garbage-ts' WHERE id = 4",
                 "UPDATE petitions SET updated_at = '2024-01-01 00:00:3x' WHERE id = 1"])  # sorts first
    config = cfg(sqlite_url, store_url, batch_size=2)
    result = run_full(config)
    assert skipped(config)["4"][0] == skipped(config)["1"][0] == "unreadable"
    assert sorted(result.keys) == ["2", "3", "5", "6", "7"]
    for i in (8, 9):  # new rows, twice: the bad row never stops a run nor hides the rows after it
        insert(sqlite_url, [row(i, i)])
        sqlite_engine_update(sqlite_url, f"UPDATE petitions SET updated_at = 'garbage-ts' WHERE id = {i - 6}")
        inc = run_incremental(config)
        # the bad rows sort after every date (as text), so each run reads them again; only the
        # newly bad one is reported: the others are stored with the watermark text they still have
        assert inc.fingerprinted == 1 and inc.unreadable == 1 and inc.unchanged >= i - 7
        store = open_store(config.store_url)
        position = store.state("petitions").watermark
        store.close()
        assert isinstance(watermark_from_json(position), dt.datetime)  # never a value that cannot read back
    assert stored_keys(config) == {"5", "6", "7", "8", "9"}
    assert {k for k, (r, _d) in skipped(config).items() if r == "unreadable"} == {"1", "2", "3", "4"}


# -- huge cells, NULL watermarks ----------------------------------------------------------------

def test_a_cell_longer_than_max_cell_chars_is_cut_and_counted(db_url, caplog):
    long_text = "物业 乱收费 " * 40
    loose_table(db_url, [row(1, 1, long_text, name="x"), row(2, 2, long_text[:60], name="x"), row(3, 3)])
    config = parse_config({"source": {"url": db_url, "max_cell_chars": 60}, "store": {"url": "sqlite://"},
                           "simhash": {"max_distance": 0, "min_similarity": None}, "text": {"workers": 1},
                           "tables": {"petitions": {"key": "id", "fields": FIELDS}}})
    with caplog.at_level(logging.WARNING):
        result = run_full(config)
    assert result.summary()["truncated"] == 1 and result.summary()["truncated_rows"] == ["1"]
    assert [g.keys for g in result.groups] == [["1", "2"]]  # row 1 fingerprinted from its first 60 characters
    assert "row 1: content has 280 characters, cut to the first 60" in caplog.text


def test_max_cell_chars_is_a_source_setting():
    config = config_for("sqlite://", "sqlite://")
    assert config.table("petitions").max_cell_chars == 100_000
    with pytest.raises(ConfigError, match="source.max_cell_chars: must be at least 1"):
        parse_config({"source": {"url": "sqlite://", "max_cell_chars": 0},
                      "tables": {"t": {"key": "id", "fields": {"a": "short"}}}})


def test_incremental_warns_once_and_counts_rows_with_a_null_watermark(db_url, tmp_path, caplog):
    loose_table(db_url, [row(k, k) for k in range(1, 5)] + [row(5, 5, updated_at=None), row(6, 6, updated_at=None)])
    config = cfg(db_url, f"sqlite:///{tmp_path / 'store.db'}")
    run_full(config)
    with caplog.at_level(logging.WARNING):
        inc = run_incremental(config)
    assert inc.summary()["null_watermark"] == 2
    warnings = [r for r in caplog.records if "NULL updated_at" in r.getMessage()]
    assert len(warnings) == 1 and "2 rows" in warnings[0].getMessage()


def test_summary_lines_name_what_was_set_aside():
    from dedup.cli.terminal import full_summary_line, incremental_summary_line

    full = {"table": "t", "rows": 9, "groups": 1, "rows_in_groups": 2, "skipped_no_features": 0, "unreadable": 1,
            "duplicate_keys": 1, "null_keys": 2, "truncated": 1, "seconds": 1.0}
    assert full_summary_line(full) == ("t: 9 rows, 1 groups, 2 rows in groups, 1 skipped (1 unreadable), "
                                       "1 duplicate keys, 2 rows with a NULL key, 1 cells truncated, 1.0 s (9 rows/s)")
    inc = {"table": "t", "rows": 3, "changed": 0, "new_groups": 0, "rows_joining_groups": 0, "merged_groups": 0,
           "dissolved_groups": 0, "skipped": 0, "unreadable": 0, "truncated": 0, "null_watermark": 4, "seconds": 0.5}
    assert incremental_summary_line(inc) == ("t: 3 new rows, 0 new groups, 0 rows joined groups, "
                                             "4 rows with a NULL watermark not read, 0.5 s (6 rows/s)")


def test_a_key_that_is_not_utf8_skips_its_row(tmp_path):
    """SQLite only: a blob that is not UTF-8 in a TEXT key column (the servers refuse it)."""
    url = f"sqlite:///{tmp_path / 'src.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE petitions (id TEXT, name TEXT, content TEXT, amount NUMERIC, updated_at DATETIME)"))
        conn.execute(sa.text("INSERT INTO petitions (id, name) VALUES (x'ff', 'a'), ('k2', 'b')"))
    engine.dispose()
    config = cfg(url, "sqlite://")
    result = run_full(config)
    assert result.keys == ["k2"] and [s.key for s in result.skipped if s.reason == "unreadable"] == ["b'\\xff'"]

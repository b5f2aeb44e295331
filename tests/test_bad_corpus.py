"""The bad-input corpus (issue 13): one table holding every kind of awkward value and key, read by
a full run and then, under new keys, by an incremental run, on SQLite, PostgreSQL and MariaDB
sources and on a SQL store and the MongoDB store (mongomock). Each case names its outcome:
processed (fingerprinted), or skipped with a reason. docs/troubleshooting.md's bad-input table lists them.

Values only one database keeps (bytes that are not UTF-8 in a TEXT column, a NUL in a key) are
SQLite-only cases; repeated and NULL keys, unreadable numbers and bad watermarks have their own
tests (test_bad_input.py, test_bad_watermarks.py, test_odd_keys.py).
"""

from __future__ import annotations

import datetime as dt
import decimal

import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from dedup.config import parse_config
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.stages import recorded_key
from dedup.store import open_store
from test_bad_input import store_url  # noqa: F401 (a fixture: a SQL store and mongomock)

TEXT = "小区 停车 难 投诉 第{}号"
PROCESSED, NO_FEATURES, UNREADABLE, BAD_KEY = "processed", "no_features", "unreadable", "bad_key"

# (case, key, column values, outcome, which sources hold it: None = all)
CASES = [
    ("plain row", "plain", {"content": TEXT}, PROCESSED, None),
    ("every field NULL", "nulls", {}, NO_FEATURES, None),
    ("empty strings", "empty", {"name": "", "content": ""}, NO_FEATURES, None),
    ("whitespace only", "blank", {"name": "   ", "content": " \t\n\u3000 "}, NO_FEATURES, None),
    ("emoji", "emoji", {"content": "😀🚗 " + TEXT + " 👍🏽"}, PROCESSED, None),
    ("zero-width characters", "zw", {"content": "停\u200b车\u200d难\ufeff " + TEXT}, PROCESSED, None),
    ("right-to-left text and marks", "rtl", {"content": "\u202eشكوى\u202c موقف " + TEXT}, PROCESSED, None),
    ("control characters", "ctl", {"name": "\x1b]0;pwned\x07", "content": "a\rb\x08" + TEXT}, PROCESSED, None),
    ("formula-like text", "formula", {"name": "=cmd|' /C calc'!A0", "content": "@SUM(1)"}, PROCESSED, None),
    ("numeric and date fields only", "numbers", {"amount": decimal.Decimal("-12.50"),
                                                 "filed_on": dt.date(1900, 2, 28)}, PROCESSED, None),
    ("a zero and an old date", "zero", {"amount": decimal.Decimal("0"), "filed_on": dt.date(1, 1, 1)}, PROCESSED, None),
    ("a cell over source.max_cell_chars", "huge", {"content": "投诉 " * 5000}, PROCESSED, None),
    ("a BLOB of UTF-8 text", "blob", {"data": "停车 难".encode()}, PROCESSED, None),
    ("a BLOB that is not UTF-8", "rawblob", {"data": b"\xff\xfe\x00\x01"}, UNREADABLE, None),
    ("key: a minus sign", "-5", {"content": TEXT}, PROCESSED, None),
    ("key: formula-like", "=1+1", {"content": TEXT}, PROCESSED, None),
    ("key: quotes", "a'b\"c", {"content": TEXT}, PROCESSED, None),
    ("key: CJK and emoji", "键😀", {"content": TEXT}, PROCESSED, None),
    ("key: leading zeros", "0001", {"content": TEXT}, PROCESSED, None),
    ("key: a leading space", " lead", {"content": TEXT}, PROCESSED, None),
    ("key: 300 characters", "k" * 300, {"content": TEXT}, BAD_KEY, None),
    ("key: a control character", "ctl\x1bkey", {"content": TEXT}, PROCESSED, None),
    ("key: a NUL", "nul\x00key", {"content": TEXT}, BAD_KEY, {"sqlite"}),
    ("invalid UTF-8 in a TEXT column", "badutf8", "x'ff'", UNREADABLE, {"sqlite"}),
]


def corpus_table(url: str, prefix: str, kind: str, start: dt.datetime, create: bool) -> dict[str, tuple[str, str]]:
    """The corpus' rows (keys prefixed), and case name -> (key, outcome) of the cases this source holds."""
    engine = sa.create_engine(url)
    md = sa.MetaData()
    tbl = sa.Table(
        "petitions", md, sa.Column("id", sa.String(400), nullable=True), sa.Column("name", sa.String(300)),
        sa.Column("content", sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")),
        sa.Column("amount", sa.Numeric(10, 2)), sa.Column("filed_on", sa.Date), sa.Column("data", sa.LargeBinary),
        sa.Column("updated_at", sa.DateTime))
    if create:
        md.drop_all(engine, tables=[tbl], checkfirst=True)
        md.create_all(engine)
    expected = {}
    with engine.begin() as conn:
        for n, (case, key, values, outcome, only) in enumerate(CASES):
            if only is not None and kind not in only:
                continue
            key = prefix + key
            when = start + dt.timedelta(minutes=n)
            if isinstance(values, str):  # SQL text: bytes no driver would send
                conn.execute(sa.text(f"INSERT INTO petitions (id, content, updated_at) VALUES (:k, {values}, :t)"),
                             {"k": key, "t": when})
            else:
                values = {c: (v.format(n) if c == "content" and "{}" in v else v) for c, v in values.items()}
                conn.execute(tbl.insert(), [{"id": key, "updated_at": when, **values}])
            expected[case] = (key, outcome)
    engine.dispose()
    return expected


def corpus_config(source: str, store: str):
    return parse_config({
        "source": {"url": source, "batch_size": 4, "max_cell_chars": 2000}, "store": {"url": store},
        "text": {"workers": 1},
        "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": {
            "name": "short", "content": "text", "amount": "short", "filed_on": "short", "data": "short"}}}})


def outcomes(config, expected: dict[str, tuple[str, str]], fingerprinted: set[str]) -> dict[str, str]:
    store = open_store(config.store_url)
    try:
        skipped = {s.key: s.reason for s in store.skipped("petitions")}
    finally:
        store.close()
    return {case: PROCESSED if key in fingerprinted else skipped.get(recorded_key(key), "lost")
            for case, (key, _outcome) in expected.items()}


def test_every_case_of_the_corpus_ends_as_expected(db_url, store_url):  # noqa: F811
    kind = sa.make_url(db_url).get_backend_name().replace("postgresql", "postgres").replace("mysql", "mariadb")
    first = corpus_table(db_url, "", kind, dt.datetime(2024, 1, 1), create=True)
    config = corpus_config(db_url, store_url)
    result = run_full(config)
    want = {case: outcome for case, (_key, outcome) in first.items()}
    assert outcomes(config, first, set(result.keys)) == want
    assert result.rows_read == len(first)
    assert result.summary()["truncated_rows"] == ["huge"]
    later = corpus_table(db_url, "n", kind, dt.datetime(2025, 1, 1), create=False)  # the same cases, new keys
    inc = run_incremental(config)
    store = open_store(config.store_url)
    try:
        stored = set(store.fingerprints("petitions", [key for key, _o in later.values()]))
    finally:
        store.close()
    assert outcomes(config, later, stored) == want
    assert inc.rows_read == len(later) and inc.truncated_rows == ["nhuge"]

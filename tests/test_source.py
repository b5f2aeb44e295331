"""The SQLAlchemy reader on SQLite, PostgreSQL and MariaDB (the real servers of this machine)."""

import datetime as dt
import decimal
import sqlite3

import pytest

from dedup.config import parse_config
from dedup.errors import ConfigError, SourceError
from dedup.db.source import Source
from dedup.db.watermark import watermark_from_json, watermark_to_json
from helpers import make_table

LONG = "这是一段很长的信访内容，" * 2000  # ~24k characters


def table_cfg(**over):
    t = {"key": "id", "fields": {"name": "short", "content": "text"}, **over}
    return parse_config({"source": {"url": "sqlite://"}, "tables": {"petitions": t}}).table("petitions")


def test_streams_every_row_in_key_order_in_batches(db_url):
    rows = [{"id": i, "name": f"张{i}", "content": f"第{i}条"} for i in range(1, 108)]
    make_table(db_url, list(reversed(rows)))
    with Source(db_url, table_cfg(), batch_size=10) as src:
        batches = list(src.batches())
        assert src.count() == 107
    assert [len(b.rows) for b in batches] == [10] * 10 + [7]
    keys = [k for b in batches for k, _ in b.rows]
    assert keys == [str(i) for i in range(1, 108)]
    assert batches[3].rows[0][1]["name"] == "张31"


def test_values_of_every_kind_round_trip(db_url):
    rows = [
        {"id": 1, "name": None, "content": ""},
        {"id": 2, "name": "王芳", "content": LONG, "amount": decimal.Decimal("12.50"),
         "filed_on": dt.date(2024, 2, 29), "updated_at": dt.datetime(2024, 3, 1, 8, 30, 5)},
        {"id": 3, "name": "😀 emoji", "content": "𠀀 utf8mb4 扩展汉字"},
    ]
    make_table(db_url, rows)
    cfg = table_cfg(display=["amount", "filed_on"], watermark="updated_at")
    with Source(db_url, cfg) as src:
        got = {k: r for b in src.batches() for k, r in b.rows}
    assert got["1"]["name"] is None and got["1"]["content"] == ""
    assert got["2"]["content"] == LONG
    assert got["2"]["amount"] == decimal.Decimal("12.50")
    assert got["2"]["filed_on"] == dt.date(2024, 2, 29)
    assert got["2"]["updated_at"] == dt.datetime(2024, 3, 1, 8, 30, 5)
    assert got["3"]["name"] == "😀 emoji" and got["3"]["content"].startswith("𠀀")


def test_fetch_by_keys(db_url):
    make_table(db_url, [{"id": i, "name": f"n{i}", "content": "x"} for i in range(1, 1200)])
    with Source(db_url, table_cfg()) as src:
        got = src.fetch([str(i) for i in range(1, 1200, 2)] + ["99999"], ("name",))
    assert len(got) == 600 and got["7"]["name"] == "n7" and "99999" not in got


def test_missing_table_and_columns_are_config_errors(db_url):
    make_table(db_url, [])
    cfg = parse_config({"source": {"url": db_url}, "tables": {"nope": {"key": "id", "fields": {"a": "text"}}}})
    with pytest.raises(ConfigError, match="tables.nope: table 'nope' not found"):
        Source(db_url, cfg.table("nope"))
    with pytest.raises(ConfigError) as e:
        Source(db_url, table_cfg(fields={"name": "short", "body": "text"}, watermark="changed"))
    assert "tables.petitions.fields.body: column 'body' not in table 'petitions'" in str(e.value)
    assert "tables.petitions.watermark: column 'changed'" in str(e.value)


def test_date_column_and_labels_name_columns_of_the_table(db_url):
    """A date column or a label for a column the table lacks: one line naming it and listing the columns."""
    make_table(db_url, [])
    with pytest.raises(ConfigError) as e:
        Source(db_url, table_cfg(date_column="filed", labels={"nmae": "姓名", "name": "姓名"}))
    msg = str(e.value)
    assert msg.startswith("tables.petitions.date_column: column 'filed' not in table 'petitions'; "
                          "tables.petitions.labels.nmae: column 'nmae' not in table 'petitions' (columns: ")
    assert "\n" not in msg and "name, " in msg
    with Source(db_url, table_cfg(date_column="updated_at", labels={"name": "姓名"})) as src:
        assert src.config.date_column == "updated_at"


def test_unreachable_database_is_a_source_error_without_password():
    url = "postgresql+psycopg://dedup:hunter2@127.0.0.1:1/nodb?connect_timeout=2"
    with pytest.raises(SourceError) as e:
        Source(url, table_cfg())
    assert "hunter2" not in str(e.value) and "***" in str(e.value)


def test_bad_url_is_a_config_error():
    with pytest.raises(ConfigError, match="source.url"):
        Source("notadb://x", table_cfg())


def test_an_undecodable_row_is_reported_and_the_rest_still_read(tmp_path):
    path = tmp_path / "bad.db"
    url = f"sqlite:///{path}"
    make_table(url, [{"id": i, "name": f"n{i}", "content": "正常"} for i in range(1, 26)])
    con = sqlite3.connect(path)
    con.execute("UPDATE petitions SET content = CAST(x'e4b8ff' AS TEXT) WHERE id = 13")
    con.commit()
    con.close()
    with Source(url, table_cfg(), batch_size=10) as src:
        batches = list(src.batches())
    keys = [k for b in batches for k, _ in b.rows]
    bad = [k for b in batches for k, _ in b.unreadable]
    assert bad == ["13"]
    assert keys == [str(i) for i in range(1, 26) if i != 13]


@pytest.mark.parametrize("value", [None, 5, "abc", dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5, 6)])
def test_watermark_json_round_trip(value):
    assert watermark_from_json(watermark_to_json(value)) == value


def test_a_column_type_sqlalchemy_does_not_know_is_one_line_naming_it(postgres_url, caplog):
    """PostgreSQL's ``point``: SQLAlchemy warns with its own source line; dedup says which column,
    once, and reads the table (the driver's text of the value)."""
    import warnings

    import sqlalchemy as sa

    engine = sa.create_engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE petitions (id int PRIMARY KEY, name text, content text, loc point)"))
        conn.execute(sa.text("INSERT INTO petitions VALUES (1, '张三', '噪音扰民', point(1, 2))"))
    engine.dispose()
    cfg = parse_config({"source": {"url": postgres_url}, "tables": {"petitions": {
        "key": "id", "fields": {"name": "short", "content": "text", "loc": "short"}}}}).table("petitions")
    with warnings.catch_warnings():
        warnings.simplefilter("error", sa.exc.SAWarning)  # no raw SAWarning escapes
        with caplog.at_level("WARNING"), Source(postgres_url, cfg, 10) as src:
            rows = [r for b in src.batches() for r in b.rows]
    said = [r.getMessage() for r in caplog.records if "does not know" in r.getMessage()]
    assert said == ["petitions: column 'loc' has a type SQLAlchemy does not know (point); its values are read "
                    "as the database driver gives them"]
    assert rows[0][1]["loc"] == "(1,2)"

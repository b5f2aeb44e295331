"""Config and schema drift an incremental run refuses (issue 27, item 5).

The stored watermark position says the key column, the watermark column and what the watermark
held (dates and times, numbers, ...) when it was stored. A later incremental run that reads the
table by another key column (each row then grouped with its old self and reported deleted), by
another watermark column, or a watermark column whose type changed (an epoch number compared with
a stored date: "0 new rows" every night) is refused with one line that says to run `dedup full`.
Positions stored before this check are still read; a changed type is refused for them too.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from dedup.cli import main
from dedup.errors import ConfigError
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from helpers import config_for
from mongo_fixtures import store_url_of

FIELDS = {"name": "short", "content": "text"}
T0 = dt.datetime(2024, 1, 1)
READ_FROM = ("key_column", "watermark_column", "kind")  # what a position says it was read from


@pytest.fixture(params=["sqlite", "mongomock"])
def store_url(request, tmp_path, monkeypatch):
    return store_url_of(request.param, request, tmp_path, monkeypatch)


def _table(url: str, n: int = 6, epoch: bool = False) -> None:
    """petitions with two unique key columns (id, uid) and two watermark columns; with ``epoch``
    the table is made again with updated_at as seconds since 1970 (a BIGINT)."""
    engine = sa.create_engine(url)
    md = sa.MetaData()
    when = sa.BigInteger if epoch else sa.DateTime
    tbl = sa.Table("petitions", md, sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                   sa.Column("uid", sa.Integer, unique=True), sa.Column("name", sa.String(50)),
                   sa.Column("content", sa.Text), sa.Column("updated_at", when), sa.Column("created_at", sa.DateTime))
    md.drop_all(engine, checkfirst=True)
    md.create_all(engine)
    rows = []
    for k in range(1, n + 1):
        t = T0 + dt.timedelta(minutes=k)
        rows.append({"id": k, "uid": 1000 + k, "name": f"name {k}", "content": f"投诉 第{k}号 小区 停车 问题 {k}",
                     "updated_at": int(t.replace(tzinfo=dt.timezone.utc).timestamp()) if epoch else t, "created_at": t})
    with engine.begin() as conn:
        conn.execute(tbl.insert(), rows)
    engine.dispose()


def _config(src: str, store: str, **table):
    return config_for(src, store, fields=FIELDS, batch_size=4, text={"workers": 1},
                      **{"key": "id", "watermark": "updated_at", **table})


def _position(config) -> dict:
    store = open_store(config.store_url)
    try:
        return store.state("petitions").watermark
    finally:
        store.close()


@pytest.mark.parametrize("changed", [{"key": "uid"}, {"watermark": "created_at"}])
def test_a_changed_key_or_watermark_column_is_refused(db_url, store_url, changed):
    _table(db_url)
    run_full(_config(db_url, store_url))
    with pytest.raises(ConfigError, match=rf"tables\.petitions\.{next(iter(changed))}: .* run `dedup full --table petitions`"):
        run_incremental(_config(db_url, store_url, **changed))
    assert run_incremental(_config(db_url, store_url)).fingerprinted == 0  # the config as it was: fine


def test_a_watermark_whose_type_changed_is_refused(db_url, store_url):
    _table(db_url)
    config = _config(db_url, store_url)
    run_full(config)
    _table(db_url, n=8, epoch=True)  # the same rows and two new ones, the watermark now an epoch number
    with pytest.raises(ConfigError, match=r"'updated_at' holds numbers now, but the stored watermark holds dates "
                                          r"and times .* run `dedup full --table petitions`"):
        run_incremental(config)
    run_full(config)  # what the message says to do
    _table(db_url, n=9, epoch=True)
    assert run_incremental(config).fingerprinted == 1


def _store_as_before(store_path) -> None:
    """The SQLite store's position as stores kept it before positions said what they were read from."""
    engine = sa.create_engine(f"sqlite:///{store_path}")
    with engine.begin() as conn:
        stored = json.loads(conn.execute(sa.text("SELECT watermark FROM dedup_tables")).scalar_one())
        old = {k: v for k, v in stored.items() if k not in READ_FROM}
        conn.execute(sa.text("UPDATE dedup_tables SET watermark = :w"), {"w": json.dumps(old)})
    engine.dispose()


def test_a_position_stored_before_the_check_is_still_read_and_checked(sqlite_url, tmp_path):
    _table(sqlite_url)
    config = _config(sqlite_url, f"sqlite:///{tmp_path / 'store.db'}")
    run_full(config)
    assert set(READ_FROM) <= set(_position(config))
    _store_as_before(tmp_path / "store.db")
    assert run_incremental(config).fingerprinted == 0
    assert {k: _position(config)[k] for k in READ_FROM} == {"key_column": "id", "watermark_column": "updated_at",
                                                            "kind": "datetime"}
    _store_as_before(tmp_path / "store.db")
    _table(sqlite_url, n=7, epoch=True)
    with pytest.raises(ConfigError, match="holds numbers now"):  # told by the stored value's type
        run_incremental(config)


def test_the_command_line_says_so_in_one_line_and_exits_2(tmp_path):
    src, store = f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}"
    _table(src)
    cfg = tmp_path / "dedup.yaml"

    def write(key: str) -> None:
        cfg.write_text(f"source: {{url: '{src}'}}\nstore: {{url: '{store}'}}\ntext: {{workers: 1}}\n"
                       f"tables:\n  petitions:\n    key: {key}\n    watermark: updated_at\n"
                       f"    fields: {{name: short, content: text}}\n", encoding="utf-8")
    write("id")
    assert CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    write("uid")
    out = CliRunner().invoke(main, ["-c", str(cfg), "incremental"])
    assert out.exit_code == 2, out.output
    assert out.output.strip().splitlines() == [
        "Error: tables.petitions.key: the rows stored for 'petitions' were read by key column 'id', not 'uid': "
        "run `dedup full --table petitions` to read the table again"]

"""Watermarks compared in the column's own terms (issue 27, item 1 and MariaDB TIMESTAMP of item 9).

SQLite keeps a DATETIME as the text that was written: CURRENT_TIMESTAMP's ``2031-06-01 00:00:00``,
ISO ``2026-10-01T08:14:00``, SQLAlchemy's ``… .000000``, or a mix. Compared with a rendered
datetime these lost the rows of a tie longer than a batch, or read the same rows for ever. Here
every form, with ties past ``batch_size``, reads each row exactly once, in full and incremental
runs; typed columns on PostgreSQL and MariaDB do the same; a MariaDB TIMESTAMP watermark means
the same instant whatever the session's time zone.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import quote

import pytest
import sqlalchemy as sa

from dedup.db import datetext
from dedup.db.source import Source
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from helpers import config_for
from test_bad_input import stored_keys

FIELDS = {"name": "short", "content": "text"}
T1, T2 = dt.datetime(2031, 6, 1), dt.datetime(2031, 6, 1, 1, 0, 0)
MAX_BATCHES = 200  # a read that never ends is cut here and fails the test instead of hanging it

FORMATS = {
    "current_timestamp": lambda t, k: t.strftime("%Y-%m-%d %H:%M:%S"),
    "iso": lambda t, k: t.strftime("%Y-%m-%dT%H:%M:%S"),
    "sqlalchemy": lambda t, k: t.strftime("%Y-%m-%d %H:%M:%S.%f"),
    "mixed": lambda t, k: [t.strftime("%Y-%m-%dT%H:%M:%S"), t.strftime("%Y-%m-%d %H:%M:%S"),
                           t.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], t.strftime("%Y-%m-%dT%H:%M")][k % 4]
    if t.second == 0 else t.isoformat(sep=" "),
}


@pytest.fixture(autouse=True)
def bounded_reads(monkeypatch):
    """Source.batches cut after MAX_BATCHES batches: a read that would loop for ever fails."""
    real = Source.batches

    def batches(self, *args, **kwargs):
        for n, batch in enumerate(real(self, *args, **kwargs)):
            assert n < MAX_BATCHES, "the read never ends"
            yield batch
    monkeypatch.setattr(Source, "batches", batches)


def _row(k: int, when: dt.datetime) -> dict:
    return {"id": k, "name": f"name {k}", "content": f"投诉 第{k}号 小区 停车 问题 {k}", "updated_at": when}


def _sqlite_text_table(url: str, rows: list[dict], fmt: str) -> None:
    """The rows with their watermark written as text in ``fmt`` (a DATETIME column)."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS petitions (id INTEGER PRIMARY KEY, name VARCHAR(50), "
                             "content TEXT, updated_at DATETIME)"))
        conn.execute(sa.text("INSERT INTO petitions VALUES (:id, :name, :content, :updated_at)"),
                     [{**r, "updated_at": FORMATS[fmt](r["updated_at"], r["id"])} for r in rows])
    engine.dispose()


def _first_rows() -> list[dict]:
    """Rows 1-7 share one watermark (more than a batch of 3), rows 8-10 a minute apart after it."""
    return [_row(k, T1) for k in range(1, 8)] + [_row(k, T1 + dt.timedelta(minutes=k - 7)) for k in range(8, 11)]


def _later_rows() -> list[dict]:
    """Rows 11-18 share a later watermark, row 19 a second after it."""
    return [_row(k, T2) for k in range(11, 19)] + [_row(19, T2 + dt.timedelta(seconds=1))]


@pytest.mark.parametrize("lookback", [0, "2d"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_sqlite_text_watermarks_read_every_row_once(tmp_path, fmt, lookback):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    _sqlite_text_table(src, _first_rows(), fmt)
    config = config_for(src, f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS, watermark="updated_at", batch_size=3,
                        watermark_lookback=lookback, text={"workers": 1})
    assert len(run_full(config).keys) == 10
    nothing = run_incremental(config)  # no new rows: the run ends and processes none
    assert nothing.fingerprinted == 0
    _sqlite_text_table(src, _later_rows(), fmt)
    new = run_incremental(config)
    assert new.fingerprinted == 9 and stored_keys(config) == {str(k) for k in range(1, 20)}
    again = run_incremental(config)
    assert again.fingerprinted == 0 and again.unseen_rows == 0


def test_a_row_written_in_another_text_form_later_the_same_day_is_read(tmp_path):
    """'T' sorts after ' ' as text: a later time written with a space is still after an ISO one."""
    src = f"sqlite:///{tmp_path / 'src.db'}"
    _sqlite_text_table(src, [_row(k, T1 + dt.timedelta(hours=k)) for k in range(1, 4)], "iso")
    config = config_for(src, f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS, watermark="updated_at", batch_size=2,
                        watermark_lookback=0, text={"workers": 1})
    run_full(config)
    _sqlite_text_table(src, [_row(4, T1 + dt.timedelta(hours=5))], "current_timestamp")
    assert run_incremental(config).fingerprinted == 1 and "4" in stored_keys(config)


@pytest.mark.parametrize("date_only", [False, True])
def test_the_sqlite_comparable_form_is_the_same_in_sql_and_python(date_only):
    texts = ["2031-06-01", "2031-06-01 00:00", "2031-06-01T00:00", "2031-06-01 00:00:00", "2031-06-01T00:00:00",
             "2031-06-01 00:00:00.5", "2031-06-01T00:00:00.123456", "2031-06-01 00:00:00.1234567", "garbage-ts",
             "2024-01-01 00:00:3x", "2031-06-01 00:00:00+02:00", "", "2031-06-01T00:00:00.12a"]
    engine = sa.create_engine("sqlite://")
    with engine.connect() as conn:
        for text in texts:
            sql = conn.execute(sa.select(datetext.sortable(sa.literal(text, sa.String), date_only))).scalar()
            assert sql == datetext.normal(text, date_only), text
    assert datetext.normal(dt.datetime(2031, 6, 1, 0, 0, 0, 5), False) == "2031-06-01 00:00:00.000005"
    assert datetext.normal("2031-06-01T00:00", False) == datetext.normal(dt.datetime(2031, 6, 1), False)


def test_typed_watermarks_with_ties_past_a_batch(db_url, tmp_path):
    """PostgreSQL, MariaDB (and SQLite as SQLAlchemy writes it): the column compared in its own type."""
    engine = sa.create_engine(db_url)
    md = sa.MetaData()
    tbl = sa.Table("petitions", md, sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                   sa.Column("name", sa.String(50)), sa.Column("content", sa.Text), sa.Column("updated_at", sa.DateTime))
    md.create_all(engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), _first_rows())
    config = config_for(db_url, f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS, watermark="updated_at", batch_size=3,
                        watermark_lookback=0, text={"workers": 1})
    run_full(config)
    assert run_incremental(config).fingerprinted == 0
    with engine.begin() as conn:
        conn.execute(tbl.insert(), _later_rows())
    engine.dispose()
    assert run_incremental(config).fingerprinted == 9 and stored_keys(config) == {str(k) for k in range(1, 20)}
    assert run_incremental(config).fingerprinted == 0


def _zoned(url: str, zone: str) -> str:
    """The URL with every session of its engines set to the time zone ``zone``."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}init_command={quote(f'SET time_zone = {zone!r}')}"


@pytest.mark.parametrize("lookback", [0, None])
def test_a_mariadb_timestamp_watermark_survives_a_session_time_zone_change(mariadb_url, tmp_path, lookback):
    utc = _zoned(mariadb_url, "+00:00")
    engine = sa.create_engine(utc)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE petitions (id INT PRIMARY KEY, name VARCHAR(50), content TEXT, "
                             "updated_at TIMESTAMP NULL DEFAULT NULL)"))
        conn.execute(sa.text("INSERT INTO petitions VALUES (:id, :name, :content, :updated_at)"), _first_rows())
    store = f"sqlite:///{tmp_path / 'store.db'}"
    table = {"fields": FIELDS, "watermark": "updated_at", "batch_size": 3, "text": {"workers": 1},
             **({"watermark_lookback": lookback} if lookback is not None else {})}
    run_full(config_for(utc, store, **table))
    later = config_for(_zoned(mariadb_url, "+08:00"), store, **table)  # the server's zone, or the client's, changed
    same = run_incremental(later)
    assert same.fingerprinted == 0 and same.changed == 0
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO petitions VALUES (:id, :name, :content, :updated_at)"), _later_rows())
    engine.dispose()
    assert run_incremental(later).fingerprinted == 9
    assert run_incremental(config_for(utc, store, **table)).fingerprinted == 0

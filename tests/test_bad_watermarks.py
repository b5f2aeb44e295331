"""Watermark values a server keeps but a driver cannot read or compare (issue 13): PostgreSQL's
'infinity' and '-infinity' timestamps (psycopg reads neither), MariaDB's zero date
'0000-00-00 00:00:00' (pymysql gives it back as text). Each skips its row as ``unreadable`` in
full and incremental runs, on a SQL store and the MongoDB store, and is never the stored
watermark, so the rows after it are still read. SQLite's 'garbage-ts' is in test_bad_input.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from dedup.db.watermark import watermark_from_json
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from test_bad_input import cfg, insert, loose_table, row, skipped, store_url  # noqa: F401 (a fixture)

BAD = {"postgres": ["infinity", "-infinity"], "mariadb": ["0000-00-00 00:00:00"]}


def set_watermark(url: str, key: int, text: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name in ("mysql", "mariadb"):
            conn.execute(sa.text("SET SESSION sql_mode = ''"))  # lets a zero date in, as an old server would
        conn.execute(sa.text("UPDATE petitions SET updated_at = :v WHERE id = :k"), {"v": text, "k": key})
    engine.dispose()


@pytest.fixture(params=["postgres", "mariadb"])
def server(request):
    return request.param, request.getfixturevalue(f"{request.param}_url")


@pytest.mark.parametrize("batch_size", [2, 100])
def test_a_watermark_the_driver_cannot_read_skips_its_row(server, store_url, batch_size):  # noqa: F811
    kind, url = server
    loose_table(url, [row(k, k) for k in range(1, 8)])
    bad = {3 + 2 * n: text for n, text in enumerate(BAD[kind])}  # keys 3 (and 5)
    for key, text in bad.items():
        set_watermark(url, key, text)
    config = cfg(url, store_url, batch_size=batch_size)
    result = run_full(config)
    assert sorted(result.keys) == sorted(str(k) for k in range(1, 8) if k not in bad)
    for key in bad:
        reason, detail = skipped(config)[str(key)]
        assert reason == "unreadable" and detail
    for new in (8, 9):  # two incremental runs: the bad rows stop neither, nor hide the rows after them
        insert(url, [row(new, new)])
        inc = run_incremental(config)
        assert inc.fingerprinted == 1
        # 'infinity' sorts after every date, so each run reads it again, but its watermark text is the
        # one its skipped record keeps (watermark_lookback): reported by the full run, not again
        assert inc.unreadable == 0
        store = open_store(config.store_url)
        position = watermark_from_json(store.state("petitions").watermark)
        store.close()
        assert position == row(new, new)["updated_at"]
    assert {k for k, (r, _d) in skipped(config).items() if r == "unreadable"} == {str(k) for k in bad}


def test_an_infinite_watermark_in_the_middle_of_a_batch(postgres_url, tmp_path):
    """'infinity' read row by row while later rows of the batch are fine: the rows around it are kept."""
    loose_table(postgres_url, [row(k, k) for k in range(1, 6)])
    set_watermark(postgres_url, 2, "infinity")
    config = cfg(postgres_url, f"sqlite:///{tmp_path / 'store.db'}", batch_size=10)
    run_full(config)
    insert(postgres_url, [row(k, k, updated_at=dt.datetime(2030, 1, k)) for k in (6, 7)])
    inc = run_incremental(config)
    assert inc.fingerprinted == 2 and inc.unreadable == 0  # read again, unchanged: reported once, by the full run
    assert skipped(config)["2"][0] == "unreadable"

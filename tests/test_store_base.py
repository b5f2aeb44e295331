"""What StoreBase gives every store: ``with`` closes it, sessions record a run's end, and runs take
opened source and store objects (``run_full(cfg, source=..., store=...)``) instead of URLs."""

import datetime as dt

import pytest
from mongo_fixtures import mongo_live_url, mongo_opener, mongomock_store  # noqa: F401  (fixture)
from test_store_contract import store, store_opener  # noqa: F401  (fixtures: every store)

from dedup.db.source import Source
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.index.decisions import Decision
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.locking import table_run
from dedup.store import RunRecord, open_store
from helpers import config_for

AT = dt.datetime(2026, 1, 1)
NOWHERE = "mongodb://nowhere.invalid:1/never_opened?serverSelectionTimeoutMS=1"


def test_with_closes_the_store_it_gives(store_opener):
    opened = store_opener()
    closed = []
    real = opened.close
    opened.close = lambda: closed.append(real())
    with opened as entered:
        assert entered is opened and entered.runs("petitions") == []
    assert closed == [None]


def test_a_session_records_its_run_ok_failed_or_interrupted(store):
    with store.session("petitions", RunRecord("petitions", "full", AT)) as s:
        assert s.run.id is not None and store.runs("petitions")[0].status == "running"
        s.finish({"rows": 3})
    first = store.runs("petitions")[0]
    assert (first.id, first.status, first.summary) == (s.run.id, "ok", {"rows": 3})
    for error, why in ((RuntimeError("boom"), "boom"), (KeyboardInterrupt(), "interrupted (KeyboardInterrupt)")):
        with pytest.raises(type(error)), store.session("petitions", RunRecord("petitions", "decide", AT)):
            raise error
        last = store.runs("petitions")[0]
        assert (last.kind, last.status, last.summary) == ("decide", "failed", {"error": why})
    assert [r.status for r in store.runs("petitions")] == ["failed", "failed", "ok"]


def test_a_session_writes_under_its_table_and_run(store):
    store.put_decisions("petitions", [Decision("1", "2", "same", AT), Decision("3", "4", "different", AT),
                                      Decision("1", "2", "different", AT)])  # the last on a pair is kept
    with store.session("petitions", RunRecord("petitions", "decide", AT)) as s:
        assert [(d.pair, d.verdict) for d in s.decisions()] == [(("1", "2"), "different"), (("3", "4"), "different")]
        s.mark_applied([("1", "2"), ("1", "2")])
        assert [d.pair for d in s.decisions(pending=True)] == [("3", "4")]
        assert s.decisions(["1"])[0].applied_run == s.run.id
        s.finish({})


@pytest.fixture
def source_url(tmp_path):
    url = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(url, generate_petitions(60, seed=8, duplicate_share=0.4))
    return url


def test_runs_use_the_store_object_given_and_never_the_config_s_url(source_url):
    """The config names a server that does not exist: the runs never open it, and leave the
    caller's store open (the caller closes it)."""
    cfg = config_for(source_url, NOWHERE, fields={"name": "short", "title": "text", "content": "text"},
                     watermark="updated_at")
    with mongomock_store() as store:
        store.close = lambda: pytest.fail("a run closed the caller's store")
        full = run_full(cfg, store=store)
        again = run_incremental(cfg, store=store)
        assert full.groups and {g.id for g in store.groups("petitions")} == {g.id for g in full.groups}
        assert again.fingerprinted == 0 and [r.kind for r in store.runs("petitions")] == ["incremental", "full"]
        assert store.lock_holder("petitions") is None  # released
        del store.close


def test_table_run_takes_an_opened_source_too_and_leaves_it_open(source_url, tmp_path):
    cfg = config_for(f"sqlite:///{tmp_path / 'absent' / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}",
                     fields={"name": "short"})
    with Source(source_url, cfg.table("petitions")) as source, open_store(cfg.store_url) as store:
        with pytest.raises(RuntimeError), table_run(cfg, cfg.table("petitions"), "full", source=source) as (s, st, run):
            assert s is source and st is not store  # the store from the URL, the source as given
            raise RuntimeError("stop")
        assert source.count() == 60  # still open
        assert store.runs("petitions")[0].status == "failed" and store.lock_holder("petitions") is None

"""MongoDB store: an incremental run (with --reconcile: deleted, edited and new rows at once) cut
short at any write, then run again, ends with exactly the groups and group ids of a run never cut.

The store has no transaction across collections: its changes are journalled first and rolled
forward by the next run that takes the table's lock (dedup.store.mongo_journal). Cut points here
are deterministic (the n-th write to any collection fails); tests/test_mongo_live_kills.py kills
the process, and the server, on a live one.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import mongomock
import numpy as np
import pytest
import sqlalchemy as sa
from mongomock.collection import Collection
from pymongo.errors import AutoReconnect

from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.errors import LockedError
from dedup.store.model import checked_sketches
from helpers import config_for
from mongo_fixtures import MOCK_URL, mongomock_store

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
WRITES = ["bulk_write", "insert_one", "insert_many", "update_one", "update_many", "replace_one",
          "delete_one", "delete_many", "find_one_and_update", "drop", "rename"]


def cfg_for(source_url: str, store_url: str):
    return config_for(source_url, store_url, fields=FIELDS, watermark="updated_at", batch_size=37)


def mutate_source(url: str, sample) -> None:
    """The next run's work: rows added, rows deleted (some of them in groups), rows edited."""
    engine = sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), sample.rows[90:])
        conn.execute(tbl.delete().where(tbl.c.id.in_([2, 5, 9, 14, 22, 31, 40, 47, 61, 77])))
        late = dt.datetime(2031, 1, 1)
        for i, key in enumerate([3, 11, 26, 58, 83]):
            conn.execute(tbl.update().where(tbl.c.id == key).values(
                content=f"an edited petition number {key} about the harbour wall", updated_at=late + dt.timedelta(i)))
    engine.dispose()


def groups_by_id(client) -> dict[int, list[str]]:
    with mongomock_store(client) as store:
        return {g.id: sorted(g.keys) for g in store.groups("petitions")}


def run_on(client, how, cfg, **kw):
    """``how(cfg, store=...)`` (run_full or run_incremental) with a store of its own on ``client``'s
    server, opened inside the run's time (its schema check writes count) as each process has."""
    with mongomock_store(client) as store:
        return how(cfg, store=store, **kw)


def store_view(store) -> tuple:
    """What must equal a clean run's: groups by id, the rows kept, and block entries (none twice)."""
    blocks = store.db["blocks.petitions"]
    entries = sorted((d["blockName"], e["textname"]) for d in blocks.find() for e in d["info"])
    assert len(entries) == len(set(entries)), "a block entry twice"
    return ({g.id: sorted(g.keys) for g in store.groups("petitions")}, sorted(store.keys("petitions")),
            store.fingerprints("petitions"), entries)


def copy_database(src, dst) -> None:
    for name in src.list_collection_names():
        docs = list(src[name].find())
        if docs:
            dst[name].insert_many(docs)


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """A source, a mongomock store after a full run (copied for each cut), and the clean run's result."""
    tmp = tmp_path_factory.mktemp("mongo_kills")
    sample = generate_petitions(130, seed=27, duplicate_share=0.35)
    src = f"sqlite:///{tmp / 'src.db'}"
    write_sample_db(src, SampleTable(sample.rows[:90], sample.truth))
    base = mongomock.MongoClient()
    run_on(base, run_full, cfg_for(src, MOCK_URL))
    mutate_source(src, sample)
    clean = mongomock.MongoClient()
    copy_database(base["dedup_test"], clean["dedup_test"])
    run_on(clean, run_incremental, cfg_for(src, MOCK_URL), reconcile=True)
    with mongomock_store(clean) as store:
        expected = store_view(store)
    return src, base, expected


class Cutter:
    """Every write to a collection counted; the ``at``-th one fails as a lost connection would."""

    def __init__(self, monkeypatch):
        self.at, self.calls = 0, 0
        for name in WRITES:
            real = getattr(Collection, name)

            def cut(coll, *args, _real=real, **kwargs):
                self.calls += 1
                if self.calls == self.at:
                    raise AutoReconnect("injected: connection lost")
                return _real(coll, *args, **kwargs)
            monkeypatch.setattr(Collection, name, cut)


def fresh_client(base):
    """A server holding a copy of ``base``'s database."""
    client = mongomock.MongoClient()
    copy_database(base["dedup_test"], client["dedup_test"])
    return client


def test_a_clean_reconcile_removes_deleted_rows_and_reads_edited_ones(scene):
    _src, _base, (groups, keys, _fps, _entries) = scene
    assert not {"2", "5", "9", "14", "22", "31", "40", "47", "61", "77"} & set(keys)
    assert len(keys) == 120 and len(groups) >= 10


_writes: list[int] = []


def writes_of_one_run(monkeypatch, scene) -> int:
    """How many writes a clean run makes (counted once)."""
    if not _writes:
        src, base, _ = scene
        client = fresh_client(base)
        cutter = Cutter(monkeypatch)
        run_on(client, run_incremental, cfg_for(src, MOCK_URL), reconcile=True)
        _writes.append(cutter.calls)
    return _writes[0]


@pytest.mark.faults
@pytest.mark.parametrize("share", [i / 16 for i in range(16)])
def test_a_reconcile_cut_at_any_write_then_run_again_ends_as_a_clean_run(monkeypatch, scene, share):
    """Cut the n-th write of the whole run (lock, run record, journal, every write of the changes,
    the run's end), run again (twice: the second finds nothing to do), compare with the clean run."""
    src, base, expected = scene
    total = writes_of_one_run(monkeypatch, scene)
    at = 1 + int(share * total)
    client = fresh_client(base)
    cutter = Cutter(monkeypatch)
    cutter.at = at
    cfg = cfg_for(src, MOCK_URL)
    try:
        run_on(client, run_incremental, cfg, reconcile=True)
    except Exception as e:  # the cut, as the run reports it
        assert "injected" in str(e), e
    cutter.at = 0
    run_on(client, run_incremental, cfg, reconcile=True)
    with mongomock_store(client) as store:
        assert store_view(store) == expected, f"cut at write {at} of {total}"
    again = run_on(client, run_incremental, cfg, reconcile=True)  # nothing left to do, and no error
    assert (again.fingerprinted, again.deleted) == (0, 0)
    assert groups_by_id(client) == expected[0]


def test_changes_survive_the_journal_whole(scene, monkeypatch):
    """What the journal keeps is what was planned: encode then decode gives equal changes."""
    from dedup.store import mongo_journal
    from dedup.store.mongo import MongoStore

    src, base, _ = scene
    client = fresh_client(base)
    kept = []
    monkeypatch.setattr(MongoStore, "_apply", lambda self, ch: kept.append(ch))
    run_on(client, run_incremental, cfg_for(src, MOCK_URL), reconcile=True)
    ch = kept[0]
    again = mongo_journal.decode(mongo_journal.encode(ch))
    assert ch.remove_blocks.names and ch.add_blocks.names and ch.upsert_groups and ch.delete_groups
    for name in vars(ch):
        a, b = getattr(ch, name), getattr(again, name)
        if name in ("remove_blocks", "add_blocks"):
            assert (a.names, a.keys, a.fingerprints.tolist()) == (b.names, b.keys, b.fingerprints.tolist())
        elif name in ("add_fingerprints", "add_sketches"):
            assert a.tolist() == b.tolist() and b.dtype == a.dtype
        else:
            assert a == b, name


def test_changes_that_add_no_rows_survive_the_journal(scene, monkeypatch):
    """A decision's changes add no rows: their empty sketches came back from the journal as a
    reshape error, so the next holder of the lock could not finish a killed `dedup decide`
    (seen by test_kill_points_mongo, seed 215909667)."""
    from dedup.store import mongo_journal
    from dedup.store.mongo import MongoStore

    src, base, _ = scene
    client = fresh_client(base)
    kept = []
    monkeypatch.setattr(MongoStore, "_apply", lambda self, ch: kept.append(ch))
    run_on(client, run_incremental, cfg_for(src, MOCK_URL), reconcile=True)
    ch = replace(kept[0], add_keys=[], add_fingerprints=np.empty(0, np.uint64),
                 add_sketches=np.empty((0, kept[0].add_sketches.shape[1]), np.uint64), add_row_watermarks=None)
    again = mongo_journal.decode(mongo_journal.encode(ch))
    assert again.add_keys == [] and again.add_sketches.size == 0 and again.add_fingerprints.size == 0
    assert checked_sketches(ch.table, 0, again.add_sketches) is None  # nothing to store, no error


def test_an_incomplete_journal_asks_for_a_full_run(scene, monkeypatch, caplog):
    """A journal that lost a part (the server's data damaged) cannot be finished: the table's state
    says so, incremental runs refuse (exit 2, run `dedup full`) and a full run repairs it."""
    from dedup.errors import ConfigError
    from dedup.store.mongo import MongoStore

    src, base, _ = scene
    client = fresh_client(base)
    real = MongoStore._apply

    def cut(self, ch):
        raise AutoReconnect("injected: connection lost")
    monkeypatch.setattr(MongoStore, "_apply", cut)
    cfg = cfg_for(src, MOCK_URL)
    with pytest.raises(Exception, match="injected"):
        run_on(client, run_incremental, cfg, reconcile=True)
    monkeypatch.setattr(MongoStore, "_apply", real)
    tables = client["dedup_test"]["tables"]
    assert tables.find_one({"_id": "petitions"})["journal"]["parts"] == 1
    tables.update_one({"_id": "petitions"}, {"$set": {"journal.parts": 2}})
    with pytest.raises(ConfigError, match=r"other settings \(journal changed\); run `dedup full --table petitions`"):
        run_on(client, run_incremental, cfg, reconcile=True)
    assert "the journal of run" in caplog.text and "incomplete" in caplog.text
    assert "journal" not in tables.find_one({"_id": "petitions"})
    run_on(client, run_full, cfg)
    repaired = groups_by_id(client)
    after = run_on(client, run_incremental, cfg, reconcile=True)
    assert (after.fingerprinted, after.deleted) == (0, 0) and groups_by_id(client) == repaired


def test_renewing_the_lease_leaves_the_holders_own_journal_alone(scene, monkeypatch):
    """The lease thread renews the lock while its run writes: a renewal must not replay the run's
    own journal beside it (acquire_lock by the next run rolls a journal forward, renew_lock never)."""
    from dedup.store.mongo import MongoStore

    _, base, _ = scene
    client = fresh_client(base)
    rolled = []
    monkeypatch.setattr(MongoStore, "_roll_forward", lambda self, table: rolled.append(table))
    with mongomock_store(client) as store:
        store.acquire_lock("petitions", "holder", 60)
        assert rolled == ["petitions"]
        store.renew_lock("petitions", "holder", 60)
        store.renew_lock("petitions", "holder", 60)
        assert rolled == ["petitions"]
        with pytest.raises(LockedError):
            store.renew_lock("petitions", "another", 60)

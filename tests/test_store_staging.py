"""The staging contract (a full run written by many processes, dedup.runs.spark), every store:
staged rows swapped in give what replace_table gives; a run that stops before the swap leaves
the previous results; the next run deletes what the stopped one staged."""

from dataclasses import replace

import numpy as np
import pytest
import mongo_fixtures
import test_store_contract as contract
from test_store_contract import EDGE_FPS, EDGE_SKETCHES, TERMS, default_groups, dump, full_run, snapshot, start

from dedup.store import BlockEntries, Skipped
from dedup.store.model import staging_name

B_KEYS = [f"b{i}" for i in range(len(EDGE_FPS))]
B = dict(keys=B_KEYS, fps=EDGE_FPS[::-1], sketches=EDGE_SKETCHES[::-1], terms={1: 3, 2: 4},
         groups=default_groups(1), skipped=[Skipped("9", "no_features", "empty"), Skipped("x", "unreadable", "bad")],
         watermark={"type": "int", "value": 7, "key": "b5"})
mongo_live_url, store_opener, store = mongo_fixtures.mongo_live_url, contract.store_opener, contract.store  # fixtures
EXTRA = Skipped("(NULL)", "null_key", "2 rows have a NULL key")  # a record the driver writes itself


def stage(store, snap, again_first: bool = True):
    """Stage ``snap``'s rows and blocks in two slices, as two tasks would (the first slice twice,
    the second time as a retried task), and return the snapshot the driver swaps in."""
    t, run, n = snap.table, snap.run_id, len(snap.keys)
    sk = snap.sketches
    wms = [f"w{i}" for i in range(n)]
    for lo, hi in ((0, n // 2), (n // 2, n)):
        skipped = snap.skipped if lo == 0 else []
        for again in ((False, True) if lo == 0 and again_first else (False,)):
            store.stage_rows(t, run, snap.keys[lo:hi], snap.fingerprints[lo:hi], sk[lo:hi], wms[lo:hi], skipped, again)
    by_name = snap.blocks.by_name()
    names = sorted(by_name)
    for i, half in enumerate((names[:len(names) // 2], names[len(names) // 2:])):  # whole blocks a call
        entries = BlockEntries([n for n in half for _ in by_name[n]], [k for n in half for k, _ in by_name[n]],
                               np.array([fp for n in half for _, fp in by_name[n]], dtype=np.int64).view(np.uint64))
        for again in ((False, True) if i == 0 and again_first else (False,)):
            store.stage_blocks(t, run, entries, again=again)
    return replace(snap, keys=[], fingerprints=np.empty(0, np.uint64), sketches=None, blocks=BlockEntries(),
                   skipped=[EXTRA], row_watermarks=None)


def expected_b(store_opener_store, run_id):
    """What replace_table leaves for snapshot B (and the driver's record), in this store."""
    snap = snapshot(run_id, **B)
    store_opener_store.replace_table(replace(snap, skipped=[*snap.skipped, EXTRA], row_watermarks=[
        f"w{i}" for i in range(len(B_KEYS))]))
    return dump(store_opener_store, EDGE_FPS)


def staged_rows(store, run_id) -> int:
    return store.count_keys(staging_name("petitions", run_id))


def test_a_staged_run_stores_what_replace_table_stores(store):
    full_run(store, sketches=EDGE_SKETCHES, terms=TERMS)
    run_id = start(store)
    store.begin_staging("petitions", run_id)
    store.replace_table_staged(stage(store, snapshot(run_id, **B)))
    got = dump(store, EDGE_FPS)
    assert got[0] == dict(zip(B_KEYS, EDGE_FPS[::-1]))  # the staged rows, not the previous ones
    assert sorted(s.key for s in store.skipped("petitions")) == ["(NULL)", "9", "x"]
    assert store.row_watermarks("petitions", B_KEYS[:2]) == {"b0": "w0", "b1": "w1"}
    assert staged_rows(store, run_id) == 0
    assert got == expected_b(store, start(store))


def test_a_run_stopped_after_staging_keeps_the_previous_results_and_the_next_cleans_up(store):
    full_run(store, sketches=EDGE_SKETCHES, terms=TERMS)
    before = dump(store, EDGE_FPS)
    stopped = start(store)
    store.begin_staging("petitions", stopped)
    stage(store, snapshot(stopped, **B))
    store.finish_run(stopped, "failed", {"error": "killed"})
    assert staged_rows(store, stopped) == len(B_KEYS) + len(B["skipped"])  # left where it was staged
    assert dump(store, EDGE_FPS) == before

    run_id = start(store)
    store.begin_staging("petitions", run_id)
    assert staged_rows(store, stopped) == 0
    store.replace_table_staged(stage(store, snapshot(run_id, **B), again_first=False))
    got = dump(store, EDGE_FPS)
    assert staged_rows(store, run_id) == 0
    assert got == expected_b(store, start(store))
    if hasattr(store, "db"):  # MongoDB: no block collection of either run is left
        assert not [n for n in store.db.list_collection_names() if n.startswith("tmp.")]


@pytest.mark.parametrize("store_opener", ["sqlite", "postgres", "mariadb"], indirect=True)
def test_a_sql_swap_that_fails_inside_changes_nothing(store, monkeypatch):
    """The SQL store swaps in one transaction: a failure at its last statement rolls all back."""
    from dedup.errors import StoreError

    full_run(store, sketches=EDGE_SKETCHES, terms=TERMS)
    before = dump(store, EDGE_FPS)
    run_id = start(store)
    store.begin_staging("petitions", run_id)
    swap = stage(store, snapshot(run_id, **B))

    def broken(*_a, **_k):
        raise RuntimeError("the swap was interrupted")
    monkeypatch.setattr("dedup.store.sql_write.set_state", broken)
    with pytest.raises((RuntimeError, StoreError)):
        store.replace_table_staged(swap)
    monkeypatch.undo()
    assert dump(store, EDGE_FPS) == before
    assert staged_rows(store, run_id) == len(B_KEYS) + len(B["skipped"])

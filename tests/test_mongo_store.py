"""What only the MongoDB store promises: the paper's block documents, BSON-safe values, buckets,
batched reads and writes, its migration steps, and errors without credentials.

Runs on mongomock, and on a real server when DEDUP_TEST_MONGO_URI is set.
"""

import datetime as dt
import math
import re
import threading
import time
from pathlib import Path

import bson
import mongomock
import numpy as np
import pytest
from bson.int64 import Int64
from helpers import block_entries
from mongo_fixtures import MOCK_URL, mongo_live_url, mongo_opener  # noqa: F401  (fixture)
from pymongo.errors import DuplicateKeyError, OperationFailure

import dedup.store.mongo as mongo_module
import dedup.store.mongo_blocks as mongo_blocks
import dedup.store.mongo_docs as mongo_docs
import dedup.store.entries as store_entries
from dedup.store.entries import packed
from dedup.index.blocks import BlockLayout
from dedup.errors import ConfigError, StoreError
from dedup.store.model import to_signed
from dedup.index.groups import Group, Pair
from dedup.store import RunRecord, Skipped, TableChanges, TableSnapshot, TermCounts, migrate_store, open_store
from dedup.store import mongo_migrate
from dedup.store.mongo import MongoStore

EDGE_FPS = [0, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]
VERSION = {"max_distance": 3}
LAYOUT = BlockLayout.for_distance(3)
BLOCKS = "blocks.petitions"
TOP = (1 << 64) - 1


@pytest.fixture(params=["mongomock", "mongo_live"])
def opener(request):
    return mongo_opener(request, request.param)


@pytest.fixture
def store(opener):
    s = opener()
    yield s
    s.close()


def terms_of(counts: dict) -> TermCounts:
    return TermCounts(np.array(list(counts), dtype=np.uint64), np.array(list(counts.values()), dtype=np.int64))


def full_snapshot(run_id, keys, fps, groups=(), skipped=(), table="petitions", sketches=None, terms=None):
    """``sketches``: one tuple of words (any width) per key or None; ``terms``: {hash: count} or None."""
    return TableSnapshot(table, run_id, list(keys), np.array(fps, dtype=np.uint64), list(groups), list(skipped),
                         VERSION, {"type": "int", "value": 1, "key": "1"},
                         None if sketches is None else np.array(sketches, dtype=np.uint64),
                         None if terms is None else terms_of(terms), block_entries(LAYOUT, keys, fps))


def full(store, keys, fps, groups=(), skipped=(), table="petitions", sketches=None, terms=None):
    run_id = store.start_run(RunRecord(table, "full", dt.datetime(2026, 1, 1)))
    store.replace_table(full_snapshot(run_id, keys, fps, groups, skipped, table, sketches, terms))
    return run_id


def changes(run_id, remove=(), old=None, add=None, skipped=(), delete_groups=(), upsert_groups=(), sketches=None):
    """``sketches``: {key: words} (one width) for every added key, or None."""
    old, add = old or {}, add or {}
    gone = [k for k in remove if k in old]
    add_sketches = None if sketches is None else np.array([sketches[k] for k in add], dtype=np.uint64)
    return TableChanges("petitions", run_id, list(remove), block_entries(LAYOUT, gone, [old[k] for k in gone]),
                        list(add), np.array(list(add.values()), dtype=np.uint64), list(skipped), list(delete_groups),
                        list(upsert_groups), VERSION, None, add_sketches, block_entries(LAYOUT, add, add.values()))


def check_buckets(db, cap):
    """Every block document: count and bytes exact, within the cap, not empty; no entry twice in a block."""
    seen: dict = {}
    for doc in db[BLOCKS].find():
        assert 0 < doc["count"] == len(doc["info"]) <= cap
        assert doc["bytes"] == sum(mongo_blocks.entry_bytes(e["textname"]) for e in doc["info"])
        for e in doc["info"]:
            assert (doc["blockName"], e["textname"]) not in seen, f"{e['textname']} twice in {doc['blockName']}"
            seen[(doc["blockName"], e["textname"])] = doc["seq"]


# --- layout and values ------------------------------------------------------------------------

def test_block_documents_have_the_papers_layout(store):
    keys = [str(i) for i in range(len(EDGE_FPS))]
    full(store, keys, EDGE_FPS)
    fp_of = dict(zip(keys, EDGE_FPS))
    docs = list(store.db[BLOCKS].find())
    assert {d["blockName"] for d in docs} == {n for fp in EDGE_FPS for n in LAYOUT.names(fp)}
    for doc in docs:
        assert set(doc) == {"_id", "blockName", "seq", "count", "bytes", "info"}
        for entry in doc["info"]:
            assert set(entry) == {"hashcode", "textname"}
            assert type(entry["hashcode"]) is Int64
            assert entry["hashcode"] == to_signed(fp_of[entry["textname"]])
    for doc in store.db.fingerprints.find():
        assert type(doc["fp"]) is Int64 and doc["fp"] == to_signed(fp_of[doc["key"]])
    assert store.fingerprints("petitions") == fp_of
    top = store.block_entries("petitions", LAYOUT.names((1 << 64) - 1))
    assert top["0:ffff"] == [((1 << 64) - 1, "3")]
    assert all(((1 << 64) - 1, "3") in entries for entries in top.values())


def test_sketch_and_term_documents(store):
    keys = [str(i) for i in range(len(EDGE_FPS))]
    sketches = [(fp, TOP - fp, 1 << 63) for fp in EDGE_FPS]
    terms = {0: 1, (1 << 63) - 1: 2, 1 << 63: 3, TOP: 2**31 - 1}
    run_id = full(store, keys, EDGE_FPS, sketches=sketches, terms=terms)
    sketch_of = dict(zip(keys, sketches))
    for doc in store.db.fingerprints.find():
        assert set(doc) == {"_id", "table", "key", "fp", "sig"}
        assert isinstance(doc["sig"], bytes)  # BinData: 8 little-endian bytes a word
        assert bytes(doc["sig"]) == np.array(sketch_of[doc["key"]], dtype="<u8").tobytes()
    docs = list(store.db.terms.find())
    assert len(docs) == len(terms)
    for doc in docs:
        assert set(doc) == {"_id", "table", "h", "n"} and doc["table"] == "petitions"
        assert type(doc["h"]) is Int64 and doc["n"] == terms[doc["h"] % (1 << 64)]
    store.apply_changes(changes(run_id, remove=["0"], old={"0": 0}, add={"0": 1, "9": TOP}))  # without sketches
    for doc in store.db.fingerprints.find({"key": {"$in": ["0", "9"]}}):
        assert set(doc) == {"_id", "table", "key", "fp"}
    assert store.sketches("petitions", keys + ["9"]) == {k: v for k, v in sketch_of.items() if k != "0"}
    assert store.term_counts("petitions", list(terms)) == terms


def test_a_wide_sketch_is_one_bindata_and_old_sketch_lists_still_read(store):
    keys = [str(i) for i in range(len(EDGE_FPS))]
    sketches = [tuple((fp + w * 0x9E3779B97F4A7C15) % (1 << 64) for w in range(36)) for fp in EDGE_FPS]
    full(store, keys, EDGE_FPS, sketches=sketches)
    doc = store.db.fingerprints.find_one({"key": "3"})
    assert isinstance(doc["sig"], bytes) and len(doc["sig"]) == 36 * 8 and "sketch" not in doc
    assert len(bson.encode(doc)) < 400
    store.db.fingerprints.update_one({"key": "2"}, {"$unset": {"sig": ""}, "$set": {
        "sketch": [Int64(to_signed(w)) for w in (TOP, 1 << 63, 7)]}})  # written by an older dedup
    assert store.sketches("petitions", keys) == {**dict(zip(keys, sketches)), "2": (TOP, 1 << 63, 7)}


def test_every_document_the_store_writes_is_bson(store):
    keys = [str(i) for i in range(len(EDGE_FPS))]
    run_id = full(store, keys, EDGE_FPS, groups=[Group(1, ["2", "3"], [0, 63], [Pair("2", "3", 63)], 1, 1)],
                  skipped=[Skipped("x", "no_features", "")], sketches=[(TOP, 1 << 63, fp) for fp in EDGE_FPS],
                  terms={TOP: 1, 1 << 63: 2, (1 << 63) - 1: 3})
    store.acquire_lock("petitions", "me", 60)
    store.apply_changes(changes(
        run_id, remove=["1"], old=dict(zip(keys, EDGE_FPS)), add={"1": (1 << 64) - 2, "5": 1 << 63},
        skipped=[Skipped("y", "unreadable", "bad")],
        upsert_groups=[Group(2, ["3", "5"], [0, 63], [Pair("3", "5", 63)], run_id, run_id, [1])],
        sketches={"1": (TOP - 1, TOP, 1 << 63), "5": (1 << 63, 0, TOP)}))
    store.finish_run(run_id, "ok", {"rows": 4, "seconds": 0.5})
    names = store.db.list_collection_names()
    assert {"blocks.petitions", "fingerprints", "groups", "skipped", "runs", "tables", "dedup_meta",
            "terms"} <= set(names)
    for name in names:
        for doc in store.db[name].find():
            bson.encode(doc)  # mongomock would keep a Python int >= 2**63 that BSON cannot hold


def test_values_from_the_edges_round_trip(store):
    fps = [0, 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, (1 << 64) - 1]
    keys = [f"k{i}" for i in range(len(fps))]
    full(store, keys, fps)
    assert store.fingerprints("petitions") == dict(zip(keys, fps))
    got = store.block_entries("petitions", sorted({n for fp in fps for n in LAYOUT.names(fp)}))
    assert sorted({e for es in got.values() for e in es}) == sorted(zip(fps, keys))


# --- buckets ----------------------------------------------------------------------------------

def test_a_hot_block_spans_continuation_documents(opener):
    store = opener(bucket_size=3)
    keys = [str(i) for i in range(10)]
    full(store, keys, [5] * 10)
    name = LAYOUT.names(5)[0]
    docs = sorted(store.db[BLOCKS].find({"blockName": name}), key=lambda d: d["seq"])
    assert [(d["seq"], d["count"]) for d in docs] == [(0, 3), (1, 3), (2, 3), (3, 1)]
    index = store.db[BLOCKS].index_information()["blockName_seq"]
    assert index["key"] == [("blockName", 1), ("seq", 1)] and index["unique"]
    assert sorted(k for _, k in store.block_entries("petitions", [name])[name]) == sorted(keys)
    check_buckets(store.db, 3)

    run_id = store.start_run(RunRecord("petitions", "incremental", dt.datetime(2026, 1, 2)))
    store.apply_changes(changes(run_id, add={"10": 5, "11": 5, "12": 5}))  # fills seq 3, then seq 4
    docs = sorted(store.db[BLOCKS].find({"blockName": name}), key=lambda d: d["seq"])
    assert [(d["seq"], d["count"]) for d in docs] == [(0, 3), (1, 3), (2, 3), (3, 3), (4, 1)]
    check_buckets(store.db, 3)

    old = {k: 5 for k in map(str, range(13))}
    store.apply_changes(changes(run_id, remove=["0", "1", "2", "4"], old=old))  # seq 0 empties and goes
    docs = sorted(store.db[BLOCKS].find({"blockName": name}), key=lambda d: d["seq"])
    assert [(d["seq"], d["count"]) for d in docs] == [(1, 2), (2, 3), (3, 3), (4, 1)]
    check_buckets(store.db, 3)
    assert sorted(k for _, k in store.block_entries("petitions", [name])[name]) == sorted(
        set(old) - {"0", "1", "2", "4"})
    store.close()


def test_packed_entries_written_a_slice_at_a_time_fill_the_documents_whole_entries_fill(opener, monkeypatch):
    """A full run's entries come packed (dedup.store.entries) and are made into documents a few at
    a time: each block still holds its entries in the order given, in the same buckets."""
    monkeypatch.setattr(store_entries, "SLICE", 3)  # a hot block's entries span several slices
    store = opener(bucket_size=3)
    keys = [str(i) for i in range(20, 0, -2)] + ["7", "x"]  # not in str order
    fps = [5] * 7 + [6, TOP, 1 << 63, 5, 6]
    whole = block_entries(LAYOUT, keys, fps)
    snap = full_snapshot(store.start_run(RunRecord("petitions", "full", dt.datetime(2026, 1, 1))), keys, fps)
    snap.blocks = packed(whole)
    store.replace_table(snap)
    want = sorted((name, seq, [k for k, _ in members[seq * 3:seq * 3 + 3]])
                  for name, members in whole.by_name().items() for seq in range(math.ceil(len(members) / 3)))
    got = sorted((d["blockName"], d["seq"], [e["textname"] for e in d["info"]]) for d in store.db[BLOCKS].find())
    assert got == want and len(want) > len(whole.by_name()) + 3
    check_buckets(store.db, 3)
    store.close()


def test_a_bucket_is_also_capped_by_size(opener, monkeypatch):
    monkeypatch.setattr(mongo_blocks, "MAX_BUCKET_BYTES", 200)
    store = opener(bucket_size=1000)
    keys = [f"{i:040d}" for i in range(7)]  # 88 bytes an entry: two to a document
    full(store, keys, [9] * 7)
    counts = sorted(d["count"] for d in store.db[BLOCKS].find({"blockName": LAYOUT.names(9)[0]}))
    assert counts == [1, 2, 2, 2]
    assert all(d["bytes"] <= 200 for d in store.db[BLOCKS].find())
    store.close()


# --- batched reads and writes ---------------------------------------------------------------

class Spy:
    """Counts top-level calls of collection methods (not the calls mongomock makes inside them)."""

    def __init__(self, monkeypatch, cls, methods):
        self.calls: list[tuple[str, str]] = []
        local = threading.local()
        for method in methods:
            original = getattr(cls, method)

            def spy(coll, *args, _original=original, _method=method, **kwargs):
                depth = getattr(local, "depth", 0)
                if depth == 0:
                    self.calls.append((_method, coll.name))
                local.depth = depth + 1
                try:
                    return _original(coll, *args, **kwargs)
                finally:
                    local.depth = depth

            monkeypatch.setattr(cls, method, spy)

    def count(self, method, collection=None):
        return sum(1 for m, c in self.calls if m == method and collection in (None, c))


WRITES = ["bulk_write", "insert_one", "insert_many", "update_one", "update_many", "replace_one", "delete_one",
          "find_one_and_update", "delete_many"]


def test_reads_of_many_blocks_keys_and_groups_are_chunked(store, monkeypatch):
    full(store, ["1", "2"], [1, 1 << 63], groups=[Group(1, ["1", "2"], [0, 2], [Pair("1", "2", 2)], 1, 1)])
    spy = Spy(monkeypatch, type(store.db[BLOCKS]), ["find", "find_one"])
    names = [f"{p}:{v:04x}" for p in range(4) for v in range(1250)]  # 5,000 block names
    got = store.block_entries("petitions", names)
    assert got[LAYOUT.names(1)[0]] == [(1, "1")]
    assert spy.count("find", BLOCKS) == math.ceil(5000 / mongo_blocks.NAMES_CHUNK) and spy.count("find_one", BLOCKS) == 0
    keys = [str(i) for i in range(12000)]
    assert store.fingerprints("petitions", keys) == {"1": 1, "2": 1 << 63}
    assert spy.count("find", "fingerprints") == math.ceil(12000 / mongo_module.KEYS_CHUNK)
    assert store.group_ids_of("petitions", keys) == {"1": 1, "2": 1}
    assert spy.count("find", "groups") == math.ceil(12000 / mongo_module.KEYS_CHUNK)
    before = spy.count("find", "fingerprints")
    assert store.sketches("petitions", keys) == {}
    assert spy.count("find", "fingerprints") - before == math.ceil(12000 / mongo_module.KEYS_CHUNK)


def test_term_lookups_are_chunked_and_read_only_the_terms_asked_for(store, monkeypatch):
    terms = {h: h % 7 + 1 for h in [*range(0, 3000, 10), TOP, 1 << 63]}
    full(store, ["1"], [1], terms=terms)
    spy = Spy(monkeypatch, type(store.db.terms), ["find", "find_one", "aggregate"])
    hashes = np.arange(12000, dtype=np.uint64)
    hashes[-1] = TOP
    expected = {h: n for h, n in terms.items() if h < 11999 or h == TOP}
    assert store.term_counts("petitions", hashes) == expected
    assert spy.count("find", "terms") == math.ceil(12000 / mongo_module.TERMS_CHUNK) > 1
    spy.calls.clear()
    real_find = type(store.db.terms).find
    filters = []

    def find(coll, flt=None, *args, **kwargs):
        filters.append(flt)
        return real_find(coll, flt, *args, **kwargs)

    monkeypatch.setattr(type(store.db.terms), "find", find)
    assert store.term_counts("petitions", [10, 11, 1 << 63]) == {10: 4, 1 << 63: terms[1 << 63]}
    assert filters == [{"table": "petitions", "h": {"$in": [10, 11, -(1 << 63)]}}]


def few_blocks(rng, n):
    """Fingerprints whose 16-bit blocks take a few values each: many rows, few block documents
    (mongomock checks a unique index by scanning the whole collection on every insert)."""
    parts = rng.integers(0, 5, (n, 4), dtype=np.uint64)
    return [int(a) << 48 | int(b) << 32 | int(c) << 16 | int(d) | (1 << 63) for a, b, c, d in parts]


def test_writes_are_bulk(store, monkeypatch):
    monkeypatch.setattr(mongo_blocks, "OPS_CHUNK", 100)
    monkeypatch.setattr(mongo_blocks, "LOAD_CHUNK", 200)  # a full run's insertions of whole documents
    n = 600
    rng = np.random.default_rng(7)
    fps = few_blocks(rng, n)
    keys = [str(i) for i in range(n)]
    groups = [Group(g + 1, [str(2 * g), str(2 * g + 1)], [0, 1], [Pair(str(2 * g), str(2 * g + 1), 1)], 1, 1)
              for g in range(100)]
    spy = Spy(monkeypatch, type(store.db[BLOCKS]), WRITES)
    run_id = full(store, keys, fps, groups=groups, skipped=[Skipped(f"s{i}", "no_features") for i in range(150)],
                  sketches=[(fp, fp, fp) for fp in fps], terms={h: 1 for h in range(250)})
    per_row = [m for m, _ in spy.calls if m not in ("bulk_write", "delete_many")]
    assert len(per_row) <= 4, spy.calls  # run counter, run record, blocks version, table state
    assert spy.count("bulk_write", "fingerprints") == n // 200
    assert spy.count("bulk_write", "groups") == 1 and spy.count("bulk_write", "skipped") == 2
    assert spy.count("bulk_write", "terms") == 3 and spy.count("delete_many", "terms") == 1
    assert spy.count("bulk_write") <= 15

    spy.calls.clear()
    old = dict(zip(keys, fps))
    new = dict(zip((str(n + i) for i in range(250)), few_blocks(rng, 250)))
    store.apply_changes(changes(run_id, remove=keys[:250], old=old, add=new, delete_groups=range(1, 51),
                                upsert_groups=[Group(900 + i, [k, k + "x"], [0, 1], [], run_id, run_id)
                                               for i, k in enumerate(list(new)[:150])],
                                sketches={k: (1, 2, fp) for k, fp in new.items()}))
    per_row = [m for m, _ in spy.calls if m not in ("bulk_write", "delete_many")]
    # blocks version, table state; the journal's one part, its head set and removed (mongo_journal)
    assert len(per_row) <= 5, spy.calls
    assert spy.count("bulk_write", "terms") == 0 and spy.count("delete_many", "terms") == 0
    assert spy.count("bulk_write", "fingerprints") == 3 and spy.count("bulk_write", "groups") == 2
    assert spy.count("bulk_write") <= 10
    # fingerprints and skipped rows of 500 keys, 50 groups, in $in lists of KEYS_CHUNK; the journal twice
    assert spy.count("delete_many") <= 2 * math.ceil(500 / mongo_module.KEYS_CHUNK) + math.ceil(50 / mongo_module.KEYS_CHUNK) + 2
    check_buckets(store.db, store.bucket_size)
    final = {**{k: v for k, v in old.items() if k not in keys[:250]}, **new}
    assert store.fingerprints("petitions") == final
    assert store.sketches("petitions", list(final)) == {
        **{k: (fp, fp, fp) for k, fp in final.items() if k not in new}, **{k: (1, 2, fp) for k, fp in new.items()}}


def test_changes_find_again_only_the_blocks_block_entries_did_not_read(opener, monkeypatch):
    """An incremental run reads its new rows' blocks (block_entries), then writes to them: the
    writes start from what that read found, unless a store wrote to the blocks in between."""
    store, other = opener(bucket_size=2), opener(bucket_size=2)
    keys = [str(i) for i in range(6)]
    old = dict(zip(keys, [5, 6, 7, 5, 6, 7]))
    run_id = full(store, keys, list(old.values()))
    add = {"6": 5, "7": 6}
    spy = Spy(monkeypatch, type(store.db[BLOCKS]), ["find"])
    store.block_entries("petitions", sorted({n for fp in add.values() for n in LAYOUT.names(fp)}))
    read = spy.count("find", BLOCKS)
    store.apply_changes(changes(run_id, remove=["0"], old=old, add=add))  # 0's blocks are 6's: all read
    assert spy.count("find", BLOCKS) == read
    check_buckets(store.db, 2)

    store.block_entries("petitions", LAYOUT.names(7))
    other.apply_changes(changes(run_id, add={"8": 7}))  # another store fills the blocks of 7 up
    before = spy.count("find", BLOCKS)
    store.apply_changes(changes(run_id, add={"9": 7}))
    assert spy.count("find", BLOCKS) > before  # found again, not taken from what it read before
    check_buckets(store.db, 2)
    own = [n for n in LAYOUT.names(7) if n not in LAYOUT.names(5)]  # the block only rows of 7 are in
    got = store.block_entries("petitions", own)
    assert own and all(sorted(k for _, k in got[n]) == ["2", "5", "8", "9"] for n in own)
    store.close()
    other.close()


# --- a full run swaps blocks; interrupted changes repair themselves -----------------------------

def test_a_full_run_swaps_the_block_collection(store):
    store.db["tmp.99.blocks.petitions"].insert_one({"left": "by a crashed run"})
    store.db["tmp.99.blocks.other"].insert_one({"left": "by a crashed run of another table"})
    full(store, ["1"], [1])
    full(store, ["2"], [2])
    names = store.db.list_collection_names()
    assert "blocks.petitions" in names and "tmp.99.blocks.petitions" not in names
    assert "tmp.99.blocks.other" in names
    assert not [n for n in names if n.startswith("tmp.") and n.endswith(".blocks.petitions")]
    assert {e for es in store.block_entries("petitions", LAYOUT.names(1) + LAYOUT.names(2)).values() for e in es} == {
        (2, "2")}
    indexes = store.db[BLOCKS].index_information()
    assert indexes["blockName_seq"]["unique"] and "info_textname" not in indexes  # built after the load


def interrupted_changes_setup(store):
    """A table of 8 rows with sketches and term counts, and changes touching each kind of document."""
    keys = [str(i) for i in range(8)]
    old = {k: 5 + (i % 2) for i, k in enumerate(keys)}
    run_id = full(store, keys, list(old.values()), groups=[Group(1, ["0", "2"], [0, 0], [Pair("0", "2", 0)], 1, 1)],
                  sketches=[(int(k), TOP, 1 << 63) for k in keys], terms={1: 2, TOP: 3})
    ch = changes(run_id, remove=["0", "1"], old=old, add={"0": 7, "8": 5, "9": 6},
                 skipped=[Skipped("1", "no_features")], delete_groups=[1],
                 upsert_groups=[Group(2, ["2", "4", "8"], [0, 0, 0], [Pair("2", "4", 0), Pair("2", "8", 0)], run_id, run_id)],
                 sketches={"0": (TOP, 0, 7), "8": (8, 8, TOP), "9": (1 << 63, 9, 9)})
    return old, ch


def interrupted_full_setup(store):
    """A table as a full run left it, and the next full run's snapshot, different in every collection."""
    full(store, [str(i) for i in range(6)], [5, 6] * 3, groups=[Group(1, ["0", "2"], [0, 0], [Pair("0", "2", 0)], 1, 1)],
         skipped=[Skipped("x", "unreadable")], sketches=[(i, i, i) for i in range(6)], terms={1: 1, 2: 2, 3: 3, TOP: 4})
    run_id = store.start_run(RunRecord("petitions", "full", dt.datetime(2026, 1, 2)))
    keys = [str(i) for i in range(3, 11)]
    fps = [5, 6, 7, 5, 6, 7, TOP, 1 << 63]
    snap = full_snapshot(run_id, keys, fps, groups=[Group(3, ["3", "6"], [0, 0], [Pair("3", "6", 0)], run_id, run_id)],
                         skipped=[Skipped("y", "no_features"), Skipped("z", "no_features")],
                         sketches=[(TOP - i, i, 1 << 63) for i in range(8)],
                         terms={2: 9, 4: 1, 5: 2, 6: 3, 1 << 63: 5, TOP: 7})
    return snap


# groups twice: replacing the ids stored before, inserting the others; the added and skipped rows'
# documents last, with their watermarks
REPLACE_WRITES = ["tmp.<run>.blocks.petitions", "fingerprints", "groups", "groups", "run_changes", "skipped", "terms"]
APPLY_WRITES = ["blocks.petitions", "blocks.petitions", "groups", "run_changes", "fingerprints", "skipped"]


def test_the_interruption_tests_cut_every_bulk_write(opener, monkeypatch):
    """The bulk writes of a full run and of changes, in order: the tests below cut each one."""
    store = opener(bucket_size=2)
    real_bulk, calls = MongoStore._bulk, []

    def spy(self, coll, ops, **kw):
        calls.append(re.sub(r"^tmp\.\d+\.", "tmp.<run>.", coll.name))
        return real_bulk(self, coll, ops, **kw)

    monkeypatch.setattr(MongoStore, "_bulk", spy)
    snap = interrupted_full_setup(store)
    calls.clear()
    store.replace_table(snap)
    assert calls == REPLACE_WRITES
    _old, ch = interrupted_changes_setup(store)
    calls.clear()
    store.apply_changes(ch)
    assert calls == APPLY_WRITES
    store.close()


def cut_bulk_write(monkeypatch, fail_at: int):
    """Make the fail_at-th bulk write get half way before the connection goes; returns the real one."""
    real_bulk, calls = MongoStore._bulk, []

    def failing_bulk(self, coll, ops, **kw):
        calls.append(coll.name)
        if len(calls) == fail_at:
            ops = list(ops)
            real_bulk(self, coll, ops[:len(ops) // 2], **kw)
            raise OperationFailure("connection lost")
        return real_bulk(self, coll, ops, **kw)

    monkeypatch.setattr(MongoStore, "_bulk", failing_bulk)
    return real_bulk


@pytest.mark.parametrize("fail_at", range(1, len(REPLACE_WRITES) + 1))
def test_a_full_run_interrupted_part_way_is_repaired_by_running_it_again(opener, monkeypatch, fail_at):
    store = opener(bucket_size=2)
    snap = interrupted_full_setup(store)
    real_bulk = cut_bulk_write(monkeypatch, fail_at)
    with pytest.raises(StoreError, match="connection lost"):
        store.replace_table(snap)
    monkeypatch.setattr(MongoStore, "_bulk", real_bulk)
    store.replace_table(snap)
    check_buckets(store.db, 2)
    final = dict(zip(snap.keys, map(int, snap.fingerprints)))
    assert store.fingerprints("petitions") == final
    got = store.block_entries("petitions", sorted({n for fp in final.values() for n in LAYOUT.names(fp)}))
    assert sorted(e for es in got.values() for e in es) == sorted(
        (fp, k) for k, fp in final.items() for _ in range(4))
    assert store.sketches("petitions", [str(i) for i in range(11)]) == {
        k: tuple(map(int, w)) for k, w in zip(snap.keys, snap.sketches)}
    terms = dict(zip(map(int, snap.terms.hashes), map(int, snap.terms.counts)))
    assert store.term_counts("petitions", [1, 2, 3, 4, 5, 6, 1 << 63, TOP]) == terms
    assert store.db.terms.count_documents({"table": "petitions"}) == len(terms)
    assert store.db.fingerprints.count_documents({"table": "petitions"}) == len(final)
    assert store.skipped("petitions") == snap.skipped
    assert [g.id for g in store.groups("petitions")] == [3]
    assert not [n for n in store.db.list_collection_names() if n.startswith("tmp.")]
    store.close()


@pytest.mark.parametrize("fail_at", range(1, len(APPLY_WRITES) + 1))
def test_changes_interrupted_part_way_are_repaired_by_running_them_again(opener, monkeypatch, fail_at):
    store = opener(bucket_size=2)
    old, ch = interrupted_changes_setup(store)
    real_bulk = cut_bulk_write(monkeypatch, fail_at)
    with pytest.raises(StoreError, match="connection lost"):
        store.apply_changes(ch)
    monkeypatch.setattr(MongoStore, "_bulk", real_bulk)
    store.apply_changes(ch)
    check_buckets(store.db, 2)
    final = {**{k: v for k, v in old.items() if k not in ("0", "1")}, "0": 7, "8": 5, "9": 6}
    assert store.fingerprints("petitions") == final
    got = store.block_entries("petitions", sorted({n for fp in (5, 6, 7) for n in LAYOUT.names(fp)}))
    assert sorted(e for es in got.values() for e in es) == sorted(
        (fp, k) for k, fp in final.items() for _ in range(4))
    assert store.skipped("petitions") == [Skipped("1", "no_features")]
    assert [g.id for g in store.groups("petitions")] == [2] and store.max_group_id("petitions") == 2
    assert store.sketches("petitions", list(final)) == {
        **{k: (int(k), TOP, 1 << 63) for k in final if k not in ("0", "8", "9")},
        "0": (TOP, 0, 7), "8": (8, 8, TOP), "9": (1 << 63, 9, 9)}
    assert store.term_counts("petitions", [1, 2, TOP]) == {1: 2, TOP: 3}  # changes leave term counts alone
    store.close()


# --- opening, errors, credentials --------------------------------------------------------------

def test_unreachable_server_fails_at_once_with_the_password_masked():
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        open_store("mongodb://u:s3cret@127.0.0.1:1/db?serverSelectionTimeoutMS=300")
    message = str(caught.value)
    assert time.monotonic() - started < 20  # not pymongo's default of 30 s; generous for a loaded machine
    assert "s3cret" not in message and "u:***@127.0.0.1" in message and "\n" not in message
    assert len(message) < 400


def test_driver_errors_are_one_line_without_credentials(monkeypatch):
    store = MongoStore("mongodb://u:s3cret@h:27017/dedup", client=mongomock.MongoClient())

    def boom(*_args, **_kwargs):
        raise OperationFailure("not authorized on dedup as mongodb://u:s3cret@h:27017\nsecond line")

    monkeypatch.setattr(type(store.db.fingerprints), "find", boom)
    with pytest.raises(StoreError) as caught:
        store.fingerprints("petitions")
    message = str(caught.value)
    assert "s3cret" not in message and "\n" not in message
    assert message.startswith("store mongodb://u:***@h:27017/dedup: not authorized on dedup as mongodb://u:***@h")


def test_a_url_without_a_database_is_refused():
    for url in ("mongodb://127.0.0.1:27017", "mongodb://u:pw@127.0.0.1:27017/", "mongodb://h/?replicaSet=rs"):
        with pytest.raises(StoreError, match="name a database in the URL") as caught:
            MongoStore(url, client=mongomock.MongoClient())
        assert "pw@" not in str(caught.value)


def test_a_malformed_url_is_a_configuration_error():
    with pytest.raises(ConfigError, match=r"store.url: cannot use mongodb://u:\*\*\*@\[bad/db"):
        open_store("mongodb://u:pw@[bad/db")


def test_a_table_name_mongodb_cannot_hold_is_refused(store):
    with pytest.raises(StoreError, match="cannot name a MongoDB collection"):
        store.block_entries("a$b", ["0:0000"])


def test_open_store_opens_mongodb_urls(monkeypatch):
    made = []
    shared = mongomock.MongoClient()

    def client(url, **kwargs):
        made.append((url, kwargs))
        return shared

    monkeypatch.setattr(mongo_module, "MongoClient", client)
    store = open_store("mongodb://h:27017/dedup", bucket_size=7)
    assert isinstance(store, MongoStore) and store.bucket_size == 7 and store.db.name == "dedup"
    assert made[-1][1]["serverSelectionTimeoutMS"] == mongo_docs.DEFAULT_TIMEOUT_MS
    store.close()
    store = open_store("mongodb+srv://u:pw@cluster.example/other?serverSelectionTimeoutMS=100")
    assert store.db.name == "other" and "serverSelectionTimeoutMS" not in made[-1][1]
    store.close()
    with pytest.raises(ConfigError, match="bucket_size"):
        open_store("mongodb://h:27017/dedup", bucket_size=0)


# --- migrations --------------------------------------------------------------------------------

@pytest.fixture
def mocked_server(monkeypatch):
    """Every MongoClient the store makes talks to one mongomock server."""
    shared = mongomock.MongoClient()
    monkeypatch.setattr(mongo_module, "MongoClient", lambda *a, **kw: shared)
    return shared


def test_first_use_creates_the_indexes_and_records_the_version(store):
    assert store.db.dedup_meta.find_one({"_id": "schema"})["version"] == mongo_migrate.head_version()
    assert store.db.fingerprints.index_information()["table_key"]["unique"]
    assert store.db.groups.index_information()["table_group"]["unique"]
    assert "table_member" in store.db.groups.index_information()
    assert store.db.skipped.index_information()["table_key"]["unique"]
    assert store.db.terms.index_information()["table_h"]["key"] == [("table", 1), ("h", 1)]
    assert store.db.terms.index_information()["table_h"]["unique"]
    store.db.terms.insert_one({"table": "t", "h": Int64(-1), "n": 1})
    with pytest.raises(DuplicateKeyError):
        store.db.terms.insert_one({"table": "t", "h": Int64(-1), "n": 2})


def test_migrate_command(mocked_server):
    head = mongo_migrate.head_version()
    assert migrate_store("mongodb://u:pw@h/dedup") == f"store mongodb://u:***@h/dedup migrated from empty to version {head}"
    assert migrate_store("mongodb://u:pw@h/dedup") == f"store mongodb://u:***@h/dedup is up to date (version {head})"
    open_store("mongodb://h/dedup").close()


def test_a_newer_schema_is_refused(mocked_server):
    open_store("mongodb://h/dedup").close()
    mocked_server.dedup.dedup_meta.update_one({"_id": "schema"}, {"$set": {"version": 99}})
    with pytest.raises(StoreError, match="newer than this dedup knows"):
        open_store("mongodb://h/dedup")
    with pytest.raises(StoreError, match="newer than this dedup knows"):
        migrate_store("mongodb://h/dedup")


def test_an_older_schema_asks_for_dedup_migrate(mocked_server, monkeypatch):
    open_store("mongodb://h/dedup").close()
    mocked_server.dedup.fingerprints.insert_one({"table": "t", "key": "1"})  # (an empty one is finished by its first use)
    head = mongo_migrate.head_version()
    module = mongo_migrate.steps_module()
    ran = []
    monkeypatch.setattr(module, "STEPS", [*module.STEPS, (99, "a later step", lambda db: ran.append(db.name))])
    with pytest.raises(StoreError, match=rf"at version {head}, this dedup needs 99: run `dedup migrate`"):
        open_store("mongodb://h/dedup")
    assert migrate_store("mongodb://h/dedup") == f"store mongodb://h/dedup migrated from {head} to version 99"
    assert ran == ["dedup"]
    open_store("mongodb://h/dedup").close()


def test_a_version_1_store_gets_term_counts_keeping_its_data(mocked_server):
    db = mocked_server.dedup
    (version, _what, step), *_later = mongo_migrate.steps()
    assert version == 1 and mongo_migrate.head_version() >= 2
    step(db)  # a store made by a dedup that knew only step 1
    db.dedup_meta.insert_one({"_id": "schema", "version": 1})
    db.fingerprints.insert_one({"table": "t", "key": "1", "fp": Int64(-5)})
    db.tables.insert_one({"_id": "t", "version": VERSION, "watermark": None, "max_group_id": 4})
    head = mongo_migrate.head_version()
    with pytest.raises(StoreError, match=rf"at version 1, this dedup needs {head}: run `dedup migrate`"):
        open_store("mongodb://h/dedup")
    assert migrate_store("mongodb://h/dedup") == f"store mongodb://h/dedup migrated from 1 to version {head}"
    assert db.terms.index_information()["table_h"]["unique"]
    store = open_store("mongodb://h/dedup")
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5} and store.max_group_id("t") == 4
        assert store.sketches("t", ["1"]) == {} and store.term_counts("t", [1]) == {}
        full(store, ["1", "2"], [1, TOP], table="t", sketches=[(1, 2, 3), (TOP, 0, 1)], terms={7: 2})
        assert store.sketches("t", ["1", "2"]) == {"1": (1, 2, 3), "2": (TOP, 0, 1)}
        assert store.term_counts("t", [7, 8]) == {7: 2}
    finally:
        store.close()


def test_a_version_2_store_with_three_word_sketches_migrates_and_reads_them(mocked_server):
    db = mocked_server.dedup
    for version, _what, step in mongo_migrate.steps():
        if version <= 2:
            step(db)  # a store made by a dedup that knew steps 1 and 2
    db.dedup_meta.insert_one({"_id": "schema", "version": 2})
    db.fingerprints.insert_many([{"table": "t", "key": "1", "fp": Int64(-5), "sketch": [Int64(-1), Int64(0), Int64(1)]},
                                 {"table": "t", "key": "2", "fp": Int64(7)}])
    head = mongo_migrate.head_version()
    assert head >= 3
    with pytest.raises(StoreError, match=rf"at version 2, this dedup needs {head}: run `dedup migrate`"):
        open_store("mongodb://h/dedup")
    assert migrate_store("mongodb://h/dedup") == f"store mongodb://h/dedup migrated from 2 to version {head}"
    assert db.fingerprints.find_one({"key": "1"}, {"_id": 0, "sketch": 1})["sketch"] == [-1, 0, 1]  # left as it was
    store = open_store("mongodb://h/dedup")
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
        assert store.sketches("t", ["1", "2"]) == {"1": (TOP, 0, 1)}
    finally:
        store.close()


def test_a_version_3_store_loses_the_index_on_entry_keys_keeping_its_blocks(mocked_server):
    db = mocked_server.dedup
    for version, _what, step in mongo_migrate.steps():
        if version <= 3:
            step(db)
    db.dedup_meta.insert_one({"_id": "schema", "version": 3})
    blocks = db["blocks.t"]
    blocks.create_index([("blockName", 1), ("seq", 1)], unique=True, name="blockName_seq")
    blocks.create_index([("info.textname", 1)], name="info_textname")  # as steps 1-3 made it
    blocks.insert_one({"blockName": "0:0001", "seq": 0, "count": 1, "bytes": 49,
                       "info": [{"hashcode": Int64(-1), "textname": "1"}]})
    head = mongo_migrate.head_version()
    assert head >= 4
    assert migrate_store("mongodb://h/dedup") == f"store mongodb://h/dedup migrated from 3 to version {head}"
    assert set(blocks.index_information()) == {"_id_", "blockName_seq"}
    store = open_store("mongodb://h/dedup")
    try:
        assert store.block_entries("t", ["0:0001"]) == {"0:0001": [(TOP, "1")]}
    finally:
        store.close()
    assert migrate_store("mongodb://h/dedup") == f"store mongodb://h/dedup is up to date (version {head})"


def test_the_steps_ship_with_the_package():
    """The steps are found as package data (dedup._migrations), wherever dedup is installed."""
    from importlib import resources

    steps = resources.files("dedup._migrations").joinpath("mongo", "steps.py")
    assert steps.is_file()
    assert mongo_migrate.steps_module().__name__ == mongo_migrate.STEPS_MODULE
    assert mongo_migrate.head_version() == max(v for v, _, _ in mongo_migrate.steps_module().STEPS)



def test_injected_client_is_left_open():
    client = mongomock.MongoClient()
    MongoStore(MOCK_URL, client=client).close()
    assert client.dedup_test.dedup_meta.find_one({"_id": "schema"}) is not None

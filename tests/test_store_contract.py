"""One contract, every store: SQL on SQLite, PostgreSQL and MariaDB; MongoDB on mongomock and live."""

import datetime as dt

import numpy as np
import pytest
import sqlalchemy as sa
from helpers import block_entries
from mongo_fixtures import mongo_live_url, mongo_opener  # noqa: F401  (fixture)

from dedup import clock
from dedup.index.blocks import BlockLayout
from dedup.errors import LockedError, StoreError
from dedup.index.groups import Group, Pair
from dedup.store import RunRecord, Skipped, TableChanges, TableSnapshot, TermCounts, open_store

EDGE_FPS = [0, 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 5, (1 << 64) - 1]  # across the signed boundary
TOP = (1 << 64) - 1
EDGE_SKETCHES = [(0, 1, 2), ((1 << 63) - 1, 1 << 63, TOP), (TOP, 0, 1 << 63), (5, 6, 7), ((1 << 63) + 5, 3, TOP - 1),
                 (1 << 63, 1 << 63, 1 << 63)]  # one per EDGE_FPS row
TERMS = {0: 1, 1: 7, (1 << 63) - 1: 2, 1 << 63: 3, TOP: 100_000, 12345678901234567890: 2**31 - 1}
VERSION = {"max_distance": 3, "hash": "CityHash64", "fields": [["content", "text", 1.0]]}
LAYOUT = BlockLayout.for_distance(3)
STORES = ["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"]


@pytest.fixture(params=STORES)
def store_opener(request):
    """Opens the parametrized store; calling it again opens the same store anew."""
    if request.param.startswith("mongo"):
        return mongo_opener(request, request.param)
    url = request.getfixturevalue("mariadb_store_url" if request.param == "mariadb" else f"{request.param}_url")
    return lambda **kw: open_store(url, **kw)


@pytest.fixture
def store(store_opener):
    s = store_opener()
    yield s
    s.close()


def start(store, table="petitions", kind="full") -> int:
    return store.start_run(RunRecord(table, kind, dt.datetime(2026, 1, 1)))


def default_groups(run_id=None):
    return [
        Group(1, ["1", "2"], [0, 1], [Pair("1", "2", 1)], run_id, run_id),
        Group(2, ["4", "5", "6"], [0, 2, 62], [Pair("4", "5", 2), Pair("5", "6", 3)], run_id, run_id),
    ]


def term_counts_of(counts: dict) -> TermCounts:
    return TermCounts(np.array(list(counts), dtype=np.uint64), np.array(list(counts.values()), dtype=np.int64))


def snapshot(run_id, table="petitions", keys=None, fps=None, groups=None, skipped=None, watermark=None,
             sketches=None, terms=None):
    """``sketches``: one tuple of words (any width) per row, an array, or None; ``terms``: {hash: count},
    a TermCounts, or None."""
    keys = keys if keys is not None else [str(i) for i in range(1, len(EDGE_FPS) + 1)]
    fps = np.array(fps if fps is not None else EDGE_FPS, dtype=np.uint64)
    groups = groups if groups is not None else default_groups(run_id)
    skipped = skipped if skipped is not None else [Skipped("9", "no_features", "every field is empty")]
    if sketches is not None:
        sketches = np.array(sketches, dtype=np.uint64)
    if isinstance(terms, dict):
        terms = term_counts_of(terms)
    return TableSnapshot(table, run_id, keys, fps, groups, skipped, VERSION, watermark, sketches, terms,
                         block_entries(LAYOUT, keys, fps))


def full_run(store, table="petitions", **kw) -> int:
    """start_run, replace_table, finish_run: what a full run does."""
    run_id = start(store, table)
    snap = snapshot(run_id, table, **kw)
    store.replace_table(snap)
    store.finish_run(run_id, "ok", {"rows": len(snap.keys)})
    return run_id


def changes(run_id, remove=(), add=(), skipped=(), delete_groups=(), upsert_groups=(), watermark=None,
            old=None, table="petitions", sketches=None):
    """TableChanges removing ``remove`` (their old fingerprints from ``old``) and adding ``add`` {key: fp};
    ``sketches`` {key: words} (one width) for every added key, or None."""
    old = old or {}
    gone = [k for k in remove if k in old]
    add = dict(add)
    add_sketches = None
    if sketches is not None:
        add_sketches = np.array([sketches[k] for k in add], dtype=np.uint64)
    return TableChanges(table, run_id, list(remove), block_entries(LAYOUT, gone, [old[k] for k in gone]), list(add),
                        np.array(list(add.values()), dtype=np.uint64), list(skipped), list(delete_groups),
                        list(upsert_groups), VERSION, watermark, add_sketches, block_entries(LAYOUT, add, add.values()))


def all_blocks(store, fps, table="petitions"):
    """Block name -> sorted entries, for every block any of ``fps`` lies in; fails on a doubled entry."""
    names = sorted({n for fp in fps for n in LAYOUT.names(fp)})
    got = store.block_entries(table, names)
    for name, entries in got.items():
        assert len(entries) == len(set(entries)), f"entry twice in block {name}: {entries}"
    return {n: sorted(e) for n, e in got.items() if e}


def expected_blocks(fp_of: dict):
    out: dict = {}
    for k, fp in fp_of.items():
        for n in LAYOUT.names(fp):
            out.setdefault(n, []).append((fp, k))
    return {n: sorted(e) for n, e in out.items()}


def dump(store, fps, table="petitions"):
    st = store.state(table)
    fingerprints = store.fingerprints(table)
    return (fingerprints, all_blocks(store, fps, table), store.groups(table), store.skipped(table),
            st.version, st.watermark, store.max_group_id(table), store.sketches(table, list(fingerprints)),
            store.term_counts(table, list(TERMS)))


# --- full runs --------------------------------------------------------------------------------

def test_fingerprints_round_trip_exactly_across_2_63(store):
    full_run(store)
    got = store.fingerprints("petitions")
    assert got == {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
    assert all(isinstance(v, int) and 0 <= v < 1 << 64 for v in got.values())


def test_fingerprints_of_some_keys(store):
    full_run(store)
    assert store.fingerprints("petitions", ["4", "6", "nope"]) == {"4": EDGE_FPS[3], "6": EDGE_FPS[5]}
    assert store.fingerprints("petitions", []) == {}


def test_block_entries_by_name(store):
    full_run(store)
    top = (1 << 63) + 5
    names = LAYOUT.names(top)
    got = store.block_entries("petitions", names + ["0:dead"])
    assert (top, "5") in got[names[0]]
    assert "0:dead" not in got
    # every fingerprint sits in exactly k+1 blocks
    every = store.block_entries("petitions", sorted({n for fp in EDGE_FPS for n in LAYOUT.names(fp)}))
    entries = [e for es in every.values() for e in es]
    assert len(entries) == 4 * len(EDGE_FPS) and len(set(entries)) == len(EDGE_FPS)
    assert all_blocks(store, EDGE_FPS) == expected_blocks({str(i): fp for i, fp in enumerate(EDGE_FPS, 1)})


def test_groups_skipped_state_and_runs(store):
    run_id = full_run(store, watermark={"type": "datetime", "value": "2024-01-01T00:00:00"})
    groups = store.groups("petitions")
    assert [(g.id, g.keys, g.distances) for g in groups] == [(1, ["1", "2"], [0, 1]), (2, ["4", "5", "6"], [0, 2, 62])]
    assert groups[1].pairs == [Pair("4", "5", 2), Pair("5", "6", 3)]
    assert [(g.created_run, g.updated_run, g.merged_from) for g in groups] == [(run_id, run_id, [])] * 2
    assert store.skipped("petitions") == [Skipped("9", "no_features", "every field is empty")]
    st = store.state("petitions")
    assert st.version == VERSION and st.watermark == {"type": "datetime", "value": "2024-01-01T00:00:00"}
    runs = store.runs("petitions")
    assert [(r.id, r.kind, r.status, r.summary) for r in runs] == [(run_id, "full", "ok", {"rows": 6})]


def test_groups_by_id_and_group_of_each_key(store):
    full_run(store)
    assert [g.id for g in store.groups("petitions", [2])] == [2]
    assert [g.id for g in store.groups("petitions", [2, 1, 7])] == [1, 2]
    assert store.groups("petitions", []) == []
    assert store.group_ids_of("petitions", ["1", "2", "3", "6", "nope"]) == {"1": 1, "2": 1, "6": 2}
    assert store.max_group_id("petitions") == 2


def test_replace_replaces_and_leaves_other_tables_alone(store):
    full_run(store)
    full_run(store, table="other", keys=["a"], fps=[7], groups=[], skipped=[])
    full_run(store, keys=["1", "2"], fps=[10, 11], groups=[Group(1, ["1", "2"], [0, 1], [Pair("1", "2", 1)])], skipped=[])
    assert store.fingerprints("petitions") == {"1": 10, "2": 11}
    assert [g.keys for g in store.groups("petitions")] == [["1", "2"]]
    assert store.skipped("petitions") == []
    assert store.fingerprints("other") == {"a": 7}
    assert len(store.runs("petitions")) == 2
    assert all_blocks(store, EDGE_FPS + [10, 11]) == expected_blocks({"1": 10, "2": 11})
    assert store.max_group_id("petitions") == 2  # never decreases


def test_a_failed_replace_keeps_the_previous_result(store):
    full_run(store, sketches=EDGE_SKETCHES, terms=TERMS)
    run_id = start(store)
    broken = snapshot(run_id, keys=["1", "1"], fps=[1, 2], groups=[], skipped=[],  # duplicate key: refused
                      sketches=[(1, 2, 3), (4, 5, 6)], terms={1: 1})
    with pytest.raises(StoreError):
        store.replace_table(broken)
    assert store.fingerprints("petitions") == {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
    assert len(store.groups("petitions")) == 2
    assert store.sketches("petitions", list(OLD)) == SKETCH_OF
    assert store.term_counts("petitions", list(TERMS)) == TERMS


@pytest.mark.parametrize("bad", ["sketch_rows", "sketch_flat", "term_twice", "count_zero", "terms_unaligned"])
def test_a_malformed_snapshot_is_refused_and_nothing_written(store, bad):
    full_run(store, sketches=EDGE_SKETCHES, terms=TERMS)
    before = dump(store, EDGE_FPS)
    run_id = start(store)
    snap = snapshot(run_id, keys=["1", "2"], fps=[10, 11], groups=[], skipped=[], sketches=[(1, 2, 3), (4, 5, 6)],
                    terms={5: 1, 6: 2})
    if bad == "sketch_rows":
        snap.sketches = snap.sketches[:1]
    elif bad == "sketch_flat":
        snap.sketches = np.zeros(2, dtype=np.uint64)  # not (rows, words)
    elif bad == "term_twice":
        snap.terms = TermCounts(np.array([5, 5], dtype=np.uint64), np.array([1, 2]))
    elif bad == "count_zero":
        snap.terms = TermCounts(np.array([5, 6], dtype=np.uint64), np.array([1, 0]))
    else:
        snap.terms = TermCounts(np.array([5, 6], dtype=np.uint64), np.array([1]))
    with pytest.raises(StoreError):
        store.replace_table(snap)
    assert dump(store, EDGE_FPS) == before


def test_unknown_table_is_empty(store):
    assert store.state("nothing") is None
    assert store.groups("nothing") == [] and store.fingerprints("nothing") == {} and store.runs("nothing") == []
    assert store.skipped("nothing") == [] and store.block_entries("nothing", ["0:0000"]) == {}
    assert store.group_ids_of("nothing", ["1"]) == {} and store.max_group_id("nothing") == 0
    assert store.sketches("nothing", ["1"]) == {} and store.term_counts("nothing", [1, TOP]) == {}


def test_state_is_none_until_a_run_wrote_it(store):
    start(store)
    store.acquire_lock("petitions", "me", 60)
    assert store.state("petitions") is None
    store.release_lock("petitions", "me")
    assert store.state("petitions") is None


# --- sketches and term counts -----------------------------------------------------------------

SKETCH_OF = {str(i): s for i, s in enumerate(EDGE_SKETCHES, 1)}


def test_sketches_round_trip_exactly_across_2_63(store):
    full_run(store, sketches=EDGE_SKETCHES)
    got = store.sketches("petitions", [*SKETCH_OF, "nope"])
    assert got == SKETCH_OF
    assert all(type(s) is tuple and len(s) == 3 for s in got.values())
    assert all(type(w) is int and 0 <= w < 1 << 64 for s in got.values() for w in s)
    assert store.sketches("petitions", ["5", "2", "5"]) == {"5": SKETCH_OF["5"], "2": SKETCH_OF["2"]}
    assert store.sketches("petitions", []) == {}
    assert store.fingerprints("petitions") == {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
    assert all_blocks(store, EDGE_FPS) == expected_blocks({str(i): fp for i, fp in enumerate(EDGE_FPS, 1)})


def test_rows_without_sketches_return_none(store):
    full_run(store)
    assert store.sketches("petitions", list(SKETCH_OF)) == {}
    full_run(store, table="other", keys=["1", "2"], fps=[7, 8], groups=[], skipped=[], sketches=[(1, 2, 3), (4, 5, 6)])
    assert store.sketches("petitions", ["1", "2"]) == {}  # sketches are per table
    assert store.sketches("other", ["1", "2"]) == {"1": (1, 2, 3), "2": (4, 5, 6)}
    full_run(store, table="other", keys=["1", "2"], fps=[7, 8], groups=[], skipped=[])  # a full run without any
    assert store.sketches("other", ["1", "2"]) == {}
    assert store.fingerprints("other") == {"1": 7, "2": 8}
    run_id = start(store, kind="incremental")
    store.apply_changes(changes(run_id, add={"20": 5, "21": TOP}))
    assert store.sketches("petitions", ["20", "21"]) == {}
    assert store.fingerprints("petitions", ["20", "21"]) == {"20": 5, "21": TOP}


def sketch_changes(run_id):
    """Row 2 changes (new sketch), row 3 goes, row 5 becomes unreadable, row 10 is new."""
    return changes(run_id, remove=["2", "3", "5"], add={"2": NEW_2, "10": NEW_10}, old=OLD,
                   skipped=[Skipped("5", "unreadable", "bad bytes")],
                   sketches={"2": (TOP, 1 << 63, 9), "10": ((1 << 63) + 1, 0, TOP - 7)})


def test_changed_and_removed_rows_lose_or_replace_their_sketch(store):
    full_run(store, sketches=EDGE_SKETCHES)
    run_id = start(store, kind="incremental")
    store.apply_changes(sketch_changes(run_id))
    expected = {k: v for k, v in SKETCH_OF.items() if k not in ("3", "5")}
    expected.update({"2": (TOP, 1 << 63, 9), "10": ((1 << 63) + 1, 0, TOP - 7)})
    assert store.sketches("petitions", [*SKETCH_OF, "10"]) == expected
    every_fp = [*EDGE_FPS, NEW_2, NEW_10]
    once = dump(store, every_fp)
    store.apply_changes(sketch_changes(run_id))  # again: the same
    assert dump(store, every_fp) == once
    # a row changed by a run that makes no sketches keeps no old one; a row re-added gets one back
    store.apply_changes(changes(run_id, remove=["4"], add={"4": 44}, old=OLD))
    store.apply_changes(changes(run_id, add={"3": 33}, sketches={"3": (1, 1, 1)}))
    del expected["4"]
    expected["3"] = (1, 1, 1)
    assert store.sketches("petitions", [*SKETCH_OF, "10"]) == expected
    assert store.fingerprints("petitions", ["3", "4"]) == {"3": 33, "4": 44}


def test_apply_changes_with_sketches_for_other_rows_is_refused(store):
    full_run(store, sketches=EDGE_SKETCHES)
    before = dump(store, EDGE_FPS)
    run_id = start(store, kind="incremental")
    ch = changes(run_id, remove=["1"], add={"1": 3, "7": 4}, old=OLD, sketches={"1": (1, 2, 3), "7": (4, 5, 6)})
    ch.add_sketches = ch.add_sketches[:1]
    with pytest.raises(StoreError):
        store.apply_changes(ch)
    assert dump(store, EDGE_FPS) == before


def wide(width: int, seed: int) -> list[tuple[int, ...]]:
    """One sketch of ``width`` words per EDGE_FPS row, words on both sides of 2**63 and at the edges."""
    edge = [0, 1, (1 << 63) - 1, 1 << 63, TOP - 1, TOP]
    return [tuple(edge[(row + w + seed) % len(edge)] ^ (w * 0x9E3779B97F4A7C15 % (1 << 64) if (row + w) % 3 else 0)
                  for w in range(width)) for row in range(len(EDGE_FPS))]


@pytest.mark.parametrize("width", [0, 3, 40])
def test_sketches_of_any_width_round_trip_through_replace_and_changes(store, width):
    sketches = wide(width, 0)
    assert width == 0 or any(w >= 1 << 63 for s in sketches for w in s)
    full_run(store, sketches=sketches)
    expected = {k: s for k, s in zip(OLD, sketches)} if width else {}
    got = store.sketches("petitions", [*OLD, "nope"])
    assert got == expected
    assert all(type(s) is tuple and len(s) == width for s in got.values())
    assert all(type(w) is int and 0 <= w < 1 << 64 for s in got.values() for w in s)
    run_id = start(store, kind="incremental")
    new = {"2": wide(width, 1)[0], "10": wide(width, 2)[5]}
    ch = changes(run_id, remove=["2", "3"], add={"2": NEW_2, "10": NEW_10}, old=OLD, sketches=new)
    assert ch.add_sketches.shape == (2, width)
    store.apply_changes(ch)
    expected.pop("3", None)
    expected.update(new if width else {})
    assert store.sketches("petitions", [*OLD, "10"]) == expected
    assert store.fingerprints("petitions", ["2", "3", "10"]) == {"2": NEW_2, "10": NEW_10}


def test_a_row_added_again_with_another_width_keeps_only_the_new_sketch(store):
    full_run(store, sketches=wide(3, 0))
    run_id = start(store, kind="incremental")
    store.apply_changes(changes(run_id, remove=["1", "2"], add={"1": 11, "2": 22}, old=OLD,
                                sketches={"1": wide(40, 3)[1], "2": wide(40, 4)[2]}))
    store.apply_changes(changes(run_id, remove=["2"], add={"2": 23}, old={"2": 22}, sketches={"2": ()}))  # width 0
    store.apply_changes(changes(run_id, remove=["3"], add={"3": 33}, old=OLD, sketches={"3": (TOP,)}))
    got = store.sketches("petitions", list(OLD))
    assert got == {"1": wide(40, 3)[1], "3": (TOP,), **{k: s for k, s in zip(OLD, wide(3, 0)) if k in "456"}}
    full_run(store, sketches=wide(40, 5))  # a full run of another width replaces every sketch
    assert store.sketches("petitions", list(OLD)) == dict(zip(OLD, wide(40, 5)))


def write_old_layout(store, table: str, words_of: dict[str, tuple[int, int, int]]) -> None:
    """Give stored rows their three sketch words the way a store written before variable widths
    held them: SQL sketch1..3 (signature NULL), MongoDB ``sketch: [Int64 x 3]`` (no ``sig``)."""
    signed = {k: [w - (1 << 64) if w >= 1 << 63 else w for w in ws] for k, ws in words_of.items()}
    if hasattr(store, "engine"):
        from dedup.store.sql_schema import fingerprints as f

        with store.engine.begin() as conn:
            for k, (a, b, c) in signed.items():
                conn.execute(f.update().where(f.c.table_name == table, f.c.row_key == k).values(
                    signature=None, sketch1=a, sketch2=b, sketch3=c))
    else:
        from bson.int64 import Int64

        for k, ws in signed.items():
            store.db.fingerprints.update_one({"table": table, "key": k},
                                             {"$unset": {"sig": ""}, "$set": {"sketch": [Int64(w) for w in ws]}})


def test_rows_in_the_old_three_word_layout_read_back(store):
    full_run(store, sketches=wide(40, 0))
    old_rows = {"1": EDGE_SKETCHES[1], "4": EDGE_SKETCHES[2], "6": EDGE_SKETCHES[5]}
    write_old_layout(store, "petitions", old_rows)
    expected = {**dict(zip(OLD, wide(40, 0))), **old_rows}
    assert store.sketches("petitions", [*OLD, "nope"]) == expected
    # an old row changed by a run without sketches keeps none; one changed with a sketch gets the new one
    run_id = start(store, kind="incremental")
    store.apply_changes(changes(run_id, remove=["4"], add={"4": 44}, old=OLD))
    store.apply_changes(changes(run_id, remove=["6"], add={"6": 66}, old=OLD, sketches={"6": (5,) * 36}))
    del expected["4"]
    expected["6"] = (5,) * 36
    assert store.sketches("petitions", list(OLD)) == expected


def test_term_counts_round_trip_and_the_next_full_run_replaces_them(store):
    full_run(store, terms=TERMS)
    full_run(store, table="other", keys=["a"], fps=[7], groups=[], skipped=[], terms={5: 1, 1 << 63: 9})
    got = store.term_counts("petitions", list(TERMS))
    assert got == TERMS
    assert all(type(h) is int and type(n) is int for h, n in got.items())
    assert store.term_counts("petitions", np.array(list(TERMS), dtype=np.uint64)) == TERMS
    assert store.term_counts("petitions", [1 << 63, 42, TOP, 1 << 63]) == {1 << 63: 3, TOP: 100_000}
    run_id = start(store, kind="incremental")  # incremental runs leave them alone
    store.apply_changes(incremental_changes(run_id))
    assert store.term_counts("petitions", list(TERMS)) == TERMS
    full_run(store, terms={1: 2, 77: 1, TOP: 5})  # the next full run replaces them all
    assert store.term_counts("petitions", [*TERMS, 77]) == {1: 2, 77: 1, TOP: 5}
    full_run(store)  # and one without term counts leaves none
    assert store.term_counts("petitions", [*TERMS, 77]) == {}
    assert store.term_counts("other", [5, 1 << 63, 1]) == {5: 1, 1 << 63: 9}


def test_term_counts_of_unknown_hashes_are_empty(store):
    full_run(store, terms=TERMS)
    assert store.term_counts("petitions", [2, 3, TOP - 1, (1 << 63) + 1]) == {}
    assert store.term_counts("petitions", []) == {}
    assert store.term_counts("petitions", np.zeros(0, dtype=np.uint64)) == {}
    assert store.term_counts("other", list(TERMS)) == {}


@pytest.fixture
def stored_terms(request):
    """Terms stored for the chunking test, spread over every chunk of the query. mongomock checks a
    unique index by scanning the whole collection on every insert, so it gets a few hundred;
    SecantusDB re-checks each document it finds against the whole $in list in Python (matches x list
    length), so a live server gets 1,200: still hundreds in every chunk, seconds instead of minutes."""
    return {"mongomock": 300, "mongo_live": 1_200}.get(request.node.callspec.params.get("store_opener"), 12_000)


def test_term_counts_beyond_one_chunk(store, stored_terms):
    rng = np.random.default_rng(11)
    pool = np.unique(rng.integers(0, TOP, size=12_600, dtype=np.uint64, endpoint=True))
    assert len(pool) >= 12_500
    rng.shuffle(pool)
    query = pool[:12_000]
    stored = query[np.linspace(0, len(query) - 1, stored_terms).astype(int)]  # in every chunk of the query
    counts = rng.integers(1, 1_000_000, size=len(stored))
    full_run(store, terms=TermCounts(stored, counts))
    expected = dict(zip(map(int, stored), map(int, counts)))
    assert len(expected) == stored_terms and any(h >= 1 << 63 for h in expected)
    assert store.term_counts("petitions", query) == expected
    as_ints = [int(h) for h in query[::-1]] + [int(h) for h in pool[12_000:]]
    assert store.term_counts("petitions", as_ints) == expected


# --- runs and locks ---------------------------------------------------------------------------

def test_run_ids_increase_and_runs_come_newest_first(store):
    run = RunRecord("petitions", "full", dt.datetime(2026, 1, 1, 3, 4, 5))
    first = store.start_run(run)
    assert run.id == first
    second = start(store, table="other")
    third = start(store, kind="incremental")
    assert first < second < third
    store.finish_run(first, "ok", {"rows": 3, "groups": [1, 2]})
    store.finish_run(third, "failed", {"error": "boom"})
    runs = store.runs("petitions")
    assert [(r.id, r.kind, r.status, r.summary) for r in runs] == [
        (third, "incremental", "failed", {"error": "boom"}), (first, "full", "ok", {"rows": 3, "groups": [1, 2]})]
    assert runs[1].started_at == dt.datetime(2026, 1, 1, 3, 4, 5) and runs[1].finished_at is not None
    assert [r.id for r in store.runs("petitions", limit=1)] == [third]
    assert [(r.id, r.status, r.finished_at) for r in store.runs("other")] == [(second, "running", None)]


def test_a_held_lock_refuses_another_owner(store):
    store.acquire_lock("petitions", "a", 60)
    store.acquire_lock("petitions", "a", 60)  # the holder may renew
    with pytest.raises(LockedError) as caught:
        store.acquire_lock("petitions", "b", 60)
    assert caught.value.owner == "a" and "a" in str(caught.value)
    store.acquire_lock("other", "b", 60)  # locks are per table
    store.release_lock("petitions", "b")  # not b's: nothing happens
    with pytest.raises(LockedError):
        store.acquire_lock("petitions", "c", 60)
    store.release_lock("petitions", "a")
    store.acquire_lock("petitions", "c", 60)


def test_the_lock_holder_is_told_without_taking_anything(store):
    assert store.lock_holder("petitions") is None
    store.acquire_lock("petitions", "a", 600)
    owner, expires = store.lock_holder("petitions")
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    assert owner == "a" and now + dt.timedelta(seconds=500) < expires < now + dt.timedelta(seconds=700)
    store.acquire_lock("petitions", "a", 600)  # told, not taken: the holder still renews
    store.release_lock("petitions", "a")
    assert store.lock_holder("petitions") is None


def test_an_expired_lock_is_taken_over(store):
    store.acquire_lock("petitions", "a", -1)  # expired a second ago: no waiting for it
    store.acquire_lock("petitions", "b", 60)
    with pytest.raises(LockedError):
        store.acquire_lock("petitions", "a", 60)


def test_a_lock_can_be_stolen_from_a_named_dead_owner(store):
    store.acquire_lock("petitions", "dead", 600)
    with pytest.raises(LockedError):
        store.acquire_lock("petitions", "b", 60, steal_from="someone-else")
    store.acquire_lock("petitions", "b", 60, steal_from="dead")
    with pytest.raises(LockedError):
        store.acquire_lock("petitions", "dead", 60)


def test_the_clocks_times_read_back_as_written(store):
    """dedup.clock.now is cut to what every store keeps: a run's start, its finish and a lock's
    expiry (the store's own clock) read back exactly, with no fraction of a second."""
    started = clock.now()
    run_id = store.start_run(RunRecord("petitions", "full", started))
    store.finish_run(run_id, "ok", {"rows": 0})
    store.acquire_lock("petitions", "me", 60)
    (run,) = store.runs("petitions")
    _owner, expires = store.lock_holder("petitions")
    assert run.started_at == started and started.microsecond == 0 and started.tzinfo is None
    assert run.finished_at.microsecond == 0 and run.finished_at >= started
    assert expires.microsecond == 0 and expires >= started + dt.timedelta(seconds=60)


def test_the_lock_survives_a_full_run(store):
    store.acquire_lock("petitions", "a", 60)
    full_run(store)
    with pytest.raises(LockedError):
        store.acquire_lock("petitions", "b", 60)


# --- incremental changes ----------------------------------------------------------------------

OLD = {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
NEW_2, NEW_9, NEW_10 = 3, ((1 << 63) + 5) ^ 1, (1 << 64) - 2


def incremental_changes(run_id):
    """Row 2 changed, row 9 (skipped before) now has features, row 10 is new, row 11 unreadable;
    group 1 is dissolved, group 2 gains row 9, group 3 is new from rows 1 and 2."""
    return changes(
        run_id, remove=["2", "9"], add={"2": NEW_2, "9": NEW_9, "10": NEW_10}, old=OLD,
        skipped=[Skipped("11", "unreadable", "bad bytes")], delete_groups=[1],
        upsert_groups=[
            Group(2, ["4", "5", "6", "9"], [0, 2, 62, 1], [Pair("4", "5", 2), Pair("4", "9", 1), Pair("5", "6", 3)],
                  1, run_id, []),
            Group(3, ["1", "2"], [0, 2], [Pair("1", "2", 2)], run_id, run_id, [1]),
        ],
        watermark={"type": "int", "value": 11, "key": "11"})


def expected_after_incremental(store, run_id):
    fp_of = {**OLD, "2": NEW_2, "9": NEW_9, "10": NEW_10}
    assert store.fingerprints("petitions") == fp_of
    assert all_blocks(store, [*EDGE_FPS, NEW_2, NEW_9, NEW_10]) == expected_blocks(fp_of)
    assert store.skipped("petitions") == [Skipped("11", "unreadable", "bad bytes")]
    groups = store.groups("petitions")
    assert [(g.id, g.keys, g.distances, g.created_run, g.updated_run, g.merged_from) for g in groups] == [
        (2, ["4", "5", "6", "9"], [0, 2, 62, 1], 1, run_id, []),
        (3, ["1", "2"], [0, 2], run_id, run_id, [1]),
    ]
    assert groups[0].pairs == [Pair("4", "5", 2), Pair("4", "9", 1), Pair("5", "6", 3)]
    assert store.group_ids_of("petitions", ["1", "2", "3", "4", "9", "10"]) == {"1": 3, "2": 3, "4": 2, "9": 2}
    assert store.max_group_id("petitions") == 3
    assert store.state("petitions").watermark == {"type": "int", "value": 11, "key": "11"}


def test_apply_changes_removes_adds_and_regroups(store):
    full_run(store)
    run_id = start(store, kind="incremental")
    store.apply_changes(incremental_changes(run_id))
    expected_after_incremental(store, run_id)


def test_apply_changes_twice_is_the_same_as_once(store):
    full_run(store)
    run_id = start(store, kind="incremental")
    every_fp = [*EDGE_FPS, NEW_2, NEW_9, NEW_10]
    store.apply_changes(incremental_changes(run_id))
    once = dump(store, every_fp)
    store.apply_changes(incremental_changes(run_id))
    assert dump(store, every_fp) == once
    expected_after_incremental(store, run_id)


def test_apply_changes_on_a_store_reopened(store_opener):
    first = store_opener()
    full_run(first)
    first.close()
    again = store_opener()
    try:
        run_id = start(again, kind="incremental")
        again.apply_changes(incremental_changes(run_id))
        expected_after_incremental(again, run_id)
    finally:
        again.close()


def test_max_group_id_never_decreases(store):
    full_run(store)
    run_id = start(store, kind="incremental")
    store.apply_changes(changes(run_id, upsert_groups=[Group(5, ["3", "x"], [0, 1], [Pair("3", "x", 1)], run_id, run_id)]))
    assert store.max_group_id("petitions") == 5
    store.apply_changes(changes(run_id, delete_groups=[5, 2]))
    assert [g.id for g in store.groups("petitions")] == [1]
    assert store.max_group_id("petitions") == 5
    full_run(store, groups=[Group(1, ["1", "2"], [0, 1], [Pair("1", "2", 1)])])
    assert store.max_group_id("petitions") == 5


def test_an_upserted_group_replaces_the_stored_one_whole(store):
    full_run(store)
    run_id = start(store, kind="incremental")
    g = Group(2, ["4", "6"], [0, 62], [Pair("4", "6", 62)], 1, run_id, [7, 8])
    store.apply_changes(changes(run_id, upsert_groups=[g]))
    assert store.groups("petitions", [2]) == [g]
    assert store.group_ids_of("petitions", ["4", "5", "6"]) == {"4": 2, "6": 2}


def test_apply_changes_on_an_empty_table(store):
    run_id = start(store, kind="incremental")
    store.apply_changes(changes(run_id, add={"a": 1 << 63, "b": (1 << 63) + 1},
                                upsert_groups=[Group(1, ["a", "b"], [0, 1], [Pair("a", "b", 1)], run_id, run_id)]))
    assert store.fingerprints("petitions") == {"a": 1 << 63, "b": (1 << 63) + 1}
    assert all_blocks(store, [1 << 63, (1 << 63) + 1]) == expected_blocks({"a": 1 << 63, "b": (1 << 63) + 1})
    assert store.state("petitions").version == VERSION and store.max_group_id("petitions") == 1


# --- SQL store: migrations --------------------------------------------------------------------

@pytest.fixture
def store_url(db_url):
    return db_url


def test_schema_from_migrations_matches_the_live_schema(store_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from dedup.store.sql_schema import metadata

    s = open_store(store_url)
    with s.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": False})
        diff = [d for d in compare_metadata(ctx, metadata)
                if not (d[0] == "remove_table" and d[1].name == "dedup_alembic_version")]
    s.close()
    assert diff == []


def test_sql_lookups_of_terms_and_sketches_are_chunked(store_url):
    from dedup.store import sql as sql_module

    s = open_store(store_url)
    try:
        hashes = np.arange(1, 12_001, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        full_run(s, terms=TermCounts(hashes, np.ones(len(hashes), dtype=np.int64)),
                 sketches=EDGE_SKETCHES)
        s.statements = 0
        assert len(s.term_counts("petitions", hashes)) == 12_000
        assert s.statements == -(-12_000 // sql_module._TERMS_CHUNK) > 1
        s.statements = 0
        assert s.term_counts("petitions", hashes[:3].tolist()) == {int(h): 1 for h in hashes[:3]}
        assert s.statements == 1
        s.statements = 0
        assert len(s.sketches("petitions", [*SKETCH_OF, *map(str, range(100, 12_000))])) == len(SKETCH_OF)
        assert s.statements == -(-(12_000 - 100 + len(SKETCH_OF)) // sql_module._CHUNK)
    finally:
        s.close()


def test_migrate_command_and_newer_schema_refused(store_url):
    from dedup.store import migrate_store
    from dedup.store.sql_migrate import VERSION_TABLE, head_revision

    assert migrate_store(store_url).endswith(f"migrated from empty to revision {head_revision()}")
    assert "up to date" in migrate_store(store_url)
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(sa.table(VERSION_TABLE, sa.column("version_num")).update().values(version_num="9999"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer than this dedup knows"):
        open_store(store_url)


def test_the_run_history_is_kept_across_full_runs_and_a_repeat_never_doubles_it(store):
    from dedup.store import GroupChange

    first = start(store)
    snap = snapshot(first)
    snap.changes = [GroupChange(1, ["new"], 2, ["1", "2"]), GroupChange(2, ["new"], 3, ["4", "5", "6"])]
    store.replace_table(snap)
    store.replace_table(snap)  # an interrupted run applied again
    assert store.run_changes("petitions", first) == snap.changes
    second = start(store, kind="incremental")
    gone = GroupChange(2, ["gone"], 0, removed=["4", "5", "6"], merged_into=1)
    grown = GroupChange(1, ["grown", "merged"], 5, ["3"], merged_from=[2])
    ch = changes(second, delete_groups=[2], upsert_groups=[Group(1, ["1", "2", "3", "4", "5"], [0] * 5, [], first,
                                                                 second, [2])])
    ch.changes = [gone, grown]
    store.apply_changes(ch)
    store.apply_changes(ch)
    third = start(store)
    later = snapshot(third, groups=[])
    later.changes = [GroupChange(1, ["gone"], 0, removed=["1", "2", "3", "4", "5"])]
    store.replace_table(later)
    assert store.run_changes("petitions", first) == snap.changes
    assert store.run_changes("petitions", second) == [grown, gone]  # by group id
    assert store.run_changes("petitions", third) == later.changes
    assert store.run_changes("petitions", 99) == [] and store.run_changes("other", first) == []

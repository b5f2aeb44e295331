"""Issue 26, session 42: the full run's process without the copies its peak was made of.

The groups stage's distinct sketches moved into the sketch array's own first rows (not a copy
beside the whole array), and key_pairs' partitions freed one by one as their pairs are made."""

from __future__ import annotations

import weakref

import numpy as np
import pytest

import dedup.index.minhash as minhash
import dedup.index.pairs as pairs_module
from dedup.index.keys import key_sort
from dedup.index.pairs import compacted, distinct_rows


def _table(keys_in_order: bool, rows: int = 500) -> tuple[list[str], np.ndarray]:
    """Rows with copies of earlier rows planted (the distinct ones fewer), keys in or out of key order."""
    rng = np.random.default_rng(7)
    sk = rng.integers(0, 1 << 63, size=(rows, 5), dtype=np.uint64)
    sk[[3, 50, 51, 300, 499]] = sk[[1, 2, 2, 100, 0]]
    keys = [str(k) for k in range(rows)]
    if not keys_in_order:
        keys = [keys[i] for i in rng.permutation(rows)]
    return keys, sk


@pytest.mark.parametrize("in_order", [True, False])
@pytest.mark.parametrize("chunk", [1, 7, 1 << 14])
def test_in_place_distinct_rows_are_the_copied_ones(monkeypatch, in_order, chunk):
    monkeypatch.setattr(pairs_module, "COMPACT_CHUNK", chunk)
    keys, sk = _table(in_order)
    assert (sorted(keys, key=key_sort) == keys) == in_order
    want = distinct_rows(keys, sk.copy())
    given = sk.copy()
    got = distinct_rows(keys, given, in_place=True)
    assert len(want[1]) == len(keys) - 5
    assert all(np.array_equal(a, b) for a, b in zip(got, want))
    # rows read in key order: the distinct rows are the array's own first rows, no copy beside it
    assert np.shares_memory(got[1], given) == in_order
    assert got[1].flags.c_contiguous


def test_compacted_moves_rows_upward_and_refuses_what_it_cannot():
    t = np.arange(40, dtype=np.uint64).reshape(10, 4)
    rep = np.array([0, 2, 3, 7, 9])
    want = t[rep].copy()
    out = compacted(t, rep)
    assert out is not None and np.array_equal(out, want) and np.shares_memory(out, t)
    assert compacted(np.arange(40, dtype=np.uint64).reshape(10, 4), np.array([2, 1])) is None  # not rising
    assert compacted(np.arange(40, dtype=np.uint64).reshape(4, 10).T, np.array([0, 1])) is None  # not C-contiguous
    frozen = np.arange(8, dtype=np.uint64).reshape(4, 2)
    frozen.flags.writeable = False
    assert compacted(frozen, np.array([0, 3])) is None


def test_key_pairs_holds_one_columns_partitions_and_frees_each_after_its_pairs(monkeypatch):
    """While a partition's pairs are made, only it and the rest of its column's are alive (every
    column's partitions were made first and held to the end)."""
    made = minhash._partitions
    refs: list[weakref.ref] = []
    alive_at: list[int] = []

    def partitions(*a):
        out = made(*a)
        refs.extend(weakref.ref(p) for p in out)
        return out

    def keep(i, j):
        alive_at.append(sum(r() is not None for r in refs))
        return np.ones(len(i), bool)

    monkeypatch.setattr(minhash, "PART_ENTRIES", 64)
    keys = np.random.default_rng(3).integers(1, 40, size=(2000, 3), dtype=np.uint64)
    want_i, want_j = minhash.key_pairs(keys)
    monkeypatch.setattr(minhash, "_partitions", partitions)
    i, j = minhash.key_pairs(keys, keep=keep)
    assert np.array_equal(i, want_i) and np.array_equal(j, want_j)
    per_column = 1 << max(0, (2000 // 64).bit_length() - 1)
    assert len(refs) == 3 * per_column and len(alive_at) > 2 * per_column
    assert max(alive_at) <= per_column and min(alive_at) <= 2  # freed as they go, within a column too


@pytest.mark.parametrize("chunk", [1, 5, 1 << 18])
def test_joined_codes_are_each_once_in_order_and_the_parts_given_up(monkeypatch, chunk):
    monkeypatch.setattr(minhash, "SPLIT_CHUNK", chunk)
    rng = np.random.default_rng(2)
    codes = [rng.integers(0, 60, size=n) for n in (40, 0, 75, 1)]
    want = np.unique(np.concatenate(codes))
    got = minhash._joined_once(codes)
    assert codes == [] and got.dtype == np.int64 and np.array_equal(got, want)
    assert len(minhash._joined_once([np.empty(0, np.int64)])) == 0


def test_may_verify_asked_in_chunks_is_asked_whole(monkeypatch):
    """The search's screen asked ASK_PAIRS pairs at a time keeps what it kept asked whole, and never
    gathers more than a chunk's rows at once."""
    import yaml

    import dedup.index.triples as triples
    from dedup.config import parse_config
    from dedup.demo import DEMO_CONFIG
    from dedup.demo.generator import generate_petitions
    from dedup.runs.parallel import featurize_rows
    from dedup.runs.recipe import Recipe

    recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="test"))
    keys, feats, _ = featurize_rows(recipe.featurizer, [(str(r["id"]), r) for r in generate_petitions(400, seed=13).rows])
    recipe = recipe.learn_content(feats)
    sig = recipe.signatures(recipe.sketch(feats))
    may = recipe.method.may_verify(sig)
    i, j = np.triu_indices(len(sig), 1)
    whole = may(i, j)
    assert 0 < whole.sum() < len(i)
    taken: list[int] = []
    screen = may.verifier.screen
    monkeypatch.setattr(triples, "ASK_PAIRS", 1000)
    monkeypatch.setattr(may, "verifier", type("V", (), {"__getattr__": lambda s, n: getattr(may.__dict__["_v"], n),
                                                        "screen": lambda s, a, b: taken.append(len(a)) or screen(a, b)})())
    may.__dict__["_v"] = recipe.method.verifier
    assert np.array_equal(may(i, j), whole) and max(taken) == 1000

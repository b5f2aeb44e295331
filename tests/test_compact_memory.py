"""Issue 26 (session 37): the pieces of a full run that were cut a chunk at a time to hold less
memory give what the whole-array forms gave: candidate pairs and their distances, the block
names' ranks and the store's write order, the anchored entries' places, and a first batch held
back until a second one shows that a pool of text workers is worth starting."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import dedup.index.minhash as minhash
import dedup.index.triples as triples
import dedup.store.entries as entries_module
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.index.anchors import ANCHORLESS
from dedup.index.minhash import distances, key_pairs
from dedup.index.names import KeyNames
from dedup.runs.parallel import Featurizing, featurize_rows
from dedup.runs.recipe import Recipe
from dedup.store.entries import PackedEntries
from test_anchors import _anchored_pairs


def _keys(rows: int, cols: int, values: int, seed: int) -> np.ndarray:
    """Keys drawn from few values, so buckets of many sizes (0: no key)."""
    return np.random.default_rng(seed).integers(0, values, size=(rows, cols)).astype(np.uint64)


@pytest.mark.parametrize("anchors", [None, 3])
@pytest.mark.parametrize("chunk", [1, 7, 1 << 18])
def test_key_pairs_split_a_chunk_at_a_time_are_every_pair_once_in_order(monkeypatch, anchors, chunk):
    monkeypatch.setattr(minhash, "SPLIT_CHUNK", chunk)
    keys = _keys(300, 4, 40, seed=chunk)
    i, j = key_pairs(keys, anchors)
    assert i.dtype == j.dtype == np.int64
    assert list(zip(i.tolist(), j.tolist())) == sorted(_anchored_pairs(keys, anchors or len(keys)))


@pytest.mark.parametrize("chunk", [1, 5, 1 << 18])
def test_distances_a_chunk_at_a_time_are_the_whole_arrays_hamming_distances(monkeypatch, chunk):
    monkeypatch.setattr(minhash, "SPLIT_CHUNK", chunk)
    rng = np.random.default_rng(3)
    fps = rng.integers(0, 1 << 63, size=50, dtype=np.int64).astype(np.uint64) * np.uint64(3)
    i, j = rng.integers(0, 50, size=123), rng.integers(0, 50, size=123)
    got = distances(fps, i, j)
    assert got.dtype == np.int64
    assert got.tolist() == [bin(int(fps[a]) ^ int(fps[b])).count("1") for a, b in zip(i, j)]
    assert distances(fps, i[:0], j[:0]).tolist() == []


@pytest.mark.parametrize("slice_", [1, 2, 13, 1 << 16])
def test_name_ranks_and_the_write_order_a_slice_at_a_time_are_the_sorted_ones(monkeypatch, slice_):
    monkeypatch.setattr(entries_module, "SLICE", slice_)
    rng = np.random.default_rng(slice_)
    pool = [f"b{rng.integers(0, 3)}:{rng.integers(0, 40):016x}" + ("+" if rng.random() < 0.3 else "") for _ in range(90)]
    names = np.array([n.encode() for n in pool], dtype="S")
    ranks = entries_module._name_ranks(names)
    distinct = sorted(set(pool))
    assert ranks.tolist() == [distinct.index(n) for n in pool]
    keys = [str(k) for k in rng.permutation(60).tolist()]
    name_at, row_at = rng.integers(0, len(pool), size=200), rng.integers(0, len(keys), size=200)
    packed = PackedEntries(names, name_at, row_at, keys, np.arange(len(keys), dtype=np.uint64))
    by_key = [(pool[n], keys[r]) for n, r in zip(name_at.tolist(), row_at.tolist())]
    assert [(pool[name_at[p]], keys[row_at[p]]) for p in packed._order(True).tolist()] == sorted(by_key)
    given = sorted(range(200), key=lambda p: (pool[name_at[p]], int(row_at[p]), p))
    assert packed._order(False).tolist() == given  # each block's entries in the order given, ties by place


def test_the_anchored_entries_are_the_whole_block_names_of_each_row(tmp_path):
    """The packed entries (int32 places) name each row's blocks as block_names does, a copy of an
    earlier row anchorless under every name."""
    raw = yaml.safe_load(DEMO_CONFIG)
    recipe = Recipe.of(parse_config(raw, origin="test"))
    table = generate_petitions(400, seed=11)
    rows = [(str(r["id"]), r) for r in table.rows]
    keys, feats, _ = featurize_rows(recipe.featurizer, rows)
    recipe = recipe.learn_content(feats)
    sketches = recipe.sketch(feats)
    sketches[7] = sketches[3]  # a copy of an earlier row (in key order)
    packed = recipe.packed_entries(keys, sketches)
    got = packed.whole()
    assert packed.name_at.dtype == np.int32 and isinstance(packed.names, KeyNames)  # the names held as their parts
    per_key: dict[str, list[str]] = {}
    for n, k in zip(got.names, got.keys):
        per_key.setdefault(k, []).append(n)
    plain = recipe.block_names(sketches)
    order = sorted(range(len(keys)), key=lambda r: (len(keys[r]), keys[r]))
    assert per_key[keys[7]] == [n.rstrip(ANCHORLESS) + ANCHORLESS for n in plain[3]]
    for r in order:
        if r != 7:
            assert [n.rstrip(ANCHORLESS) for n in per_key[keys[r]]] == [n.rstrip(ANCHORLESS) for n in plain[r]]


def _demo_batches(sizes: list[int]):
    recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="test"))
    table = generate_petitions(sum(sizes), seed=2)
    rows = [(str(r["id"]), r) for r in table.rows]
    at = np.cumsum([0] + sizes).tolist()
    return recipe.featurizer, [rows[a:b] for a, b in zip(at, at[1:])]


def _run(featurizing: Featurizing, batches) -> list:
    out = []
    for b in batches:
        out += list(featurizing.submit(b, len(b)))
    return out + list(featurizing.drain())


def test_one_batch_is_featurised_here_without_starting_a_pool():
    featurizer, batches = _demo_batches([40])
    with Featurizing(featurizer, 2) as featurizing:
        got = _run(featurizing, batches)
        assert featurizing.pool is None
    assert [(keys, n) for (keys, _f, _s), n in got] == [(featurize_rows(featurizer, batches[0])[0], 40)]


def test_the_first_batch_held_back_goes_to_the_pool_first_and_comes_back_first():
    featurizer, batches = _demo_batches([30, 20, 25, 10, 5, 30])
    with Featurizing(featurizer, 2) as featurizing:
        got = _run(featurizing, batches)
        assert featurizing.pool is not None
    want = [featurize_rows(featurizer, b) for b in batches]
    assert [n for _out, n in got] == [len(b) for b in batches]
    for ((keys, feats, _s), _n), (keys_w, feats_w, _sw) in zip(got, want):
        assert keys == keys_w
        assert feats.hashes.tobytes() == feats_w.hashes.tobytes()


@pytest.mark.parametrize("rows_at_a_time", [1, 3, 1 << 14])
def test_triple_codes_a_chunk_of_rows_at_a_time_are_the_whole_arrays(monkeypatch, rows_at_a_time):
    values = np.random.default_rng(rows_at_a_time).integers(0, 1 << 32, size=(20, 64), dtype=np.uint64)
    v = values[:, :63].reshape(20, 21, 3)
    mix = triples._MIX
    with np.errstate(over="ignore"):
        want = ((v[:, :, 0] * mix[0] + v[:, :, 1] * mix[1] + v[:, :, 2] * mix[2]) >> np.uint64(48)).astype(np.uint16)
    monkeypatch.setattr(triples, "CODE_ROWS", rows_at_a_time)
    got = triples.triple_codes(values)
    assert got.dtype == np.uint16 and got.tobytes() == want.tobytes()
    assert triples.triple_codes(values[:0]).shape == (0, 21)

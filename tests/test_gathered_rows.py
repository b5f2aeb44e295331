"""Issue 26 (session 38): a full run keeps one copy of its sketches, the distinct ones (made
without a key-order copy of all rows), and reads the rows' sketches from them where needed
(dedup.store.gathered.GatheredRows). Each way the run and the stores read them gives what the
whole (rows, words) array gave: rows, columns, the store's blobs, the fingerprints and sketch
words of the snapshot, its block entries, the groups; distinct_rows gives what it gave before."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import dedup.index.pairs as pairs_module
import dedup.store.model as store_model
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.errors import StoreError
from dedup.index.keys import key_sort
from dedup.index.pairs import distinct_rows
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe, extra_words, fingerprints_of
from dedup.store.gathered import GatheredRows
from dedup.store.model import checked_sketches, sketch_blobs


@pytest.fixture(scope="module")
def demo():
    """300 demo rows' keys and sketches, out of key order, with copies of earlier rows planted
    (so the distinct sketches are fewer than the rows and in another order)."""
    recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="test"))
    table = generate_petitions(300, seed=13)
    rows = [(str(r["id"]), r) for r in table.rows]
    rows = [rows[i] for i in np.random.default_rng(4).permutation(len(rows))]
    keys, feats, _ = featurize_rows(recipe.featurizer, rows)
    recipe = recipe.learn_content(feats)
    sketches = recipe.sketch(feats)
    sketches[[5, 9, 40, 41]] = sketches[[2, 2, 100, 7]]
    return recipe, keys, sketches


def _gathered(keys, sketches) -> tuple[GatheredRows, tuple]:
    distinct = distinct_rows(keys, sketches)
    assert len(distinct[1]) < len(keys)  # the copies: the distinct sketches are fewer
    return GatheredRows(distinct[1], distinct[3]), distinct


def test_gathered_rows_are_the_rows_sketches_by_every_read(demo):
    _, keys, sk = demo
    g, _ = _gathered(keys, sk)
    assert g.shape == sk.shape and len(g) == len(sk) and g.size == sk.size and g.dtype == sk.dtype
    assert np.asarray(g).tobytes() == sk.tobytes()
    assert np.asarray(g, dtype=np.uint64).dtype == np.uint64
    for lo, hi in [(0, 1), (3, 70), (250, 400)]:
        assert g[lo:hi].tobytes() == sk[lo:hi].tobytes()
    pick = np.array([40, 2, 2, len(sk) - 1, 0])
    assert g[pick].tobytes() == sk[pick].tobytes()
    assert g[:, 0].tobytes() == np.ascontiguousarray(sk[:, 0]).tobytes()
    assert g[pick, 1:].tobytes() == np.ascontiguousarray(sk[pick, 1:]).tobytes()
    assert np.asarray(g.columns(slice(1, None))).tobytes() == np.ascontiguousarray(sk[:, 1:]).tobytes()


@pytest.mark.parametrize("blob_rows", [1, 7, 4096])
def test_the_store_writes_the_same_blobs_from_gathered_rows(demo, monkeypatch, blob_rows):
    monkeypatch.setattr(store_model, "BLOB_ROWS", blob_rows)
    _, keys, sk = demo
    g, _ = _gathered(keys, sk)
    words = extra_words(g, copy=False)
    assert isinstance(words, GatheredRows)  # not gathered yet: the store reads it a slice at a time
    checked = checked_sketches("t", len(keys), words)
    assert checked is words
    assert list(sketch_blobs(checked, len(keys))) == list(sketch_blobs(checked_sketches("t", len(keys), sk[:, 1:]), len(keys)))
    assert fingerprints_of(g, len(keys)).tobytes() == fingerprints_of(sk, len(keys)).tobytes()
    with pytest.raises(StoreError, match="sketches of shape"):
        checked_sketches("t", len(keys) + 1, words)
    assert checked_sketches("t", len(keys), g.columns(slice(0, 0))) is None  # no words: nothing to store


def test_groups_and_block_entries_from_gathered_rows_are_the_arrays(demo):
    recipe, keys, sk = demo
    g, distinct = _gathered(keys, sk)
    whole = recipe.groups(keys, sk, distinct=distinct)
    got = recipe.groups(keys, g, distinct=distinct)
    assert [(x.id, x.keys, x.pairs) for x in got] == [(x.id, x.keys, x.pairs) for x in whole]
    assert any(len(x.keys) > 1 for x in whole)
    a, b = recipe.packed_entries(keys, g, distinct=distinct).whole(), recipe.packed_entries(keys, sk).whole()
    assert (a.names, a.keys, list(a.fingerprints)) == (b.names, b.keys, list(b.fingerprints))


def _distinct_rows_before(keys, sketches):
    """distinct_rows as session 37 left it, np.unique for its hashing: the rows in key order
    copied, their distinct rows taken, then ordered by first place (two more copies)."""
    order = sorted(range(len(keys)), key=lambda r: key_sort(keys[r]))
    uniq, first_pos, inverse = np.unique(np.take(sketches, order, axis=0), axis=0, return_index=True, return_inverse=True)
    by_key = np.argsort(first_pos, kind="stable")
    rank = np.empty_like(by_key)
    rank[by_key] = np.arange(len(by_key))
    of_row = np.empty(len(keys), dtype=np.int64)
    of_row[order] = rank[inverse.reshape(-1)]
    return order, uniq[by_key], np.asarray(order)[first_pos[by_key]], of_row


@pytest.mark.parametrize("collide", [False, True])
def test_distinct_rows_without_the_key_order_copy_are_the_old_ones(demo, monkeypatch, collide):
    """The one-copy distinct_rows, by hash and (every hash colliding) by its np.unique fallback."""
    _, keys, sk = demo
    if collide:
        monkeypatch.setattr(pairs_module, "splitmix64", lambda x: np.zeros_like(x))
    got, old = distinct_rows(keys, sk), _distinct_rows_before(keys, sk)
    assert got[0].dtype == np.int64 and got[0].tolist() == old[0]  # the key order, as an array since session 40
    assert all(np.array_equal(a, b) for a, b in zip(got[1:], old[1:]))
    assert got[1].dtype == sk.dtype and got[1].flags.c_contiguous
    empty = distinct_rows([], sk[:0])
    assert empty[1].shape == (0, sk.shape[1]) and len(empty[2]) == len(empty[3]) == 0

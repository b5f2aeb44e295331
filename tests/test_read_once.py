"""Issue 26 (session 45): the store writer lets the distinct sketches go once the rows are written
(a 200k run's writer held 72 MB of them through the block entries' write), and the candidates'
search makes one key column at a time instead of holding all of a run's band keys, and its screen
reads the MinHash values' words where they lie instead of a copy of all rows' values.

A GatheredRows marked ``once`` is released by a SQL store after it wrote the rows, and what is
stored is what a plain one stores, on every store; ``write_rows`` takes what was sent out of its
list; a key column made alone is the column of the keys made whole, and the search over columns
made one at a time finds the pairs of ``key_pairs`` over the whole keys; the screen (MayVerify)
made from a view of the values' words is the one made from a copy of the values."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from mongo_fixtures import mongo_live_url  # noqa: F401  (fixture)
from test_store_contract import snapshot, start, store, store_opener  # noqa: F401  (fixtures: every store)

import dedup.index.band_columns as band_columns
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.index.bands import BandScheme
from dedup.index.minhash import column_pairs, key_pairs
from dedup.index.pairs import distinct_rows
from dedup.runs.full import write_rows
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe
from dedup.runs.stages import Rows
from dedup.store.gathered import GatheredRows


def test_rows_read_once_are_let_go_after_the_store_wrote_them_and_stored_alike(store):  # noqa: F811
    keys = [str(i) for i in range(1, 7)]
    table = np.arange(3 * 4, dtype=np.uint64).reshape(3, 4) * np.uint64(0x9E3779B97F4A7C15)
    at = np.array([2, 0, 1, 1, 0, 2])
    once = GatheredRows(table, at, once=True)
    snap = snapshot(start(store), sketches=None)
    snap.sketches = once
    store.replace_table(snap)
    if not type(store).__name__.startswith("Mongo"):  # the SQL stores write the rows first, then the blocks
        assert once.table.shape == (0, 4) and len(once.at) == 0 and once.shape == (6, 4)
    stored = store.sketches("petitions", keys)
    assert [stored[k] for k in keys] == [tuple(int(v) for v in table[a]) for a in at]
    plain = GatheredRows(table, at)
    plain.release()  # not read once: kept
    assert plain.table is table


def test_write_rows_takes_what_was_sent_out_of_its_list():
    recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="test"))
    rows = [(str(r["id"]), r) for r in generate_petitions(60, seed=3).rows]
    keys, feats, _ = featurize_rows(recipe.featurizer, rows)
    recipe = recipe.learn_content(feats)
    distinct = distinct_rows(keys, recipe.sketch(feats))
    written = []

    class Into:
        def replace_table(self, snap, later):
            written.append((snap, later))

    sent = [(snapshot(1, keys=[], fps=[]), recipe, Rows(keys=keys, features=feats, skipped=[], rows_read=len(keys), watermark=None), distinct, None)]
    write_rows(Into(), sent, dict)
    assert sent == []  # the list held the only reference the child kept
    snap = written[0][0]
    assert isinstance(snap.sketches, GatheredRows) and snap.sketches.once
    assert np.asarray(snap.sketches).tobytes() == np.ascontiguousarray(np.asarray(distinct[1])[distinct[3]][:, 1:]).tobytes()


SCHEMES = [BandScheme(identity=3), BandScheme(identity=2, r=3), BandScheme(identity=0, r=5),
           BandScheme(identity=1, perms=60, long_identity=False), BandScheme(identity=3, r=3, anchors=None)]


def _signatures(scheme: BandScheme, n: int, seed: int) -> np.ndarray:
    """Signatures with rows sharing band values and identity words (so buckets hold several rows),
    some without content."""
    rng = np.random.default_rng(seed)
    width = 1 + scheme.identity + scheme.perms // 2 + 2
    pool = rng.integers(0, 1 << 63, size=(max(n // 4, 1), width), dtype=np.uint64)
    sig = pool[rng.integers(0, len(pool), size=n)]
    noise = rng.random(sig.shape) < 0.3
    sig[noise] = rng.integers(0, 1 << 63, size=int(noise.sum()), dtype=np.uint64)
    sig[:, 0] = rng.integers(0, 200, size=n)
    sig[rng.random(n) < 0.1, 0] = 0
    return sig


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("chunk", [7, 1 << 13])
def test_a_key_column_made_alone_is_that_column_of_the_keys(scheme, chunk, monkeypatch):
    monkeypatch.setattr(band_columns, "KEY_CHUNK", chunk)
    sig = _signatures(scheme, 500, 1)
    keys = scheme.keys(sig)
    assert keys.shape[1] == scheme.bands + len(scheme.pairs_of_identity)
    for c in range(keys.shape[1]):
        assert band_columns.key_column(scheme, sig, c).tobytes() == np.ascontiguousarray(keys[:, c]).tobytes()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_search_over_columns_made_one_at_a_time_is_key_pairs_over_all(scheme):
    sig = _signatures(scheme, 3000, 2)
    keys = scheme.keys(sig)
    whole = key_pairs(keys, scheme.anchors)
    assert len(whole[0]) > 100
    got = scheme.near(sig)
    assert got[0].tobytes() == whole[0].tobytes() and got[1].tobytes() == whole[1].tobytes()

    def keep(i, j):
        return (i + j) % 3 != 0
    got, want = scheme.near(sig, keep=keep), key_pairs(keys, scheme.anchors, keep=keep)
    assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
    asked = []
    i, j = column_pairs(lambda c: asked.append(c) or keys[:, c], len(keys), keys.shape[1], scheme.anchors)
    assert asked == list(range(keys.shape[1]))  # each column asked for once
    assert i.tobytes() == whole[0].tobytes() and j.tobytes() == whole[1].tobytes()


@pytest.mark.parametrize("scheme", SCHEMES[:2])
def test_the_screen_made_from_the_values_words_as_a_view_is_the_one_from_the_values(scheme, monkeypatch):
    import dedup.index.triples as triples
    from dedup.index.band_columns import value_words
    from dedup.index.bands import TextVerifier
    monkeypatch.setattr(triples, "CODE_ROWS", 7)
    sig = _signatures(scheme, 400, 3)
    words = value_words(scheme, sig)
    assert words.base is not None and np.shares_memory(words, sig)  # a view, not a copy of every row
    assert triples.triple_codes(words, paired=True).tobytes() == triples.triple_codes(scheme.values(sig)).tobytes()
    assert triples.triple_codes(scheme.values(sig).astype(np.uint64)).tobytes() == triples.triple_codes(scheme.values(sig)).tobytes()
    v = TextVerifier(scheme.identity, perms=scheme.perms)
    i, j = np.triu_indices(60, 1)
    a, b = triples.MayVerify(v, words, sig, paired=True), triples.MayVerify(v, scheme.values(sig), sig)
    assert a.need == b.need and (a.small is None) == (b.small is None)
    assert (a(i, j) == b(i, j)).all()

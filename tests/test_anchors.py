"""Anchored buckets (dedup.index.anchors): a key's rows are compared with its first A rows only,
a hot key costs A pairs a row, not a pair per row."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dedup.index.anchors import ANCHORLESS, anchor_mask
from dedup.index import minhash
from dedup.index.minhash import key_pairs
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from helpers import config_for
from test_incremental import FIELDS


def _anchored_pairs(keys, anchors, offsets=None):
    """Reference: (i, j), i < j sharing a non-zero key in a column where i is among the first
    ``anchors`` rows holding it, counting ``offsets`` earlier ones."""
    out = set()
    for c in range(keys.shape[1]):
        holders: dict[int, list[int]] = {}
        for r, k in enumerate(keys[:, c].tolist()):
            if k:
                holders.setdefault(k, []).append(r)
        for rows in holders.values():
            before = 0 if offsets is None else int(offsets[rows[0], c])
            for p, a in enumerate(rows):
                if p + before < anchors:
                    out.update((a, b) for b in rows[p + 1:])
    return out


@pytest.mark.parametrize("seed, rows, m, values, anchors", [
    (1, 400, 3, 3, 5),  # buckets of a third of the rows, five anchors each
    (2, 300, 16, 40, 1),
    (3, 200, 4, 2**64, 2),  # random keys: hardly a bucket, so all pairs
    (4, 250, 2, 7, 400),  # more anchors than rows: every pair
])
def test_key_pairs_with_anchors_pairs_each_key_with_its_first_rows(seed, rows, m, values, anchors):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, values, size=(rows, m), dtype=np.uint64)
    offsets = rng.integers(0, anchors + 2, size=(rows, m))
    offsets = offsets[np.argmax(keys[:, None, :] == keys[None, :, :], axis=0), np.arange(m)]  # one a key
    for off in (None, offsets):
        i, j = key_pairs(keys, anchors, off)
        got = list(zip(i.tolist(), j.tolist()))
        assert got == sorted(set(got))
        assert set(got) == _anchored_pairs(keys, anchors, off)
        mask = anchor_mask(keys, anchors, off)
        lower = {a for a, _ in got}
        assert lower <= {r for r in range(rows) if mask[r].any()}  # only anchors pair with later rows
    assert set(zip(*map(np.ndarray.tolist, key_pairs(keys)))) == _anchored_pairs(keys, rows + 1)


@pytest.mark.parametrize("chunk", [1, 7, 300])
def test_key_pairs_made_a_few_pairs_at_a_time_are_the_pairs_made_at_once(chunk, monkeypatch):
    """s47: a partition's pairs are made and screened PAIR_CHUNK at a time (bands of 2 values make many)."""
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 3, size=(400, 3), dtype=np.uint64)
    whole = key_pairs(keys, 5, keep=lambda i, j: (i + j) % 3 != 0)
    monkeypatch.setattr(minhash, "PAIR_CHUNK", chunk)
    i, j = key_pairs(keys, 5, keep=lambda i, j: (i + j) % 3 != 0)
    assert np.array_equal(i, whole[0]) and np.array_equal(j, whole[1]) and len(i) > 100
    assert set(zip(i.tolist(), j.tolist())) == {(a, b) for a, b in _anchored_pairs(keys, 5) if (a + b) % 3}


def test_anchor_mask_marks_the_first_rows_of_each_key_after_its_offset():
    keys = np.array([[5, 0], [5, 7], [9, 7], [5, 7], [5, 7]], dtype=np.uint64)
    assert anchor_mask(keys, 2).tolist() == [[True, False], [True, True], [True, True], [False, False],
                                             [False, False]]
    offsets = np.array([[1, 0], [1, 2], [0, 2], [1, 2], [1, 2]])
    assert anchor_mask(keys, 2, offsets).tolist() == [[True, False], [False, False], [True, False],
                                                      [False, False], [False, False]]


BOILERPLATE = "关于小区物业长期不作为、乱收费以及公共设施损坏无人维修等问题的反映，恳请有关部门调查处理"


def _make_hot(rows: list[dict], seed: int) -> None:
    """Give these rows one long shared sentence, each with a few random characters of its own:
    most of their band keys are one hot key."""
    rng = random.Random(seed)
    letters = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"
    for r in rows:
        r["title"], r["content"] = "物业问题", BOILERPLATE + "".join(rng.choice(letters) for _ in range(6))


def test_a_hot_key_costs_anchors_pairs_a_row_and_mass_copies_stay_one_group(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    rows = generate_petitions(600, seed=3).rows
    _make_hot(rows, seed=3)
    for r in rows[:150]:  # a mass petition: 150 copies of one text, each from another person
        r["content"] = BOILERPLATE + "甲乙丙丁戊己"
    write_sample_db(src, SampleTable(rows, {}))
    cfg = config_for(src, f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS, watermark="updated_at")
    recipe = Recipe.of(cfg)
    anchors = recipe.scheme.anchors
    assert anchors == 16  # the shipped default
    fz = recipe.featurizer
    sketches = recipe.sketch(fz.hashed([fz.described(r) for r in rows], rows))
    i, j, _ = recipe.near(sketches)
    keys = recipe.scheme.keys(recipe.signatures(sketches))
    biggest = max(np.unique(col, return_counts=True)[1].max() for col in keys.T)
    assert biggest > 10 * anchors  # a hot key indeed
    assert len(i) <= anchors * len(rows) * keys.shape[1]  # not biggest**2 / 2
    result = run_full(cfg)
    mass = {str(r["id"]) for r in rows[:150]}
    assert any(mass <= set(g.keys) for g in result.groups)


def test_a_copy_of_a_stored_row_takes_no_anchor_place_from_the_new_rows_after_it(tmp_path):
    """Incremental filing: a bucket with one stored anchor (of 3) gets a copy of that stored row and two
    new rows. One full run counts the copy with its original (one distinct sketch), so the two new rows
    are the bucket's second and third anchors; the copy is filed anchorless (s41: it took the second
    place, and the last new row was filed anchorless where one full run makes it an anchor)."""
    cfg = config_for(f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS,
                     match={"anchors": 3, "common_share": 1.0})
    recipe = Recipe.of(cfg)
    rows = generate_petitions(1, seed=3).rows
    fz = recipe.featurizer
    s = recipe.sketch(fz.hashed([fz.described(r) for r in rows], rows))[0]
    sketches = np.array([s, s, s])  # the copy, then two new rows with the same keys (other fingerprints)
    sketches[1, 0] ^= np.uint64(1)
    sketches[2, 0] ^= np.uint64(2)
    names = recipe.block_names(s[None, :])[0]
    entries = recipe.block_entries(["10", "11", "12"], sketches, taken={n: 1 for n in names}, copies={"10"})
    filed = set(zip(entries.names, entries.keys))
    assert {(n, k) for n in names for k in ("11", "12")} <= filed  # both new rows are anchors
    assert {(n + ANCHORLESS, "10") for n in names} <= filed and not any(k == "10" and n in names for n, k in filed)

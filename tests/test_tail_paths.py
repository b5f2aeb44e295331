"""Issue 26's faster tail gives what the plain one gave: the verifier's screen drops only pairs the
verifier rejects, the screened verification keeps exactly the pairs the plain one keeps, and the
distinct rows found by hashing are np.unique's."""

from __future__ import annotations

import numpy as np
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import dedup.index.pairs as pairs_module
from dedup.config import parse_config
from dedup.config.model import MatchConfig
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.index.bands import TextVerifier
from dedup.index.pairs import distinct_rows, row_pairs, screened, verified
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe

IDENTITY = 3
SHIPPED = MatchConfig()
LENGTHS = (0, 10, 59, 60, 400, 70_000)  # none, short, the short bar's edge, long, past a 16-bit field


def _signatures(seed: int, rows: int, perms: int = 64) -> np.ndarray:
    """Rows made from a few base rows with some MinHash values redrawn (every similarity from 0 to 1,
    low 4 bits often equal by chance), identity words from small sets (often equal, sometimes 0)."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 1 << 32, size=(3, perms), dtype=np.uint64)
    values = base[rng.integers(0, 3, rows)]
    redrawn = rng.random((rows, perms)) < rng.random((rows, 1))
    values = np.where(redrawn, rng.integers(0, 1 << 32, size=(rows, perms), dtype=np.uint64), values)
    values = np.where(rng.random((rows, perms)) < 0.05, values & ~np.uint64(0xF) | np.uint64(3), values)
    ids = rng.integers(0, 3, size=(rows, IDENTITY)).astype(np.uint64) * np.uint64(0x10001_0000)  # low 16 bits 0
    head = np.column_stack([np.array(LENGTHS, np.uint64)[rng.integers(0, len(LENGTHS), rows)], ids])
    return np.hstack([head, values.astype(np.uint32).view(np.uint64)])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.75, 0.55]), st.sampled_from([64, 40]))
def test_the_screen_drops_only_pairs_the_verifier_rejects(seed, floor, perms):
    v = TextVerifier(IDENTITY, distinct_floor=floor, perms=perms)
    sig = _signatures(seed, 60, perms)
    i, j = np.triu_indices(len(sig), 1)
    keep = v(sig[i], sig[j])
    small = v.compact(sig)
    may = v.screen(small[i], small[j])
    assert not (keep & ~may).any()
    assert keep.any() and not may.all()  # both happen: the screen is a real filter
    assert np.array_equal(screened(v, v.screen, small, sig, i, j), keep)


def _with_numbers(sig: np.ndarray, seed: int) -> np.ndarray:
    """``sig`` with number words appended (dedup.text.numbers' layout: a count, then 16 sorted
    uint32 hashes two a word): each row names 4-6 tokens drawn from a pool of 8, so rows share all,
    some or few of their numbers."""
    rng = np.random.default_rng(seed)
    words = np.zeros((len(sig), 9), np.uint64)
    for r in range(len(sig)):
        tokens = np.sort(rng.choice(np.arange(1, 9, dtype=np.uint32), rng.integers(4, 7), replace=False))
        words[r, 0] = len(tokens)
        words[r, 1:] = np.pad(tokens, (0, 16 - len(tokens))).view(np.uint64)
    return np.hstack([sig, words])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([64, 40]))
def test_the_screen_keeps_what_rule_numbers_accepts_under_the_bars(seed, perms):
    sig = _with_numbers(_signatures(seed, 60, perms), seed)
    v = TextVerifier(IDENTITY, perms=perms, numbers_floor=0.45, numbers_against=0.5, numbers_sure=0.9,
                     numbers_at=1 + IDENTITY + perms // 2, numbers_brief_chars=SHIPPED.numbers_brief_chars,
                     numbers_brief_against=SHIPPED.numbers_brief_against)  # the shipped brief bar
    i, j = np.triu_indices(len(sig), 1)
    keep = v(sig[i], sig[j])
    small = v.compact(sig)
    assert not (keep & ~v.screen(small[i], small[j])).any()
    assert np.array_equal(screened(v, v.screen, small, sig, i, j), keep)


def test_a_short_bar_a_capped_length_cannot_tell_has_no_screen():
    assert TextVerifier(IDENTITY, short_chars=70_000).compact(_signatures(1, 4)) is None


def _np_unique(sketches, at):
    """What distinct_rows called before issue 26: np.unique of whole rows (in key order)."""
    _, first, inverse = np.unique(np.take(sketches, at, axis=0), axis=0, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _same(a, b) -> bool:
    return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b))


def _copies_table():
    """The demo recipe's sketches of 600 petitions, then identical copies of 150 of them and
    near-identical copies (a character added) of 150, under keys that sort among the others."""
    recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="test"))
    rows = [(str(r["id"] * 3), r) for r in generate_petitions(600, seed=11).rows]
    rows += [(str(int(k) + 1), dict(r)) for k, r in rows[:150]]
    rows += [(str(int(k) + 2), {**r, "content": (r["content"] or "") + "。"}) for k, r in rows[150:300]]
    keys, feats, _ = featurize_rows(recipe.featurizer, rows)
    return recipe, keys, np.ascontiguousarray(recipe.sketch(feats))


def test_distinct_rows_by_hash_are_np_uniques_even_when_every_hash_collides(monkeypatch):
    _, keys, sk = _copies_table()
    hashed = distinct_rows(keys, sk)
    assert len(hashed[1]) < len(keys) - 100  # the copies are there
    with monkeypatch.context() as m:
        m.setattr(pairs_module, "_unique_rows", _np_unique)
        plain = distinct_rows(keys, sk)
    assert _same(hashed, plain)
    monkeypatch.setattr(pairs_module, "splitmix64", lambda x: np.zeros_like(x))  # every hash collides
    assert _same(distinct_rows(keys, sk), plain)


def test_a_full_runs_pairs_are_the_plain_paths_on_a_table_of_copies():
    recipe, keys, sk = _copies_table()
    found = recipe.pairs(keys, sk)
    plain = row_pairs(keys, sk, recipe.near, verify=recipe.verify)
    assert found == plain and len(found) > 300
    uniq = distinct_rows(keys, sk)[1]
    i, j, _ = recipe.near(uniq)
    assert np.array_equal(recipe.method.verify_pairs(uniq, i, j), verified(recipe.verify, uniq, i, j))
    assert recipe.groups(keys, sk) == recipe.grouped(keys, sk[:, 0], plain, check=recipe.centre_check(
        lambda ks: sk[[keys.index(k) for k in ks]]))

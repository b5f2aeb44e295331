"""Issue 26: the search leaves out, inside each bucket, only pairs the verifier rejects
(dedup.index.triples.MayVerify), so a full run keeps exactly the pairs it kept before."""

from __future__ import annotations

import tracemalloc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tail_paths import IDENTITY, _copies_table, _signatures, _with_numbers

from dedup.index.bands import TextVerifier
from dedup.index.pairs import distinct_rows, verified
from dedup.index.triples import MayVerify, triple_codes


def _values(sig: np.ndarray, perms: int) -> np.ndarray:
    return np.ascontiguousarray(sig[:, 1 + IDENTITY:1 + IDENTITY + perms // 2]).view(np.uint32)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.75, 0.55]), st.sampled_from([64, 40]), st.booleans())
def test_may_verify_is_never_false_for_a_pair_the_verifier_keeps(seed, floor, perms, numbers):
    sig = _signatures(seed, 80, perms)
    if numbers:
        sig = _with_numbers(sig, seed)
    v = TextVerifier(IDENTITY, distinct_floor=floor, perms=perms, numbers_floor=0.45 if numbers else 0.75,
                     numbers_at=1 + IDENTITY + perms // 2 if numbers else 0)
    i, j = np.triu_indices(len(sig), 1)
    keep = v(sig[i], sig[j])
    may = MayVerify(v, _values(sig, perms), sig)(i, j)
    assert not (keep & ~may).any()
    assert keep.any() and not may.all()


def _screen_passing_pair() -> tuple[np.ndarray, TextVerifier]:
    """Two rows alike in 40 of 64 values, spread so that no triple of them is whole, naming 4
    numbers each (1 shared), no identity field equal: past the screen, not verified."""
    rng = np.random.default_rng(3)
    base = rng.integers(1, 1 << 32, size=64, dtype=np.uint64)
    other = base.copy()
    other[np.arange(0, 63, 3)] = rng.integers(1, 1 << 32, size=21, dtype=np.uint64)  # one value of each triple
    other[63] = base[63] + np.uint64(1)
    sig = np.zeros((2, 1 + IDENTITY + 32 + 9), np.uint64)
    sig[:, 0] = 400
    sig[:, 1:1 + IDENTITY] = [[5, 6, 7], [8, 9, 10]]
    sig[0, 1 + IDENTITY:1 + IDENTITY + 32] = base.astype(np.uint32).view(np.uint64)
    sig[1, 1 + IDENTITY:1 + IDENTITY + 32] = other.astype(np.uint32).view(np.uint64)
    at = 1 + IDENTITY + 32
    sig[:, at] = 4
    sig[0, at + 1:at + 3] = np.array([1, 2, 3, 4], np.uint32).view(np.uint64)
    sig[1, at + 1:at + 3] = np.array([1, 5, 6, 7], np.uint32).view(np.uint64)
    return sig, TextVerifier(IDENTITY, numbers_floor=0.45, numbers_at=at)


def test_the_triples_alone_drop_pairs_the_screen_lets_through():
    """The pair passes the screen of rule numbers' lower bar but shares no triple, no identity
    field and too few numbers: only the triples tell that the 0.75 bar is out of reach."""
    sig, v = _screen_passing_pair()
    i, j = np.array([0]), np.array([1])
    small = v.compact(sig)
    assert v.screen(small[i], small[j]).all() and not v(sig[i], sig[j]).any()
    codes = triple_codes(_values(sig, 64))
    assert not (codes[0] == codes[1]).any()
    assert not MayVerify(v, _values(sig, 64), sig)(i, j).any()


def test_a_full_runs_search_drops_most_candidates_and_keeps_every_verified_pair():
    recipe, keys, sk = _copies_table()
    uniq = distinct_rows(keys, sk)[1]
    i, j, _ = recipe.near(uniq)
    fi, fj, _ = recipe.near(uniq, verifying=True)
    every, few = set(zip(i.tolist(), j.tolist())), set(zip(fi.tolist(), fj.tolist()))
    kept = verified(recipe.verify, uniq, i, j)
    assert few <= every and len(few) * 3 < len(every)
    assert set(zip(i[kept].tolist(), j[kept].tolist())) <= few and kept.sum() > 50


def test_asking_a_few_pairs_reads_their_rows_only_not_every_rows_words():
    """Issue 26 (growth-s42.md): the identity and number words are views of the signatures'
    columns, and ``np.take`` of such a view copied the whole view (every row) at each ask: with
    an ask or more per partition, and partitions growing with the rows, the search grew as rows
    squared. Asking for one pair must allocate about one pair's words, not the table's."""
    pair, v = _screen_passing_pair()
    sig = np.zeros((100_000, pair.shape[1]), np.uint64)  # the number words alone: 7.2 MB
    sig[:2] = pair
    may = MayVerify(v, _values(sig, 64), sig)
    i, j = np.array([0]), np.array([1])
    tracemalloc.start()
    try:
        assert not may(i, j).any()  # the triples and both gathers (identity, numbers) asked
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000, peak

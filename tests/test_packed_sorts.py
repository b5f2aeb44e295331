"""The faster pieces of a full run's learning and store write give what the slower ones gave:
the packed sort is the stable argsort, and the sorted merge of counts is np.unique's."""

from __future__ import annotations

import numpy as np
import pytest

from dedup.index.order import sorted_places
from dedup.text.rarity import merged_counts


@pytest.mark.parametrize("n, top", [(0, 1), (1, 0), (7, 3), (5000, 1), (5000, 3), (5000, 40), (5000, 1 << 20),
                                    (5000, 1 << 40), (5000, 1 << 62), (100_000, 10**9)])
def test_the_packed_sort_is_the_stable_argsort(n, top):
    code = np.random.default_rng(n + top % 1000).integers(0, top + 1, n, dtype=np.int64)
    assert np.array_equal(sorted_places(code.copy()), np.argsort(code, kind="stable"))
    got = sorted_places(code.copy(), np.int32)  # the store writer's index type
    assert got.dtype == np.int32 and np.array_equal(got, np.argsort(code, kind="stable"))


def reference(parts):
    """merged_counts as it was: np.unique's inverse and np.add.at."""
    uniq, inv = np.unique(np.concatenate([u for u, _c in parts]), return_inverse=True)
    counts = np.zeros(len(uniq), np.int64)
    np.add.at(counts, inv, np.concatenate([c for _u, c in parts]))
    return uniq, counts


def test_counts_merged_in_sorted_order_are_np_uniques():
    rng = np.random.default_rng(4)
    pool = rng.integers(1, 1 << 64, 5000, dtype=np.uint64, endpoint=False)
    parts = [np.unique(pool[rng.integers(0, 5000, m)], return_counts=True) for m in (3000, 0, 1, 4000)]
    got = merged_counts(parts)
    want = reference(parts)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]) and got[1].dtype == np.int64
    assert [a.tolist() for a in merged_counts([])] == [[], []]

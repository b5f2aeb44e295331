"""Rows -> pairs: candidates from the block search, kept by verification, identical rows collapsed.

The one function every run uses (full, incremental, eval), so they cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from .keys import key_sort
from .groups import Pair

VERIFY_CHUNK = 1 << 18  # candidate pairs verified together (their two sketches: about 150 MB at 37 words)


def distinct_rows(keys: list[str], sketches: np.ndarray) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """The rows' distinct sketches in the key order of the first row holding each.

    Returns (order, uniq, rep, of_row): the rows in key order, the distinct sketches, ``rep[u]``
    the lowest-key row with sketch u, ``of_row[r]`` the index in ``uniq`` of row r. Key order
    matters: a bucket's anchors (dedup.index.anchors) are its first rows in this order.
    """
    order = sorted(range(len(keys)), key=lambda r: key_sort(keys[r]))
    uniq, first_pos, inverse = np.unique(sketches[order], axis=0, return_index=True, return_inverse=True)
    by_key = np.argsort(first_pos, kind="stable")
    rank = np.empty_like(by_key)
    rank[by_key] = np.arange(len(by_key))
    of_row = np.empty(len(keys), dtype=np.int64)
    of_row[order] = rank[inverse.reshape(-1)]
    return order, uniq[by_key], np.asarray(order)[first_pos[by_key]], of_row


def verified(verify, sketches: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``verify`` (sketches a, b -> keep mask) of the pairs (sketches[i], sketches[j]), in chunks:
    the gathered sketches of all candidates at once can be GBs."""
    return np.concatenate([verify(sketches[i[lo:lo + VERIFY_CHUNK]], sketches[j[lo:lo + VERIFY_CHUNK]])
                           for lo in range(0, len(i), VERIFY_CHUNK)])


def row_pairs(keys: list[str], sketches: np.ndarray, near, verify=None, distinct=None) -> list[Pair]:
    """Pairs between rows, from ``near(distinct sketches) -> (i, j, dist)``.

    ``sketches`` is (rows, words) uint64 with the fingerprint as word 0, or a plain fingerprint
    array. Rows with identical sketches are linked to the first (lowest-key) row holding that
    sketch, not to each other, so m identical rows make m-1 pairs instead of m(m-1)/2; ``near``
    gets the distinct sketches in the key order of their first rows. With
    ``verify`` (dedup.verify: sketches a, b -> keep mask), a candidate pair is kept only where it says so.
    ``distinct``: ``distinct_rows(keys, sketches)`` when the caller has it already.
    """
    if len(keys) == 0:
        return []
    sk = np.asarray(sketches, dtype=np.uint64).reshape(len(keys), -1)
    order, uniq, rep, of_row = distinct or distinct_rows(keys, sk)
    rows = np.asarray(order)
    firsts = rep[of_row[rows]]
    copies = np.flatnonzero(firsts != rows)  # in key order
    out: list[Pair] = [Pair(keys[f], keys[r], 0) for f, r in zip(firsts[copies].tolist(), rows[copies].tolist())]
    i, j, dist = near(uniq)
    if verify is not None and len(i):
        keep = verified(verify, uniq, i, j)
        i, j, dist = i[keep], j[keep], dist[keep]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[rows] = np.arange(len(keys))  # each row's place in key order
    a, b = rep[i], rep[j]
    swap = rank[b] < rank[a]  # each pair lower key first
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    out += [Pair(keys[x], keys[y], d) for x, y, d in zip(a.tolist(), b.tolist(), np.asarray(dist).tolist())]
    return out

"""Rows -> pairs: candidates from the block search, kept by verification, identical rows collapsed.

The one function every run uses (full, incremental, eval), so they cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from .keys import key_sort
from .groups import Pair


def row_pairs(keys: list[str], sketches: np.ndarray, near, verify=None) -> list[Pair]:
    """Pairs between rows, from ``near(distinct sketches) -> (i, j, dist)``.

    ``sketches`` is (rows, words) uint64 with the fingerprint as word 0, or a plain fingerprint
    array. Rows with identical sketches are linked to the first (lowest-key) row holding that
    sketch, not to each other, so m identical rows make m-1 pairs instead of m(m-1)/2. With
    ``verify`` (dedup.verify: sketches a, b -> keep mask), a candidate pair is kept only where it says so.
    """
    if len(keys) == 0:
        return []
    sk = np.asarray(sketches, dtype=np.uint64).reshape(len(keys), -1)
    order = sorted(range(len(keys)), key=lambda r: key_sort(keys[r]))
    uniq, first_pos, inverse = np.unique(sk[order], axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    rep = np.asarray(order)[first_pos]  # row of the lowest key holding each distinct sketch
    out: list[Pair] = []
    for pos, u in enumerate(inverse):
        row = order[pos]
        if row != rep[u]:
            out.append(Pair(keys[rep[u]], keys[row], 0))
    i, j, dist = near(uniq)
    if verify is not None and len(i):
        keep = verify(uniq[i], uniq[j])
        i, j, dist = i[keep], j[keep], dist[keep]
    for a, b, d in zip(rep[i], rep[j], dist):
        ka, kb = keys[a], keys[b]
        if key_sort(kb) < key_sort(ka):
            ka, kb = kb, ka
        out.append(Pair(ka, kb, int(d)))
    return out

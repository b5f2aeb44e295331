"""Anchored buckets: which rows of a key's bucket the others are compared with.

Boilerplate makes hot keys: when a band's MinHash values all fall in a sentence that thousands of
petitions share, its bucket grows with the table, and comparing every pair in it costs s**2 / 2 in
a full run and s stored rows for each new row in an incremental one. So in each bucket only the
first A rows holding the key (the *anchors*, in key order) are compared with the rest: at most
A * s pairs, and a new row meets at most A stored rows a key. Rows that are really alike share
several bands and meet in a bucket of ordinary size, or through an anchor they are both like (a
mass petition: every copy verifies against the first ones, so its group holds together).

The store files an anchor's entry under the block name and every other row's under the name with
ANCHORLESS appended, so an incremental run reads only the anchors (at most A entries a block)
while every row stays filed in its blocks. New rows come after the stored ones, as they do in key
order when keys grow: then a full run and any sequence of incremental runs make the same pairs.
"""

from __future__ import annotations

import numpy as np

ANCHORLESS = "+"  # suffix of the block name under which a bucket's other rows are filed


def anchor_mask(keys: np.ndarray, anchors: int, offsets: np.ndarray | None = None) -> np.ndarray:
    """(rows, m) bool: whether row r is among the first ``anchors`` rows (by row number) holding
    its non-zero key ``keys[r, c]`` in column c, after ``offsets[r, c]`` anchors the key already has."""
    keys = np.asarray(keys, dtype=np.uint64)
    keys = keys.reshape(len(keys), -1) if keys.ndim != 2 else keys
    out = np.zeros(keys.shape, dtype=bool)
    for c in range(keys.shape[1]):
        rows = np.flatnonzero(keys[:, c])
        order = rows[np.argsort(keys[rows, c], kind="stable")]  # by key, then row number
        sorted_keys = keys[order, c]
        starts = np.flatnonzero(np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1])))
        lengths = np.diff(np.append(starts, len(order)))
        place = np.arange(len(order)) - np.repeat(starts, lengths)
        if offsets is not None:
            place = place + np.asarray(offsets)[order, c]
        out[order, c] = place < anchors
    return out

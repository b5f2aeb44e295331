"""Rows -> pairs: candidates from the block search, kept by verification, identical rows collapsed.

The one function every run uses (full, incremental, eval), so they cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from .keys import key_sort
from .minhash import splitmix64
from .groups import Pair

VERIFY_CHUNK = 1 << 18  # candidate pairs verified together (their two sketches: about 150 MB at 37 words)
SCREEN_CHUNK = 1 << 16  # candidate pairs screened together (their compact rows: about 5 MB at 5 words)
COMPACT_CHUNK = 1 << 14  # distinct rows moved together into the sketch array's own first rows


def distinct_rows(keys: list[str], sketches: np.ndarray,
                  in_place: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows' distinct sketches in the key order of the first row holding each.

    Returns (order, uniq, rep, of_row): the rows in key order (int64), the distinct sketches, ``rep[u]``
    the lowest-key row with sketch u, ``of_row[r]`` the index in ``uniq`` of row r. Key order
    matters: a bucket's anchors (dedup.index.anchors) are its first rows in this order. ``uniq``
    is the one copy made of the sketches (the rows in key order were one more, and ``uniq`` twice
    while ordered: a full run's peak, issue 26). ``in_place``: the caller gives ``sketches`` up,
    and ``uniq`` may be its first rows, moved there (``compacted``), instead of a copy beside it.
    """
    at = np.asarray(sorted(range(len(keys)), key=lambda r: key_sort(keys[r])), dtype=np.int64)  # the order, as an array (a list was 36 bytes a row)
    first_pos, inverse = _unique_rows(sketches, at)
    by_key = np.argsort(first_pos, kind="stable")
    rank = np.empty_like(by_key)
    rank[by_key] = np.arange(len(by_key))
    of_row = np.empty(len(keys), dtype=np.int64)
    of_row[at] = rank[inverse]
    rep = at[first_pos[by_key]]
    uniq = compacted(sketches, rep) if in_place else None
    return at, np.take(sketches, rep, axis=0) if uniq is None else uniq, rep, of_row


def compacted(table: np.ndarray, rep: np.ndarray) -> np.ndarray | None:
    """``table[rep]`` made in ``table``'s own first rows (a view of them; the rest of ``table`` is
    overwritten or left as it was), or None where it cannot be. Rows read in key order give a
    rising ``rep``: row u's source is then at u or after, so filling the rows upward, a chunk
    gathered before it is written, never overwrites a source still to be read. A full run's
    groups stage held the whole sketch array and the distinct copy at once, its process's peak
    (issue 26, bench/results/memory-s40.md); nothing else holds the array then."""
    if (not isinstance(table, np.ndarray) or table.ndim != 2 or not table.flags.c_contiguous
            or not table.flags.writeable or (len(rep) > 1 and not (rep[1:] > rep[:-1]).all())):
        return None
    for lo in range(0, len(rep), COMPACT_CHUNK):
        part = rep[lo:lo + COMPACT_CHUNK]
        if part[0] != lo or part[-1] != lo + len(part) - 1:  # rows already in place skipped
            table[lo:lo + len(part)] = np.take(table, part, axis=0)
    return table[:len(rep)]


def _unique_rows(sketches: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first place, inverse) of ``np.unique(sketches[at], axis=0, return_index=True,
    return_inverse=True)`` up to the order of the distinct rows (the caller orders them by first
    place), without making ``sketches[at]``: rows grouped by a 64-bit hash of their words and one
    sort of the hashes, each row then checked equal to its group's first (np.unique of whole rows
    sorted 300-byte records: 3.3 s of CPU at 400,000 rows, this 0.3 s; issue 26). A hash shared by
    different rows, never yet seen, falls back to np.unique."""
    if not len(at):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    words = sketches.reshape(len(sketches), -1)
    h = np.zeros(len(sketches), np.uint64)
    for c in range(words.shape[1]):
        h = splitmix64(h ^ words[:, c])
    by = np.argsort(h[at], kind="stable")  # equal hashes in place order: a run's first is its lowest place
    hs = h[at[by]]
    start = np.concatenate(([True], hs[1:] != hs[:-1]))
    run = np.cumsum(start) - 1
    first = by[start]
    rest = ~start
    if not (np.take(words, at[by[rest]], axis=0) == np.take(words, at[first[run[rest]]], axis=0)).all():
        _, first_pos, inverse = np.unique(np.take(words, at, axis=0), axis=0, return_index=True, return_inverse=True)
        return first_pos, inverse.reshape(-1)
    inverse = np.empty(len(at), np.int64)
    inverse[by] = run
    return first, inverse


def verified(verify, sketches: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``verify`` (sketches a, b -> keep mask) of the pairs (sketches[i], sketches[j]), in chunks:
    the gathered sketches of all candidates at once can be GBs."""
    return np.concatenate([verify(np.take(sketches, i[lo:lo + VERIFY_CHUNK], axis=0),
                                  np.take(sketches, j[lo:lo + VERIFY_CHUNK], axis=0))
                           for lo in range(0, len(i), VERIFY_CHUNK)])


def screened(verify, screen, small: np.ndarray, sketches: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``verify`` (sketches a, b -> keep mask) of the pairs (sketches[i], sketches[j]), asked only
    about the pairs that ``screen`` (small rows a, b -> may pass; never False for a pair ``verify``
    keeps) lets through on ``small``, a compact copy of the rows: the mask ``verified`` gives,
    with the few survivors' whole sketches gathered instead of every candidate's."""
    keep = np.zeros(len(i), dtype=bool)
    for lo in range(0, len(i), SCREEN_CHUNK):
        a, b = i[lo:lo + SCREEN_CHUNK], j[lo:lo + SCREEN_CHUNK]
        may = np.flatnonzero(screen(np.take(small, a, axis=0), np.take(small, b, axis=0)))
        if len(may):
            keep[lo + may] = verify(np.take(sketches, a[may], axis=0), np.take(sketches, b[may], axis=0))
    return keep


def row_pairs(keys: list[str], sketches: np.ndarray, near, verify=None, distinct=None, verify_pairs=None) -> list[Pair]:
    """Pairs between rows, from ``near(distinct sketches) -> (i, j, dist)``.

    ``sketches`` is (rows, words) uint64 with the fingerprint as word 0, or a plain fingerprint
    array. Rows with identical sketches are linked to the first (lowest-key) row holding that
    sketch, not to each other, so m identical rows make m-1 pairs instead of m(m-1)/2; ``near``
    gets the distinct sketches in the key order of their first rows. With
    ``verify`` (dedup.verify: sketches a, b -> keep mask), a candidate pair is kept only where it says so.
    ``distinct``: ``distinct_rows(keys, sketches)`` when the caller has it already;
    ``verify_pairs`` (sketches, i, j -> keep mask), instead of ``verify``: verifies index pairs itself.
    """
    if len(keys) == 0:
        return []
    order, uniq, rep, of_row = distinct or distinct_rows(keys, np.asarray(sketches, dtype=np.uint64).reshape(len(keys), -1))
    rows = np.asarray(order)
    firsts = rep[of_row[rows]]
    copies = np.flatnonzero(firsts != rows)  # in key order
    out: list[Pair] = [Pair(keys[f], keys[r], 0) for f, r in zip(firsts[copies].tolist(), rows[copies].tolist())]
    i, j, dist = near(uniq)
    if verify_pairs is None and verify is not None:
        verify_pairs = lambda sk, a, b: verified(verify, sk, a, b)  # noqa: E731
    if verify_pairs is not None and len(i):
        keep = verify_pairs(uniq, i, j)
        i, j, dist = i[keep], j[keep], dist[keep]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[rows] = np.arange(len(keys))  # each row's place in key order
    a, b = rep[i], rep[j]
    swap = rank[b] < rank[a]  # each pair lower key first
    a, b = np.where(swap, b, a), np.where(swap, a, b)
    out += [Pair(keys[x], keys[y], d) for x, y, d in zip(a.tolist(), b.tolist(), np.asarray(dist).tolist())]
    return out

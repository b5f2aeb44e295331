"""Exact search for all fingerprint pairs within Hamming distance k, by sorting on block values.

For each block table (dedup.blocks), fingerprints are sorted by the table's key and compared only
inside runs of equal keys (pigeonhole: a pair within k shares the key of at least one table). A run far
larger than the others (skew: many rows with one block value) is split again on its remaining,
not-yet-equal bits into k+1 sub-blocks, which keeps the search exact
(seed improved-simhash-large-scale.txt, section 2.3). No step compares all pairs of the input.

With a fields layout (``layout.shared``) every pair in a run of one non-zero block value is a
candidate, whatever its distance: its rows hold one field equal. A zero block (the field is empty)
links nothing.
"""

from __future__ import annotations

import numpy as np

from .blocks import BITS, BlockLayout

DEFAULT_SPLIT_AT = 512  # a bucket with more members than this is split again
MAX_SPLIT_DEPTH = 2  # each split level multiplies a bucket's work by k+1 when its members stay close
_FULL = (1 << BITS) - 1


def _split_mask(mask: int, parts: int) -> list[int]:
    """Split the set bits of ``mask`` into ``parts`` masks of consecutive bits, as equal as possible."""
    bits = [b for b in range(BITS - 1, -1, -1) if mask >> b & 1]
    base, extra = divmod(len(bits), parts)
    out, at = [], 0
    for p in range(parts):
        n = base + (1 if p < extra else 0)
        out.append(sum(1 << b for b in bits[at:at + n]))
        at += n
    return out


def near_pairs(fps: np.ndarray, layout: BlockLayout, split_at: int = DEFAULT_SPLIT_AT):
    """All index pairs (i < j) whose fingerprints differ in at most ``layout.max_distance`` bits
    (fields layout: that share a non-empty block).

    Returns three int64 arrays (i, j, distance), sorted by (i, j), each pair once.
    """
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    n = fps.shape[0]
    k = layout.reach
    found: list[np.ndarray] = []
    everyone = np.arange(n, dtype=np.int64)
    for mask in layout.masks:
        if layout.shared:  # no distance to keep exact: split nothing, skip the empty value
            idx = everyone[(fps & np.uint64(mask)) != 0]
            _search(fps, idx, mask, 0, k, n + 1, found, depth=MAX_SPLIT_DEPTH)
        else:
            _search(fps, everyone, mask, _FULL & ~mask, k, split_at, found, depth=0)
    if not found:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy()
    codes = np.unique(np.concatenate(found))
    i, j = np.divmod(codes, np.int64(max(n, 1)))
    dist = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    return i, j, dist


def _search(fps, idx, equal_mask, rest_mask, k, split_at, found, depth) -> None:
    """Compare the members of ``idx`` that agree on ``equal_mask``; recurse into oversized buckets.

    Splitting stops after MAX_SPLIT_DEPTH levels: members that stay together through every split
    are genuinely close to each other and are compared directly.
    """
    if idx.shape[0] < 2:
        return
    keys = fps[idx] & np.uint64(equal_mask)
    order = np.argsort(keys, kind="stable")
    sidx, skeys = idx[order], keys[order]
    change = np.flatnonzero(skeys[1:] != skeys[:-1]) + 1
    starts = np.concatenate(([0], change))
    ends = np.concatenate((change, [sidx.shape[0]]))
    sizes = ends - starts
    small = (sizes >= 2) & (sizes <= split_at)
    can_split = depth < MAX_SPLIT_DEPTH and bin(rest_mask).count("1") >= k + 1
    big = sizes > split_at
    if not can_split:  # no bits left to split on: compare inside every run
        small, big = sizes >= 2, np.zeros_like(big)
    if small.any():
        _compare_runs(fps, sidx, starts[small], ends[small], k, len(fps), found)
    for s, e in zip(starts[big], ends[big]):
        members = sidx[s:e]
        for sub in _split_mask(rest_mask, k + 1):
            _search(fps, members, equal_mask | sub, rest_mask & ~sub, k, split_at, found, depth + 1)


def _compare_runs(fps, sidx, starts, ends, k, n, found) -> None:
    """All pairs inside each run [start, end) of ``sidx``, compared diagonal by diagonal."""
    lengths = ends - starts
    pos = np.repeat(starts, lengths) + _ranges(lengths)
    end_of = np.repeat(ends, lengths)
    d = 1
    active = pos
    active_end = end_of
    while active.shape[0]:
        keep = active + d < active_end
        active, active_end = active[keep], active_end[keep]
        if not active.shape[0]:
            break
        a, b = sidx[active], sidx[active + d]
        close = np.bitwise_count(fps[a] ^ fps[b]) <= k
        if close.any():
            lo, hi = np.minimum(a[close], b[close]), np.maximum(a[close], b[close])
            found.append(lo * np.int64(n) + hi)
        d += 1


def _ranges(lengths: np.ndarray) -> np.ndarray:
    """Concatenation of arange(l) for each l in lengths."""
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=np.int64)
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(total, dtype=np.int64) - offsets


def brute_force_pairs(fps: np.ndarray, k: int):
    """Reference: every pair within k by comparing all pairs (for tests and small inputs only)."""
    fps = np.asarray(fps, dtype=np.uint64)
    out_i, out_j = [], []
    for i in range(len(fps) - 1):
        d = np.bitwise_count(fps[i + 1:] ^ fps[i])
        hit = np.flatnonzero(d <= k)
        out_i.append(np.full(hit.shape[0], i, dtype=np.int64))
        out_j.append(hit + i + 1)
    if not out_i:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(out_i), np.concatenate(out_j)

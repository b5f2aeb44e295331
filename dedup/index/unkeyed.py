"""Issue 22, session 47: what a pair found only by the narrow bands may be kept on.

Bands of 2 MinHash values make a pair of J 0.47 a candidate with probability 0.96 (bands of 4:
0.48): the neighbours' complaints on one topic at one community that rule ``numbers`` keeps
(bench/results/topic-s41.md). But they also make namesakes candidates, kept by an identity bar
on the name alone (topic2-s42.md, topic3-s44.md, namesakes-s45.md). So a pair that shares no
band of ``wide`` values and no identity key (what the keys before found) is kept only on the
plain content bars (``threshold``, ``short_threshold``) or by rule ``numbers`` at a place both
rows name: never by an identity bar, rule ``distinct`` or numbers alike by chance at no place.
Each decision still reads the two rows alone (bench/results/topic5-s47.md).
"""

from __future__ import annotations

import numpy as np

from .band_columns import as_u32, band_count, identity_pairs
from .numbers import shared_places
from .triples import ASK_PAIRS


def wide_bands(identity: int, perms: int, wide: int) -> int:
    """How many bands of ``wide`` values the keys before had (BandScheme.bands at r = ``wide``)."""
    return band_count(identity, perms, wide)


def keyed(a: np.ndarray, b: np.ndarray, identity: int, perms: int, wide: int) -> np.ndarray:
    """Whether each pair of signatures shares a band of ``wide`` values or an identity key (two of the
    first three identity columns equal and present; one when it is the only one)."""
    skip = 2 * (1 + identity)
    bands = wide_bands(identity, perms, wide)
    va, vb = as_u32(a)[:, skip:skip + bands * wide], as_u32(b)[:, skip:skip + bands * wide]
    out = (va == vb).reshape(len(a), bands, wide).all(axis=2).any(axis=1)
    for p in identity_pairs(identity):  # an identity column's signature word is 1 + its place
        out |= np.logical_and.reduce([(a[:, 1 + c] == b[:, 1 + c]) & (a[:, 1 + c] != 0) for c in p])
    return out & (a[:, 0] > 0) & (b[:, 0] > 0)


def unkeyed_kept(v, a: np.ndarray, b: np.ndarray, j: np.ndarray, short: np.ndarray) -> np.ndarray:
    """Whether each pair passes session 47's guard (``v``: a TextVerifier with ``wide_keys`` on): a keyed
    pair always; an unkeyed one on the plain bars, or a long one by rule ``numbers`` at a place both name."""
    out = keyed(a, b, v.identity, v.perms, v.wide_keys)
    rest = np.flatnonzero(~out)
    if not len(rest):
        return out
    a, b, j, short = a[rest], b[rest], j[rest], short[rest]
    plain = j >= np.where(short, v.short_threshold, v.threshold)
    numbers, _ = v.numbers_alone(a, b, j)
    numbers &= ~short & (a[:, 0] > 0)
    if v.numbers_at and np.any(numbers):
        numbers &= shared_places(v.tokens(a), v.tokens(b))  # the number words, confirming values left out
    else:
        numbers[:] = False
    out[rest] = plain | numbers
    return out


def unkeyed_guard(v, a: np.ndarray, b: np.ndarray, j: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """``ok`` (the verifier's verdicts before the guard) with the guard applied to the pairs it keeps."""
    at = np.flatnonzero(ok)
    if len(at):
        ok = ok.copy()
        ok[at] = unkeyed_kept(v, a[at], b[at], j[at], np.minimum(a[at, 0], b[at, 0]) < v.short_chars)
    return ok


class SweepKeep:
    """``(i, j) -> bool mask``: whether rows i and j of ``sig`` could pass the guard of ``v`` (a TextVerifier
    at the lowest threshold `dedup eval` sweeps): keyed, or kept by ``unkeyed_kept``. Only the plain bar
    moves with the threshold, so a pair it drops is refused at every threshold swept: eval's sweep is
    the same without scoring the many pairs only narrow bands find (bench/results/topic5-s47.md)."""

    def __init__(self, v, sig: np.ndarray) -> None:
        self.v, self.sig = v, sig
        self.head = sig[:, :1 + v.identity + v.perms // 2]  # the length, identity words and MinHash values (a view)

    def __call__(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        if not len(i):
            return np.zeros(0, bool)
        return np.concatenate([self._asked(i[lo:lo + ASK_PAIRS], j[lo:lo + ASK_PAIRS]) for lo in range(0, len(i), ASK_PAIRS)])

    def _asked(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``keyed`` and J on the rows' first words; the whole signatures only of the unkeyed pairs whose
        J reaches a bar ``unkeyed_kept`` could keep them at (the plain bars, rule numbers' floor)."""
        v = self.v
        a, b = self.head[i], self.head[j]
        ok = keyed(a, b, v.identity, v.perms, v.wide_keys)
        rest = np.flatnonzero(~ok)
        if len(rest):
            a, b = a[rest], b[rest]
            short = np.minimum(a[:, 0], b[:, 0]) < v.short_chars
            score = v.scores(a, b)
            maybe = np.flatnonzero(score >= np.where(short, v.short_threshold, min(v.threshold, v.numbers_floor)))
            rest, short, score = rest[maybe], short[maybe], score[maybe]
            a, b = self.sig[i[rest]], self.sig[j[rest]]
            ok[rest] = unkeyed_kept(v, a, b, score, short)
        return ok


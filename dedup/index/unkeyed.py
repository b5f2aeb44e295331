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

from itertools import combinations

import numpy as np

from .numbers import PLACE_BIT

ASK_PAIRS = 1 << 16  # pairs `dedup eval`'s screen reads together (as dedup.index.triples)
KEY_FIELDS = 3  # identity keys pair up the first three identity columns (dedup.index.bands)
MAX_KEYS = 16  # bands and identity keys a row (dedup.index.bands)


def wide_bands(identity: int, perms: int, wide: int) -> int:
    """How many bands of ``wide`` values the keys before had (BandScheme.bands at r = ``wide``)."""
    pairs = len(tuple(combinations(range(min(identity, KEY_FIELDS)), 2))) if identity > 1 else min(identity, 1)
    return min(perms // wide, MAX_KEYS - pairs)


def keyed(a: np.ndarray, b: np.ndarray, identity: int, perms: int, wide: int) -> np.ndarray:
    """Whether each pair of signatures shares a band of ``wide`` values or an identity key (two of the
    first three identity columns equal and present; one when it is the only one)."""
    skip = 2 * (1 + identity)
    bands = wide_bands(identity, perms, wide)
    va = a.view(np.uint32)[:, skip:skip + bands * wide] if a.flags.c_contiguous else _u32(a)[:, skip:skip + bands * wide]
    vb = b.view(np.uint32)[:, skip:skip + bands * wide] if b.flags.c_contiguous else _u32(b)[:, skip:skip + bands * wide]
    out = (va == vb).reshape(len(a), bands, wide).all(axis=2).any(axis=1)
    cols = range(1, 1 + min(identity, KEY_FIELDS))
    pairs = tuple(combinations(cols, 2)) if identity > 1 else tuple((c,) for c in cols)
    for p in pairs:
        out |= np.logical_and.reduce([(a[:, c] == b[:, c]) & (a[:, c] != 0) for c in p])
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
        numbers &= shared_place(v.tokens(a), v.tokens(b))  # the number words, confirming values left out
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


def shared_place(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For two aligned blocks of ``number_words``: whether some place (or organisation) name of a's
    is among b's (the count word left out; 0 slots are never names)."""
    va, vb = _u32(a[:, 1:]), _u32(b[:, 1:])
    out = np.zeros(len(a), bool)
    for k in range(va.shape[1]):
        out |= (va[:, k] >= PLACE_BIT) & (vb == va[:, k:k + 1]).any(axis=1)
    return out


def _u32(words: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(words).view(np.uint32)

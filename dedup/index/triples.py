"""Which pairs of a bucket could verify, told before they are made candidates (issue 26).

The demo's petitions and real tables written from forms share sentences, so a band of 4 MinHash
values often falls wholly in shared text and its bucket holds rows that are otherwise unlike: at
400,000 demo rows 12 million candidate pairs, 51 thousand verified. The count of such pairs grows
about 2.8 times for twice the rows (bench/results/tail-i26.md). ``MayVerify`` drops, inside each
bucket, the pairs that no rule of ``TextVerifier`` could keep, so the search, its sort and the
verification see only the rest (bench/results/candidates-s35.md).

It is exact: a pair it drops is one the verifier rejects, so the same pairs are kept and nothing
stored or compared changes. Each row keeps one 16-bit code of each disjoint triple of its MinHash
values (21 of 64). A pair kept on its contents alone has at least ``bar * perms`` equal values,
so at most ``perms - ceil(bar * perms)`` unequal ones, each of which breaks at most one triple:
at least ``triples - that`` triples are equal, and their codes too (at 0.75: 5 of 21). ``bar`` is
the lowest bar a pair reaches without an identity field or its numbers (``threshold``, rule
``distinct``'s floor, ``short_threshold``). A pair with an identity field equal, or whose number
tokens rule ``numbers`` would count as alike, is kept whatever its triples.
"""

from __future__ import annotations

import math

import numpy as np

from .numbers import number_counts


TRIPLE = 3
CODE_ROWS = 1 << 14  # rows whose triple codes are made at a time
ASK_PAIRS = 1 << 16  # pairs screened together (a hot bucket's partition held millions: their two rows' screen words, 80 bytes a pair)


def value_count(values: np.ndarray, paired: bool = False) -> int:
    """How many MinHash values a row of ``values`` holds: (rows, n) values, or with ``paired`` uint64
    words holding two each (dedup.index.band_columns.value_words: a view, no copy of all rows)."""
    return values.shape[1] * (2 if paired else 1)


def triple_codes(values: np.ndarray, paired: bool = False) -> np.ndarray:
    """(rows, perms // 3) uint16: a hash of each disjoint triple of a row's MinHash values (equal
    triples, equal codes); ``values``, ``paired`` as ``value_count`` takes them."""
    values = np.asarray(values)
    t = value_count(values, paired) // TRIPLE
    out = np.empty((len(values), t), np.uint16)
    for lo in range(0, len(values), CODE_ROWS):  # a copy of all rows' values was 0.5 KB a row (issue 26)
        part = values[lo:lo + CODE_ROWS]
        part = np.ascontiguousarray(part, dtype=np.uint64).view(np.uint32) if paired else part
        v = part[:, :t * TRIPLE].reshape(-1, t, TRIPLE).astype(np.uint64)
        with np.errstate(over="ignore"):  # one multiply-add a value (a splitmix64 of each: 0.5 s at 200,000 rows)
            h = v[:, :, 0] * _MIX[0] + v[:, :, 1] * _MIX[1] + v[:, :, 2] * _MIX[2]
        out[lo:lo + CODE_ROWS] = (h >> np.uint64(48)).astype(np.uint16)
    return out


_MIX = tuple(np.uint64(c) for c in (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB))


class MayVerify:
    """``(i, j) -> bool mask``: whether the rows i and j of ``sig`` (a text signature) could pass
    ``verifier``; never False for a pair it keeps. ``values``, ``paired``: as ``value_count`` takes them."""

    def __init__(self, verifier, values: np.ndarray, sig: np.ndarray, paired: bool = False) -> None:
        v = verifier
        bar = min(v.threshold, v.distinct_floor, v.short_threshold)
        self.codes = triple_codes(values, paired)
        unequal = v.perms - math.ceil(bar * v.perms - 1e-9)
        self.need = value_count(values, paired) // TRIPLE - unequal  # <= 0: any pair the screen lets through may verify
        self.ids = sig[:, 1:1 + v.identity]  # views: only the few pairs past the screen are read (copies: 0.1 KB a row, issue 26)
        on = bool(v.numbers_at) and v.numbers_floor < v.threshold
        self.numbers = sig[:, v.numbers_at:v.confirm_at or None] if on else None
        self.counts = number_counts(self.numbers) if on else None
        self.verifier = v
        self.small = v.compact(sig) if value_count(values, paired) == v.perms else None

    def __call__(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``_asked`` of ASK_PAIRS pairs at a time (the candidates' peak: issue 26)."""
        if self.small is None or not len(i):
            return np.ones(len(i), dtype=bool)
        if len(i) <= ASK_PAIRS:
            return self._asked(i, j)
        return np.concatenate([self._asked(i[lo:lo + ASK_PAIRS], j[lo:lo + ASK_PAIRS]) for lo in range(0, len(i), ASK_PAIRS)])

    def _asked(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The screen first (TextVerifier.screen: drops nearly all, on 5 words a row), then the
        triples, identity fields and numbers of the few it lets through."""
        ok = self.verifier.screen(np.take(self.small, i, axis=0), np.take(self.small, j, axis=0))
        may = np.flatnonzero(ok)
        if self.need <= 0 or not len(may):
            return ok
        ok[may] = self._alike(i[may], j[may])
        return ok

    def _alike(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether enough triples, an identity field or the numbers are alike."""
        equal = np.count_nonzero(np.take(self.codes, i, axis=0) == np.take(self.codes, j, axis=0), axis=1)
        ok = equal >= self.need
        rest = np.flatnonzero(~ok)
        if len(rest) and self.ids.shape[1]:
            a, b = self.ids[i[rest]], self.ids[j[rest]]  # indexed, not np.take: see _numbers_alike
            same = ((a == b) & (a != 0)).any(axis=1)
            ok[rest[same]] = True
            rest = rest[~same]
        if len(rest) and self.numbers is not None:
            ok[rest[self._numbers_alike(i[rest], j[rest])]] = True
        return ok

    def _numbers_alike(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Rule ``numbers``' condition on the number tokens (its bar on J left out). The words are
        gathered by indexing: ``np.take`` of a view that is not C-contiguous (``self.numbers`` and
        ``self.ids`` are columns of the signatures) first copies the whole view, every row, at
        every call; with a call or more per partition, and partitions growing with the rows, the
        search grew as rows squared (issue 26, bench/results/growth-s42.md)."""
        v, least = self.verifier, np.minimum(self.counts[i], self.counts[j])
        out = np.zeros(len(i), dtype=bool)
        named = np.flatnonzero(least >= v.numbers_least)  # the cheap half first: both name enough
        if len(named):
            out[named] = v.numbers_agree(*v.tokens_alike(self.numbers[i[named]], self.numbers[j[named]]))
        return out

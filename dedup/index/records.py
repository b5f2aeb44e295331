"""Candidate keys and verification of record rows (rows of short fields) from their signature words.

The words are dedup.text.records.RecordSignature's: per field ``1 + k/4`` uint64 words, the value
hash (0 = empty) then ``k`` 16-bit MinHash values of the value's character bigrams.

What a key may be is decided from the whole table by the full run (``learn``) and frozen
(``with_learned``): a field whose distinct values are at least ``key_ratio`` of its non-empty
values (an id, a phone, a date of birth, a street address) is a *key field* and keys its rows by
exact value. A field of few values (gender, state, a status) is never a key by itself, so it
cannot make a bucket of half the table. Two lesser fields together (surname + given name) are a
*pair key* when the full run measured their combination to be as distinctive. A row whose every
key field has a typo is still found by ``bands`` MinHash band keys over the union of its key
fields' bigrams. Nothing depends on which rows are present, so a full run followed by an
incremental one gives the keys, pairs and verdicts of one full run.

Verification goes field by field: equal values score 1; unequal ones score their estimated bigram
Dice when the field is distinctive (``similar_ratio``: a typo in a name or a phone), else 0 (a
different gender is simply different); a field empty in either row drops out. The weighted mean
(weight log2 of the field's distinct values: agreeing on a 2-valued field says one bit) is kept
when it reaches ``threshold``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from .minhash import EMPTY, band_keys, combine, key_pairs

U64 = np.uint64
MAX_KEYS = 16
_LOW16 = U64(0xFFFF)


@dataclass(frozen=True)
class RecordScheme:
    """Keys and verdicts over ``fields`` fields of ``k`` MinHash values each (see the module doc).

    Defaults chosen by bench/records/sweep.py on bench/labelled/persons (seeds 0 and 1) only.
    """

    fields: int
    k: int = 8
    threshold: float = 0.70
    key_ratio: float = 0.5       # distinct / non-empty values for a key field (and a pair key)
    min_key_distinct: int = 12   # and at least this many distinct values (tiny tables)
    similar_ratio: float = 0.01  # distinct / non-empty for a field whose typos still score
    max_exact: int = 8           # exact keys at most (the most distinctive key fields)
    max_pairs: int = 4           # pair keys at most (the most distinctive pairs)
    pair_fields: int = 8         # pairs are tried among this many lesser fields (most distinct first)
    bands: int = 2               # band keys of r values each, over the key fields' union MinHash
    r: int = 4
    learned: dict | None = field(default=None, compare=False)
    field_weights: tuple[float, ...] | None = None  # the configured weights (None: all 1)

    def __post_init__(self):
        if self.fields < 1 or self.k % 4 or self.bands * self.r > self.k:
            raise ValueError("RecordScheme: need fields >= 1, k a multiple of 4 and bands * r <= k")
        if self.max_exact + self.max_pairs + self.bands > MAX_KEYS:
            raise ValueError(f"RecordScheme: at most {MAX_KEYS} keys a row")

    @property
    def per_field(self) -> int:
        return 1 + self.k // 4

    def hashes(self, sig: np.ndarray) -> np.ndarray:
        """(rows, fields) value hashes (0 = empty)."""
        return np.asarray(sig, U64)[:, ::self.per_field][:, :self.fields]

    # -- what the full run learns ------------------------------------------------------------------

    def learn(self, sig: np.ndarray) -> dict:
        """Per field its non-empty and distinct counts, and the same for the pairs of lesser fields
        that could become pair keys: JSON-able, stored by the full run, reused by incremental runs."""
        h = self.hashes(sig)
        filled = [int(np.count_nonzero(h[:, f])) for f in range(self.fields)]
        distinct = [int(len(np.unique(h[h[:, f] != 0, f]))) for f in range(self.fields)]
        pairs = []
        for a, b in self._pair_candidates(filled, distinct):
            z = combine(h[:, a], h[:, b], a * 1000 + b)
            live = z[z != 0]
            pairs.append([a, b, int(len(live)), int(len(np.unique(live)))])
        return {"rows": int(h.shape[0]), "filled": filled, "distinct": distinct, "pairs": pairs}

    def with_learned(self, learned: dict) -> RecordScheme:
        if len(learned["filled"]) != self.fields:
            raise ValueError(f"learned counts are for {len(learned['filled'])} fields, not {self.fields}")
        return replace(self, learned=learned)

    def _is_key(self, filled: int, distinct: int) -> bool:
        return filled > 0 and distinct >= self.min_key_distinct and distinct >= self.key_ratio * filled

    def _pair_candidates(self, filled, distinct) -> list[tuple[int, int]]:
        lesser = [f for f in range(self.fields) if not self._is_key(filled[f], distinct[f]) and distinct[f] >= 3]
        lesser = sorted(lesser, key=lambda f: (-distinct[f], f))[:self.pair_fields]
        return list(combinations(sorted(lesser), 2))

    def _learned(self) -> dict:
        if self.learned is None:
            raise ValueError("RecordScheme has learned nothing: call with_learned(learn(sig)) first")
        return self.learned

    def key_fields(self) -> list[int]:
        """The fields that key rows by exact value, most distinctive first."""
        lr = self._learned()
        keyf = [f for f in range(self.fields) if self._is_key(lr["filled"][f], lr["distinct"][f])]
        return sorted(keyf, key=lambda f: (-lr["distinct"][f], f))[:self.max_exact]

    def pair_keys(self) -> list[tuple[int, int]]:
        """The pairs of lesser fields whose combination is distinctive, most distinctive first."""
        good = [(d / n, a, b) for a, b, n, d in self._learned()["pairs"] if self._is_key(n, d)]
        return [(a, b) for _, a, b in sorted(good, key=lambda t: (-t[0], t[1], t[2]))[:self.max_pairs]]

    def weights(self) -> np.ndarray:
        """Each field's say: its configured weight times log2 of its distinct values (agreeing on a
        2-valued field says one bit, on an id number many)."""
        configured = np.array(self.field_weights) if self.field_weights is not None else 1.0
        return configured * np.array([math.log2(max(2, d)) for d in self._learned()["distinct"]])

    def similar(self) -> np.ndarray:
        lr = self._learned()
        return np.array([n > 0 and d >= self.similar_ratio * n and d >= 3
                         for n, d in zip(lr["filled"], lr["distinct"])])

    # -- keys --------------------------------------------------------------------------------------

    def keys(self, sig: np.ndarray) -> np.ndarray:
        """(rows, m) uint64 keys, 0 = none; m <= 16 and fixed by what was learned."""
        sig = np.asarray(sig, U64)
        h = self.hashes(sig)
        keyf = self.key_fields()
        cols = [combine(h[:, f], np.full(len(h), f + 1, U64), 0x6B6579) for f in keyf]
        cols += [combine(h[:, a], h[:, b], a * 1000 + b) for a, b in self.pair_keys()]
        if keyf and self.bands:
            values = np.full((len(h), self.k), EMPTY, np.uint32)
            for f in keyf:
                mine = self._values(sig, f).astype(np.uint32)
                mine[h[:, f] == 0] = EMPTY
                values = np.minimum(values, mine)
            cols += list(band_keys(values, self.bands, self.r, (h[:, keyf] != 0).any(axis=1)).T)
        if not cols:
            return np.zeros((len(h), 0), U64)
        return np.stack(cols, axis=1)

    def names_of(self, sig: np.ndarray) -> list[list[str]]:
        """Per row the block names of its keys: ``r{column}:{key:016x}``."""
        keys = self.keys(sig)
        return [[f"r{c}:{int(k):016x}" for c, k in enumerate(row) if k] for row in keys.tolist()]

    def near(self, sig: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row pairs (i < j, each once) sharing any key."""
        return key_pairs(self.keys(sig))

    # -- verification ------------------------------------------------------------------------------

    def _values(self, sig: np.ndarray, f: int) -> np.ndarray:
        """(rows, k) uint64 16-bit MinHash values of field ``f``."""
        words = sig[:, f * self.per_field + 1:(f + 1) * self.per_field]
        return np.stack([(words[:, j // 4] >> U64(16 * (j % 4))) & _LOW16 for j in range(self.k)], axis=1)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Weighted mean field similarity of aligned rows ``a`` and ``b`` (pairs, words); NaN when
        no field is filled in both."""
        a, b = np.atleast_2d(np.asarray(a, U64)), np.atleast_2d(np.asarray(b, U64))
        weights, similar = self.weights(), self.similar()
        ha, hb = self.hashes(a), self.hashes(b)
        num = np.zeros(len(a))
        den = np.zeros(len(a))
        for f in range(self.fields):
            both = (ha[:, f] != 0) & (hb[:, f] != 0)
            s = (ha[:, f] == hb[:, f]).astype(float)
            if similar[f]:
                j = (self._values(a, f) == self._values(b, f)).mean(axis=1)
                s = np.maximum(s, 2 * j / (1 + j))
            num += weights[f] * np.where(both, s, 0.0)
            den += weights[f] * both
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / den, np.nan)

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which aligned pairs are the same record: score >= threshold."""
        s = self.scores(a, b)
        return np.nan_to_num(s, nan=-1.0) >= self.threshold

    __call__ = verify  # a verifier like the others: (a, b) -> keep mask

    def verify_pairs(self, sig: np.ndarray, i: np.ndarray, j: np.ndarray, chunk: int = 100_000) -> np.ndarray:
        """``verify(sig[i], sig[j])`` a chunk of pairs at a time, so memory stays bounded however
        many candidate pairs there are."""
        out = np.zeros(len(i), bool)
        for s in range(0, len(i), chunk):
            out[s:s + chunk] = self.verify(sig[i[s:s + chunk]], sig[j[s:s + chunk]])
        return out

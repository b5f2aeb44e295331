"""The verification stage: which candidate pairs (rows sharing a block) are duplicates.

A row fingerprint's candidates are kept when the cosine similarity estimated from their whole
sketches (dedup.index.similarity) is at least the threshold. A fields fingerprint's candidates
share at least one field exactly; they are scored field by field instead: each field's similarity
is estimated from its own bits of the sketch, a field empty in either row drops out (a missing
value is not a difference), and the pair is kept when the fields' similarities, averaged with the
fields' weights, reach the threshold.

A verifier is called with the two sides' sketches, (pairs, words) uint64, and returns the keep
mask; ``scores`` gives the number it compares with its threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .similarity import at_least, distance_limit, similarity, sketch_distance


@dataclass(frozen=True)
class SketchVerifier:
    """Keeps pairs whose estimated similarity over their whole sketches is at least ``threshold``."""

    threshold: float
    bits: int

    @property
    def limit(self) -> int:
        """The most sketch bits a kept pair may differ in."""
        return distance_limit(self.threshold, self.bits)

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return sketch_distance(a, b) <= self.limit

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return similarity(sketch_distance(a, b), self.bits)


@dataclass(frozen=True)
class FieldVerifier:
    """Keeps pairs whose weighted mean field similarity is at least ``threshold``."""

    block_masks: tuple[int, ...]  # each field's bits, the same in every sketch word
    weights: tuple[float, ...]
    threshold: float

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return at_least(self.scores(a, b), self.threshold)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The weighted mean similarity over the fields present in both rows (0 when there are none)."""
        sims = self.field_scores(a, b)
        both = ~np.isnan(sims)
        w = np.where(both, np.asarray(self.weights, dtype=float), 0.0)
        total, weight = (w * np.nan_to_num(sims)).sum(axis=1), w.sum(axis=1)
        return np.divide(total, weight, out=np.zeros(len(sims)), where=weight > 0)

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(pairs, fields): each field's similarity from its own bits, NaN where either row lacks it."""
        a = np.asarray(a, dtype=np.uint64).reshape(len(a), -1)
        b = np.asarray(b, dtype=np.uint64).reshape(len(b), -1)
        words = a.shape[1]
        out = np.full((len(a), len(self.block_masks)), np.nan)
        for f, mask in enumerate(self.block_masks):
            m = np.uint64(mask)
            am, bm = a & m, b & m
            both = (am != 0).any(axis=1) & (bm != 0).any(axis=1)
            sim = similarity(np.bitwise_count(am ^ bm).sum(axis=1), int(mask).bit_count() * words)
            out[:, f] = np.where(both, sim, np.nan)
        return out

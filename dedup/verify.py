"""The verification stage: which candidate pairs (rows sharing a block) are duplicates.

A row fingerprint's candidates are kept when the cosine similarity estimated from their whole
sketches, cos(pi * d / bits), is at least ``simhash.min_similarity``. A fields fingerprint's
candidates share at least one field exactly; they are scored field by field instead: each field's
similarity is estimated from its own bits of the sketch, a field empty in either row drops out
(a missing value is not a difference), and the pair is kept when the fields' similarities,
averaged with the fields' weights, reach ``simhash.min_field_similarity``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .config import Config, TableConfig
from .groups import sketch_distance


def at_least(scores: np.ndarray, threshold: float) -> np.ndarray:
    """scores >= threshold, with a rounding error's slack (a score computed as exactly the threshold passes)."""
    return scores >= threshold - 1e-12


@dataclass(frozen=True)
class SketchVerifier:
    """Keeps pairs whose sketches differ in at most ``limit`` bits."""

    limit: int

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return sketch_distance(a, b) <= self.limit


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
        a = np.asarray(a, dtype=np.uint64).reshape(len(a), -1)
        b = np.asarray(b, dtype=np.uint64).reshape(len(b), -1)
        words = a.shape[1]
        total = np.zeros(len(a))
        weight = np.zeros(len(a))
        for mask, w in zip(self.block_masks, self.weights):
            m = np.uint64(mask)
            am, bm = a & m, b & m
            both = (am != 0).any(axis=1) & (bm != 0).any(axis=1)
            bits = int(mask).bit_count() * words
            sim = np.cos(np.pi * np.bitwise_count(am ^ bm).sum(axis=1) / bits)
            total += np.where(both, w * sim, 0.0)
            weight += np.where(both, w, 0.0)
        return np.divide(total, weight, out=np.zeros(len(a)), where=weight > 0)


def verifier_for(config: Config, table: TableConfig) -> SketchVerifier | FieldVerifier | None:
    """The table's verification (None: every candidate within max_distance is a duplicate)."""
    if table.by_field:
        masks = config.layout_for(table).block_masks
        return FieldVerifier(masks, tuple(f.weight for f in table.fields), config.min_field_similarity)
    limit = config.verify_distance
    return None if limit is None else SketchVerifier(limit)

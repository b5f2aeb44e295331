"""How alike two rows are, from their SimHash sketches: the one place the formulas live.

A SimHash bit differs between two rows with probability theta / pi, where theta is the angle
between their weighted feature vectors; so over ``bits`` sketch bits differing in d, the cosine
similarity is estimated as cos(pi * d / bits). Verification, `dedup eval` and the config's
threshold all go through these functions.
"""

from __future__ import annotations

import math

import numpy as np

_SLACK = 1e-12  # a score computed as exactly the threshold passes despite rounding


def similarity(distance: np.ndarray | int, bits: int) -> np.ndarray:
    """Cosine similarity estimated from a SimHash distance over ``bits`` bits: cos(pi * d / bits)."""
    return np.cos(np.pi * np.asarray(distance, dtype=np.float64) / bits)


def distance_limit(min_similarity: float, bits: int) -> int:
    """The most of ``bits`` sketch bits two rows may differ in while cos(pi * d / bits) >= min_similarity."""
    return int(math.floor(bits * math.acos(min_similarity) / math.pi + 1e-9))


def sketch_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamming distance over all words of two aligned (n, words) sketch arrays."""
    return np.bitwise_count(np.asarray(a, np.uint64) ^ np.asarray(b, np.uint64)).reshape(len(a), -1).sum(axis=1)


def at_least(scores: np.ndarray, threshold: float) -> np.ndarray:
    """scores >= threshold, with a rounding error's slack."""
    return scores >= threshold - _SLACK

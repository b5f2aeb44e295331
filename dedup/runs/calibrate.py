"""Pairs to label when there is no truth: every candidate pair (rows sharing a block, verified or
not) scored by the stored sketches, and a sample of them spread over the scores near the threshold,
so that a person's answers (decisions) show where the threshold should be (dedup.eval.partial)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ..index.keys import key_sort
from .explain import Scorer

STEP = 0.05  # width of a similarity bin
BELOW, ABOVE = 0.30, 0.20  # how far below and above the threshold pairs are sampled


@dataclass
class Candidates:
    """Candidate pairs of the stored rows: keys[i[n]], keys[j[n]] with score[n] (NaN: not comparable)."""

    keys: list[str]
    i: np.ndarray
    j: np.ndarray
    score: np.ndarray

    def pair(self, n: int) -> tuple[str, str]:
        a, b = self.keys[int(self.i[n])], self.keys[int(self.j[n])]
        return (a, b) if key_sort(a) <= key_sort(b) else (b, a)


def candidates(scorer: Scorer) -> Candidates:
    """Every candidate pair among the stored rows, with its score."""
    store, table = scorer.store, scorer.table
    fp = store.fingerprints(table)
    keys = sorted(fp, key=key_sort)
    _, sk = scorer.sketches(keys)
    pairs = scorer.recipe.candidates(keys, sk)
    at = {k: n for n, k in enumerate(keys)}
    i = np.fromiter((at[p.a] for p in pairs), np.int64, len(pairs))
    j = np.fromiter((at[p.b] for p in pairs), np.int64, len(pairs))
    score = np.concatenate([scorer.scores(sk[i[lo:lo + 100_000]], sk[j[lo:lo + 100_000]])
                            for lo in range(0, len(i), 100_000)]) if len(i) else np.empty(0)
    return Candidates(keys, i, j, score)


def bin_edges(threshold: float | None, scores: np.ndarray) -> np.ndarray:
    """Bin edges STEP apart from BELOW under the threshold to ABOVE over it (the whole range of
    scores without a threshold)."""
    if threshold is None:
        finite = scores[~np.isnan(scores)]
        lo, hi = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 1.0)
    else:
        lo, hi = threshold - BELOW, threshold + ABOVE
    lo, hi = max(lo, -1.0), min(hi, 1.0)
    n = max(1, int(np.ceil((hi - lo) / STEP - 1e-9)))
    return lo + STEP * np.arange(n + 1)


def sample(cands: Candidates, threshold: float | None, per_bin: int, seed: int = 0,
           exclude: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset()) -> list[tuple[str, str, float]]:
    """Up to ``per_bin`` pairs from each similarity bin near the threshold (not those in
    ``exclude``, pairs already decided), nearest the threshold first, then the rest by bin."""
    edges = bin_edges(threshold, cands.score)
    rng = random.Random(seed)
    picked: list[tuple[float, tuple[str, str, float]]] = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        last = hi >= edges[-1] - 1e-12
        inside = np.flatnonzero((cands.score >= lo) & ((cands.score <= hi) if last else (cands.score < hi)))
        order = inside.tolist()
        rng.shuffle(order)
        taken = 0
        for n in order:
            if taken >= per_bin:
                break
            p = cands.pair(n)
            if p in exclude:
                continue
            taken += 1
            centre = (lo + hi) / 2
            picked.append((abs(centre - threshold) if threshold is not None else 0.0,
                           (p[0], p[1], round(float(cands.score[n]), 4))))
    return [p for _, p in sorted(picked, key=lambda x: x[0])]

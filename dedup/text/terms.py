"""Inverse document frequency of terms and n-grams, learned by a full run and kept in the store.

Words that every petition uses (的, 反映, 问题) and a table's own boilerplate ("尊敬的领导", "恳请有关
部门高度重视") say nothing about which complaint a row is; rare terms (a company, a street, an
amount) do. Weighting each term by idf = ln((N + 1) / (df + 1)) + 1 makes the fingerprint follow
what a row is about. The counts come from the full run's rows and stay fixed until the next full
run, so a row fingerprinted by an incremental run gets the weights a full run would have given it.
Terms seen in one row only are not stored: they weigh the same as unseen ones (df is taken as 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index.fingerprint import HashedFeatures


@dataclass(frozen=True)
class TermModel:
    documents: int  # rows the counts were learned from
    hashes: np.ndarray  # uint64, sorted
    counts: np.ndarray  # int64, aligned

    @classmethod
    def learn(cls, feats: HashedFeatures) -> "TermModel":
        """Document frequency of every term/n-gram (each appears at most once in a row's features)."""
        hashes, counts = np.unique(feats.hashes[feats.idf], return_counts=True)
        return cls(int(feats.counts.shape[0]), hashes, counts.astype(np.int64))

    @classmethod
    def from_counts(cls, documents: int, found: dict[int, int]) -> "TermModel":
        hashes = np.fromiter(sorted(found), dtype=np.uint64, count=len(found))
        return cls(documents, hashes, np.fromiter((found[int(h)] for h in hashes), np.int64, len(found)))

    def kept(self) -> tuple[np.ndarray, np.ndarray]:
        """(hashes, counts) of what the store keeps: the terms in two rows or more."""
        keep = self.counts >= 2
        return self.hashes[keep], self.counts[keep]

    def idf(self, hashes: np.ndarray) -> np.ndarray:
        df = np.ones(hashes.shape[0], dtype=np.int64)
        if self.hashes.shape[0]:
            pos = np.minimum(np.searchsorted(self.hashes, hashes), self.hashes.shape[0] - 1)
            hit = self.hashes[pos] == hashes
            df[hit] = np.maximum(self.counts[pos[hit]], 1)
        return np.log((self.documents + 1) / (df + 1)) + 1.0

    def weigh(self, feats: HashedFeatures) -> np.ndarray:
        """The features' weights with terms and n-grams multiplied by their idf."""
        weights = feats.weights.copy()
        weights[feats.idf] *= self.idf(feats.hashes[feats.idf])
        return weights

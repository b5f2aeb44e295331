"""Weighted SimHash over CityHash64 feature hashes, computed for a whole batch at once.

Per feature: CityHash64 of its UTF-8 text. Per bit i: add the feature's weight where bit i of the
hash is 1, subtract it where 0; the fingerprint's bit i is 1 where the sum is > 0. The per-bit
sums are numpy array operations over every feature of the batch, not a Python loop over 64 bits.
A *sketch* extends the 64-bit fingerprint with more SimHash words over remixed feature hashes;
with 256 bits, the similarity of a candidate pair is estimated four times as finely.
A *fields* sketch (``field_sketch``) gives each field its own bit range in every word and SimHashes
each field's features into its range alone, so one field equal means one block equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from cityhash import CityHash64

HASH_NAME = "CityHash64"
SIMHASH_VERSION = 2  # 2: a signed sum within _TIE of 0 is a tie, bit 0 (1: its sign, set by the rows a product held)
_CHUNK_ROWS = 2048  # rows per pass: the per-row byte histograms stay near 4 MB
_BLAS_ROWS = 128  # rows per product with the sign table: 128 * 256 * 8 is OpenBLAS's one-thread limit
_TIE = 1e-9  # a signed sum this small against the row's weight is a tie (bit 0): see _bits
_SIGNS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float64) * 2 - 1
_WORD_SEEDS = (0, 0x51ED270B27E3F7A1, 0x2545F4914F6CDD1D, 0xD6E8FEB86659FD93)


def feature_hash(feature: str) -> int:
    """CityHash64 of the feature's UTF-8 bytes, as an unsigned 64-bit int."""
    return CityHash64(feature.encode("utf-8"))


@dataclass
class HashedFeatures:
    """The features of consecutive rows, flattened: row r owns the next ``counts[r]`` entries."""

    hashes: np.ndarray  # uint64 CityHash64 of each feature
    weights: np.ndarray  # float64
    idf: np.ndarray  # bool: the feature is a term or n-gram (weighted by IDF when that is on), not a whole value
    counts: np.ndarray  # int64 features per row
    field: np.ndarray | None = None  # int16 position of each feature's column (fields fingerprints only)
    signatures: np.ndarray | None = None  # (rows, words) uint64 per row, when the recipe keeps a signature
    # a text signature's content features (dedup.text.content), hashed: ``signatures`` is then only
    # the words before the MinHash values, which the recipe makes once it knows what the table shares
    content: np.ndarray | None = None  # uint64, row r owns the next ``content_counts[r]``
    content_counts: np.ndarray | None = None
    numbers: np.ndarray | None = None  # (rows, words) uint64: a text signature's number tokens (dedup.text.numbers)

    @classmethod
    def of(cls, rows: Sequence[Mapping[str, float]], fields: Sequence[Sequence[int]] | None = None,
           terms: Sequence[Sequence[bool]] | None = None) -> "HashedFeatures":
        """Hash the features of each row (feature -> weight). ``fields``/``terms``, aligned with each
        row's features, say which field a feature came from and whether it is a term or n-gram (IDF
        applies) rather than a whole value; by default every feature is a term of no particular field."""
        counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
        total = int(counts.sum())
        field = None if fields is None else np.fromiter((f for r in fields for f in r), dtype=np.int16, count=total)
        idf = np.ones(total, dtype=bool) if terms is None else np.fromiter(
            (t for r in terms for t in r), dtype=bool, count=total)
        return cls(
            np.fromiter((CityHash64(f.encode("utf-8")) for r in rows for f in r), dtype=np.uint64, count=total),
            np.fromiter((w for r in rows for w in r.values()), dtype=np.float64, count=total),
            idf, counts, field)

    @classmethod
    def flat(cls, features: Sequence[str], weights: np.ndarray, idf: np.ndarray, counts: np.ndarray,
             field: np.ndarray | None = None) -> "HashedFeatures":
        """From the features of consecutive rows already laid out flat (row r owns the next ``counts[r]``)."""
        hashes = np.fromiter(map(CityHash64, map(str.encode, features)), dtype=np.uint64, count=len(features))
        return cls(hashes, weights, idf, counts, field)

    @classmethod
    def concat(cls, parts: Sequence["HashedFeatures"]) -> "HashedFeatures":
        if not parts:
            return cls(np.empty(0, np.uint64), np.empty(0), np.empty(0, bool), np.empty(0, np.int64))
        field = None if any(p.field is None for p in parts) else np.concatenate([p.field for p in parts])
        sigs = None if any(p.signatures is None for p in parts) else np.concatenate([p.signatures for p in parts])
        content = [None, None] if any(p.content is None for p in parts) else \
            [np.concatenate([getattr(p, a) for p in parts]) for a in ("content", "content_counts")]
        numbers = None if any(p.numbers is None for p in parts) else np.concatenate([p.numbers for p in parts])
        return cls(*(np.concatenate([getattr(p, a) for p in parts]) for a in ("hashes", "weights", "idf", "counts")),  # type: ignore[call-arg]
                   field, sigs, *content, numbers)

    def span(self, lo: int, hi: int) -> "HashedFeatures":
        """Rows ``lo`` to ``hi`` (views of these arrays, no copies)."""
        at, content_at = _starts(self.counts, lo, hi), _starts(self.content_counts, lo, hi)
        return HashedFeatures(self.hashes[at], self.weights[at], self.idf[at], self.counts[lo:hi],
                              None if self.field is None else self.field[at],
                              None if self.signatures is None else self.signatures[lo:hi],
                              None if self.content is None else self.content[content_at],
                              None if self.content_counts is None else self.content_counts[lo:hi],
                              None if self.numbers is None else self.numbers[lo:hi])

    def rows(self, keep: np.ndarray) -> "HashedFeatures":
        """The features of the rows where ``keep`` (bool, one per row) is true."""
        per = np.repeat(keep, self.counts)
        return HashedFeatures(self.hashes[per], self.weights[per], self.idf[per], self.counts[keep],
                              None if self.field is None else self.field[per],
                              None if self.signatures is None else self.signatures[keep],
                              None if self.content is None else self.content[np.repeat(keep, self.content_counts)],
                              None if self.content is None else self.content_counts[keep],
                              None if self.numbers is None else self.numbers[keep])


def _starts(counts: np.ndarray | None, lo: int, hi: int) -> slice:
    """The flat entries of rows ``lo`` to ``hi``, row r owning the next ``counts[r]``."""
    if counts is None:
        return slice(0, 0)
    first = int(counts[:lo].sum())
    return slice(first, first + int(counts[lo:hi].sum()))


def simhash_batch(rows: Sequence[Mapping[str, float]]) -> np.ndarray:
    """Fingerprints (uint64) of feature->weight mappings; every mapping must be non-empty."""
    feats = HashedFeatures.of(rows)
    if len(rows) and feats.counts.min() == 0:
        raise ValueError("a row without features has no fingerprint")
    return sketch(feats.hashes, feats.weights, feats.counts, words=1)[:, 0]


def word_hashes(hashes: np.ndarray, word: int) -> np.ndarray:
    """The feature hashes behind sketch word ``word``: CityHash64 itself for word 0 (the paper's
    fingerprint), a splitmix64 remix of it for the others (independent bits without hashing again)."""
    if word == 0:
        return hashes
    with np.errstate(over="ignore"):
        z = (hashes ^ np.uint64(_WORD_SEEDS[word])) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def sketch(hashes: np.ndarray, weights: np.ndarray, counts: np.ndarray, words: int) -> np.ndarray:
    """SimHash of each row over ``64 * words`` bits, shape (rows, words), uint64; word 0 is the fingerprint.

    Bit b of a row is 1 where the sum over its features of (+weight if the feature hash has bit b,
    else -weight) is > 0. Computed a byte at a time: a weighted histogram of the byte's 256 values
    per row (one bincount) times a 256 x 8 table of +-1, so no (features x bits) matrix is built.
    """
    rows = counts.shape[0]
    out = np.zeros((rows, words), dtype=np.uint64)
    starts = np.concatenate(([0], np.cumsum(counts)))
    row = 0
    while row < rows:
        end = min(rows, row + _CHUNK_ROWS)
        lo, hi = int(starts[row]), int(starts[end])
        owner = np.repeat(np.arange(end - row, dtype=np.int64) * 256, counts[row:end])
        w = weights[lo:hi]
        for word in range(words):
            by = word_hashes(hashes[lo:hi], word).astype("<u8").view(np.uint8).reshape(-1, 8)
            packed = np.empty((end - row, 8), dtype=np.uint8)
            for j in range(8):
                hist = np.bincount(owner + by[:, j], weights=w, minlength=(end - row) * 256)
                packed[:, j] = np.packbits(_bits(hist.reshape(-1, 256)), axis=1, bitorder="little")[:, 0]
            out[row:end, word] = packed.view("<u8")[:, 0]
        row = end
    return out


def _bits(hist: np.ndarray) -> np.ndarray:
    """Where each row's signed sum is > 0, a sum within ``_TIE`` of the row's whole weight counting
    as 0: a sum that is 0 in exact arithmetic comes out of the product as +-1e-16 or so, its sign
    set by how many rows the product held (OpenBLAS's edge kernels add in another order), so a row
    sketched in a smaller batch (an incremental run, a range sketched in pieces) would get another bit."""
    return _signed_sums(hist) > hist.sum(axis=1, keepdims=True) * _TIE


def _signed_sums(hist: np.ndarray) -> np.ndarray:
    """``hist @ _SIGNS``, in products small enough that OpenBLAS keeps them on the calling thread:
    above m*n*k = 262,144 it starts its own threads, which on a busy machine (or beside worker
    processes) spin for longer than the product takes (measured: a 2,048-row chunk 5x slower)."""
    if len(hist) <= _BLAS_ROWS:
        return hist @ _SIGNS
    return np.concatenate([hist[lo:lo + _BLAS_ROWS] @ _SIGNS for lo in range(0, len(hist), _BLAS_ROWS)])


def field_sketch(feats: "HashedFeatures", weights: np.ndarray, block_masks: Sequence[int], words: int) -> np.ndarray:
    """A sketch in which field f's bits (``block_masks[f]`` in every word) are the SimHash of field
    f's features alone; a field without features has all its bits 0.

    Each (row, field) is sketched as a row of its own, then the fields' ranges are put together."""
    if feats.field is None:
        raise ValueError("a fields sketch needs features tagged with their columns")
    fields = len(block_masks)
    rows = feats.counts.shape[0]
    owner = np.repeat(np.arange(rows, dtype=np.int64), feats.counts) * fields + feats.field
    order = np.argsort(owner, kind="stable")
    per_cell = np.bincount(owner, minlength=rows * fields)
    cells = sketch(feats.hashes[order], weights[order], per_cell, words).reshape(rows, fields, words)
    out = np.zeros((rows, words), dtype=np.uint64)
    for f, mask in enumerate(block_masks):
        out |= cells[:, f, :] & np.uint64(mask)
    return out


def simhash(features: Mapping[str, float]) -> int:
    """Fingerprint of one row's features."""
    return int(simhash_batch([features])[0])

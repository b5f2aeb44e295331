"""Weighted SimHash over CityHash64 feature hashes, computed for a whole batch at once.

Per feature: CityHash64 of its UTF-8 text. Per bit i: add the feature's weight where bit i of the
hash is 1, subtract it where 0; the fingerprint's bit i is 1 where the sum is > 0. The per-bit
sums are numpy array operations over every feature of the batch, not a Python loop over 64 bits.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
from cityhash import CityHash64

HASH_NAME = "CityHash64"
_CHUNK_FEATURES = 65536  # features per numpy pass: keeps the (features x 64) matrix near 16 MB


def feature_hash(feature: str) -> int:
    """CityHash64 of the feature's UTF-8 bytes, as an unsigned 64-bit int."""
    return CityHash64(feature.encode("utf-8"))


def simhash_batch(rows: Sequence[Mapping[str, float]]) -> np.ndarray:
    """Fingerprints (uint64) of feature->weight mappings; every mapping must be non-empty."""
    counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    if len(rows) and counts.min() == 0:
        raise ValueError("a row without features has no fingerprint")
    total = int(counts.sum())
    hashes = np.fromiter((CityHash64(f.encode("utf-8")) for r in rows for f in r), dtype=np.uint64, count=total)
    weights = np.fromiter((w for r in rows for w in r.values()), dtype=np.float64, count=total)
    out = np.empty(len(rows), dtype=np.uint64)
    starts = np.concatenate(([0], np.cumsum(counts)))
    row = 0
    while row < len(rows):
        # take as many whole rows as fit in one chunk (at least one)
        end = int(np.searchsorted(starts, starts[row] + _CHUNK_FEATURES, side="right")) - 1
        end = max(end, row + 1)
        lo, hi = int(starts[row]), int(starts[end])
        out[row:end] = _simhash_chunk(hashes[lo:hi], weights[lo:hi], starts[row:end] - lo)
        row = end
    return out


def _simhash_chunk(hashes: np.ndarray, weights: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    # bit i of each hash as column i (little-endian bytes, little bit order)
    bits = np.unpackbits(hashes.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    signed = bits.astype(np.float64) * (2.0 * weights)[:, None] - weights[:, None]  # +w where 1, -w where 0
    sums = np.add.reduceat(signed, offsets, axis=0)
    packed = np.packbits(sums > 0, axis=1, bitorder="little")
    return packed.view("<u8").reshape(-1).astype(np.uint64)


def simhash(features: Mapping[str, float]) -> int:
    """Fingerprint of one row's features."""
    return int(simhash_batch([features])[0])


def hamming(a: int, b: int) -> int:
    return (int(a) ^ int(b)).bit_count()


def hamming_many(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise Hamming distances of two uint64 arrays."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(a, np.uint64), np.asarray(b, np.uint64))).astype(np.int64)


def to_signed(fp: int) -> int:
    """The signed 64-bit integer with the same bits (BSON and SQL BIGINT have no unsigned type)."""
    fp = int(fp)
    return fp - (1 << 64) if fp >= 1 << 63 else fp


def to_unsigned(value: int) -> int:
    value = int(value)
    return value + (1 << 64) if value < 0 else value

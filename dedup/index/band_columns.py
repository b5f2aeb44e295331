"""One column of a text table's candidate keys (dedup.index.bands.BandScheme.keys) made alone, and
the words of its MinHash values as a view.

The candidates' search pairs the rows of one key column at a time (dedup.index.minhash.column_pairs);
made whole, the keys of a 200k run were 24 MB (16 a row) held through the search, and 32 MB more
while made (issue 26, bench/results/mem3-s45.md). A column is made from the words it reads alone:
a band's own MinHash words, or the identity words of one identity key.
"""

from __future__ import annotations

import numpy as np

from itertools import combinations

from .minhash import band_column, combine

KEY_CHUNK = 1 << 13  # rows whose keys are made together (their signature words: 2.4 MB at 3 identity columns)
MAX_KEYS = 16
IDENTITY_KEY_FIELDS = 3  # identity keys pair up the first three identity columns (3 keys)


def identity_pairs(identity: int) -> tuple[tuple[int, ...], ...]:
    """Which of ``identity`` identity columns make each identity key: every two of the first three (one alone if one)."""
    cols = range(min(identity, IDENTITY_KEY_FIELDS))
    return tuple(combinations(cols, 2)) if len(cols) > 1 else tuple((c,) for c in cols)


def band_count(identity: int, perms: int, r: int) -> int:
    """How many bands of ``r`` values a row's keys hold beside its identity keys (MAX_KEYS in all)."""
    return min(perms // r, MAX_KEYS - len(identity_pairs(identity)))


def value_words(scheme, sig: np.ndarray) -> np.ndarray:
    """(rows, perms // 2) uint64: the words of ``scheme``'s MinHash values, two a word (value 2w in
    word w's low half), a view of ``sig``: the values made contiguous for all rows at once were
    49 MB of a 200k run, the candidates' peak (dedup.index.triples; issue 26)."""
    start = 1 + scheme.identity
    return np.asarray(sig, dtype=np.uint64)[:, start:start + scheme.perms // 2]


def identity_key(scheme, sig: np.ndarray, p: int) -> np.ndarray:
    """Identity key ``p`` of ``scheme`` (a BandScheme) for these rows; 0 where the row's content takes none."""
    length, cols = sig[:, 0], scheme.pairs_of_identity[p]
    short = (length > 0) & ((length < scheme.short_chars) | scheme.long_identity)
    ids = sig[:, 1 + np.array(cols)]
    key = combine(ids[:, 0], ids[:, -1] if len(cols) > 1 else ids[:, 0], p + 1)
    return np.where(short, key, np.uint64(0))


def key_column(scheme, sig: np.ndarray, c: int) -> np.ndarray:
    """``scheme.keys(sig)[:, c]``, KEY_CHUNK rows at a time: band c's keys from its own words, or
    identity key ``c - bands``."""
    sig = np.asarray(sig, dtype=np.uint64)
    out = np.empty(len(sig), np.uint64)
    for lo in range(0, len(sig), KEY_CHUNK):
        part = sig[lo:lo + KEY_CHUNK]
        if c >= scheme.bands:
            out[lo:lo + len(part)] = identity_key(scheme, part, c - scheme.bands)
        else:
            out[lo:lo + len(part)] = band_column(part[:, 1 + scheme.identity:], c, scheme.r, valid=part[:, 0] > 0)
    return out

def as_u32(words: np.ndarray) -> np.ndarray:
    """(rows, 2 * words) uint32 view of uint64 rows whose words are contiguous (numpy >= 1.23), else a copy's."""
    try:
        return words.view(np.uint32)
    except ValueError:
        return np.ascontiguousarray(words).view(np.uint32)

"""The content features' per-character work in compiled code (numba), the same values as the
plain path of dedup.text.content (issue 26, session 49).

Profiled on 200k news rows, the text workers spent a fifth of ``TextSignature.parts`` cleaning
the casefolded cells with numpy and cutting them back into strings, re-encoding those strings
to pack their n-grams, and sorting every feature of the batch by (row, hash) to drop a row's
repeats (``shingles.merge``). Here one pass over the batch's code points (``clean``) drops the
noise and folds the digits, and a second (``features``) packs each row's n-grams, adds its
word and number hashes and sorts the row's features alone: a row's distinct hashes in
ascending order, as ``shingles.distinct_per_row`` gives them.

Loaded only where the sketch kernels (dedup.index.kernels) are already loaded in the process:
numba is then imported already, and loading these from numba's cache adds a fraction of that
cost; a small run never loads numba for them. ``DEDUP_NUMBA=0`` or numba missing: the plain
path. ``tests/test_content_kernels.py`` compares the two.
"""

from __future__ import annotations

import functools
import logging
from typing import Callable, NamedTuple

import numpy as np

from ..index import kernels as sketch_kernels
from .scripts import BMP, LATIN_LETTER, marks

log = logging.getLogger(__name__)
NOISE, DIGIT, LATIN = 1, 2, 4  # the bits of a BMP character's class (``classes``)
_state: list = []  # [the compiled kernels, or None where they cannot be had], once tried


class Kernels(NamedTuple):
    clean: Callable
    features: Callable
    distinct: Callable


FUNCTIONS = ("clean", "features", "distinct")


def compiled() -> Kernels | None:
    """These kernels where the sketch kernels are loaded in this process already, else None."""
    if sketch_kernels.compiled(0) is None:  # 0 features: never loads them, only says if they are
        return None
    if not _state:
        _state.append(_compile())
    return _state[0]


def _compile() -> Kernels | None:
    try:
        import numba

        made = Kernels(*sketch_kernels.jitted(numba, [globals()[f] for f in FUNCTIONS]))
        one = np.ones(1, np.uint32)
        length = np.ones(1, np.int64)
        read_only = np.frombuffer(one.tobytes(), np.uint32)  # as content reads a batch's code points
        made.clean(read_only, length, classes(), False)
        hashes, counts = made.features(one, np.zeros(1, np.int64), length, 3, np.ones(1, np.uint64), length,
                                       np.ones(1, np.uint64), length)
        made.distinct(hashes, counts)
    except Exception as exc:  # a numba that cannot compile here: the plain path gives the same values
        log.warning("numba could not compile the content kernels (%s): using the plain code", exc)
        return None
    return made


@functools.cache
def classes() -> np.ndarray:
    """uint8 of the BMP: NOISE (``[\\W_]``), DIGIT (``\\d``), LATIN (a casefolded Latin letter) bits,
    from the tables dedup.text.scripts builds with those same expressions."""
    out = marks(r"[\W_]").astype(np.uint8) * np.uint8(NOISE)
    out |= marks(r"\d").astype(np.uint8) * np.uint8(DIGIT)
    out |= marks(LATIN_LETTER).astype(np.uint8) * np.uint8(LATIN)
    return out


def clean(points, lens, table, fold):  # pragma: no cover - run compiled
    """(kept, kept per row, cleaned length per row, other per row) of texts end to end: the
    characters that are not noise (with ``fold``, each run of digits as one ``0``), the length of
    the kept characters with each digit run counted once, and whether a row holds a Latin letter
    or a character beyond the BMP (such rows are made by the plain path)."""
    rows = lens.shape[0]
    kept = np.empty(points.shape[0], np.uint32)
    kept_lens = np.zeros(rows, np.int64)
    lengths = np.zeros(rows, np.int64)
    other = np.zeros(rows, np.bool_)
    at = 0
    out = 0
    for r in range(rows):
        after_digit = False
        start = out
        length = 0
        for j in range(at, at + lens[r]):
            p = points[j]
            if p >= BMP:
                other[r] = True
                continue
            c = table[p]
            if c & LATIN:
                other[r] = True
            if c & NOISE:
                continue
            digit = (c & DIGIT) != 0
            if not (digit and after_digit):
                length += 1
                kept[out] = np.uint32(48) if digit and fold else p
                out += 1
            elif not fold:
                kept[out] = p
                out += 1
            after_digit = digit
        at += lens[r]
        kept_lens[r] = out - start
        lengths[r] = length
    return kept[:out], kept_lens, lengths, other


def features(pool, starts, lens, n, words, word_counts, numbers, number_counts):  # pragma: no cover - run compiled
    """(hashes, counts per row): each row's hashed character n-grams of ``pool[start:start + len]``
    (``shingles.shingle_codes``: a text shorter than n one n-gram, an empty one none), then its
    ``words`` and its ``numbers`` hashes, repeats included (``distinct`` drops them)."""
    rows = lens.shape[0]
    grams = np.where(lens >= n, lens - n + 1, np.minimum(lens, 1))
    counts = grams + word_counts + number_counts
    out = np.empty(int(counts.sum()), np.uint64)
    w_at, k_at, f = 0, 0, 0
    salt = np.uint64(n)
    for r in range(rows):
        width = min(lens[r], n)
        for g in range(grams[r]):
            code = np.uint64(0)
            for k in range(n):
                point = np.uint64(pool[starts[r] + g + k]) if k < width else np.uint64(0)
                code = (code << np.uint64(21)) | point
            z = (code ^ salt) + np.uint64(0x9E3779B97F4A7C15)  # dedup.index.minhash.splitmix64
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            out[f] = z ^ (z >> np.uint64(31))
            f += 1
        out[f:f + word_counts[r]] = words[w_at:w_at + word_counts[r]]
        f += word_counts[r]
        out[f:f + number_counts[r]] = numbers[k_at:k_at + number_counts[r]]
        f += number_counts[r]
        w_at += word_counts[r]
        k_at += number_counts[r]
    return out, counts


def distinct(hashes, counts):  # pragma: no cover - run compiled
    """``shingles.distinct_per_row`` of hashes grouped by row (``counts`` a row): each row's
    distinct hashes ascending. A row is sorted by its hashes' top bits into as many buckets as it
    has hashes (random 64-bit values: about one a bucket), then by insertion, which moves each only
    within its bucket; a row whose hashes crowd into few buckets is sorted by ``np.sort`` instead."""
    out = np.empty(hashes.shape[0], np.uint64)
    kept = np.zeros(counts.shape[0], np.int64)
    fill = np.empty(2 * max(1, counts.max() if counts.shape[0] else 1) + 1, np.int64)
    at, written = 0, 0
    for r in range(counts.shape[0]):
        m = counts[r]
        row = out[written:written + m]
        bits = 0
        while (1 << bits) < m:
            bits += 1
        shift = np.uint64(64 - bits) if bits else np.uint64(63)
        fill[:(1 << bits) + 1] = 0
        for j in range(at, at + m):
            fill[np.int64(hashes[j] >> shift) * (bits > 0) + 1] += 1
        for b in range(1 << bits):
            fill[b + 1] += fill[b]
        for j in range(at, at + m):
            b = np.int64(hashes[j] >> shift) * (bits > 0)
            row[fill[b]] = hashes[j]
            fill[b] += 1
        moves = 0
        for j in range(1, m):
            v, i = row[j], j - 1
            while i >= 0 and row[i] > v:
                row[i + 1] = row[i]
                i -= 1
            moves += j - 1 - i
            row[i + 1] = v
            if moves > 16 * m:  # crowded buckets
                row.sort()
                break
        for j in range(m):
            if j == 0 or row[j] != row[j - 1]:
                out[written] = row[j]
                written += 1
                kept[r] += 1
        at += m
    return out[:written], kept

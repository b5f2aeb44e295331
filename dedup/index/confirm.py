"""A pair accepted on the content bar alone, near it, decided again on more MinHash values (issue 22).

64 values estimate a pair's Jaccard with an error of about 0.05 at the bar 0.75, so two letters of
one form by two firms (true J 0.743) are joined at 48 of 64 (bench/results/forms9-s47.md). A text
signature may keep ``confirm`` more values of the same features (dedup.text.signature, their own
seed); a long pair accepted only because its estimate reached ``threshold``, and by less than
``confirm_margin``, is kept only when the estimate over all its values reaches the bar too.

The confirming values are kept as their low ``BITS`` bits (b-bit MinHash), sixteen a word: 64
bytes a row for 128 values, not 512, since issue 26's memory budget is per row
(bench/results/forms10-s47.md). Two unequal values share their codes 1 time in 2**BITS, so two
codes are equal with probability J + (1 - J) / 2**BITS; the count of equal codes is corrected for it.

It only takes pairs away, so every screen before the verifier (TextVerifier.screen,
dedup.index.triples) stays a necessary condition, and it reads the two rows' stored signatures
alone, so a full run and an incremental one decide alike.
"""

from __future__ import annotations

import numpy as np

BITS = 4  # the bits kept of each confirming value
A_WORD = 64 // BITS  # codes a signature word
_LOW = np.uint64(0x7777777777777777)
_TOPS = np.uint64(0x8888888888888888)


def codes(values: np.ndarray) -> np.ndarray:
    """(rows, k / A_WORD) uint64 words: the low BITS bits of each of (rows, k) uint32 values, packed
    A_WORD a word, value i of a word at bits BITS * i (k a multiple of A_WORD)."""
    v = np.asarray(values, np.uint32).reshape(len(values), -1, A_WORD)
    out = np.zeros(v.shape[:2], np.uint64)
    for i in range(A_WORD):  # a (rows, k / A_WORD) temporary each, not (rows, k) uint64
        out |= (v[:, :, i] & np.uint32((1 << BITS) - 1)).astype(np.uint64) << np.uint64(BITS * i)
    return out


def equal_codes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many of the codes packed in the rows of ``a`` and ``b`` (uint64 words) are equal."""
    x = a ^ b
    zero = ~(((x & _LOW) + _LOW) | x) & _TOPS  # the top bit of each zero nibble (no carries)
    return np.bitwise_count(zero).sum(axis=1, dtype=np.int64)


def confirmed(v, a: np.ndarray, b: np.ndarray, j: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Whether each pair keeps its acceptance: False only for a pair of ``plain`` (accepted on the
    content bar alone) under ``v.threshold + v.confirm_margin`` whose estimate over its ``v.perms``
    values and ``v.confirm`` confirming codes (from word ``v.confirm_at``, corrected for the codes
    that agree by chance) is under the bar."""
    out = np.ones(len(a), dtype=bool)
    if not (v.confirm and v.confirm_at):
        return out
    near = np.flatnonzero(plain & (j < v.threshold + v.confirm_margin - 1e-9))
    if not len(near):
        return out
    end = v.confirm_at + v.confirm // A_WORD
    same = equal_codes(a[near, v.confirm_at:end], b[near, v.confirm_at:end])
    chance = 1.0 / (1 << BITS)
    estimate = (same / v.confirm - chance) / (1.0 - chance)
    together = (np.rint(j[near] * v.perms) + estimate * v.confirm) / (v.perms + v.confirm)
    out[near] = together >= v.threshold - 1e-9
    return out

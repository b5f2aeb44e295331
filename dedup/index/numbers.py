"""Two rows' number tokens compared exactly: the stored words of dedup.text.numbers (a count, then
the smallest hashes of a row's digit runs with their units, two a word), as rule ``numbers`` of
dedup.index.bands.TextVerifier reads them.
"""

from __future__ import annotations

import numpy as np


def shared_numbers(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(shared, least): for two aligned (pairs, 1 + keep / 2) blocks of ``number_words``, how many
    kept tokens the two rows have in common and the smaller of their (kept) token counts."""
    va = np.ascontiguousarray(a[:, 1:]).view(np.uint32)
    vb = np.ascontiguousarray(b[:, 1:]).view(np.uint32)
    keep = va.shape[1]
    shared = np.zeros(len(a), np.int64)
    for k in range(keep):  # each kept token of a: is it among b's? (0: an empty slot)
        col = va[:, k:k + 1]
        shared += ((vb == col).any(axis=1) & (col[:, 0] != 0))
    least = np.minimum(np.minimum(a[:, 0], b[:, 0]), keep).astype(np.int64)
    return shared, least

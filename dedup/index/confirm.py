"""A pair accepted on the content bar alone, near it, decided again on more MinHash values (issue 22).

64 values estimate a pair's Jaccard with an error of about 0.05 at the bar 0.75, so two letters of
one form by two firms (true J 0.743) are joined at 48 of 64 (bench/results/forms9-s47.md). A text
signature may keep ``confirm`` more values of the same features (dedup.text.signature, their own
seed); a long pair accepted only because its estimate reached ``threshold``, and by less than
``confirm_margin``, is kept only when the estimate over all its values reaches the bar too.

It only takes pairs away, so every screen before the verifier (TextVerifier.screen,
dedup.index.triples) stays a necessary condition, and it reads the two rows' stored signatures
alone, so a full run and an incremental one decide alike.
"""

from __future__ import annotations

import numpy as np

from .band_columns import as_u32


def confirmed(v, a: np.ndarray, b: np.ndarray, j: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Whether each pair keeps its acceptance: False only for a pair of ``plain`` (accepted on the
    content bar alone) under ``v.threshold + v.confirm_margin`` whose estimate over its ``v.perms``
    values and ``v.confirm`` confirming ones (from word ``v.confirm_at``) is under the bar."""
    out = np.ones(len(a), dtype=bool)
    if not (v.confirm and v.confirm_at):
        return out
    near = np.flatnonzero(plain & (j < v.threshold + v.confirm_margin - 1e-9))
    if not len(near):
        return out
    end = v.confirm_at + v.confirm // 2
    wa = as_u32(a[near, v.confirm_at:end])
    wb = as_u32(b[near, v.confirm_at:end])
    equal = np.rint(j[near] * v.perms) + np.count_nonzero(wa == wb, axis=1)
    out[near] = equal >= v.threshold * (v.perms + v.confirm) - 1e-9
    return out

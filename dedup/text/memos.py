"""A process's featurising memos, let go at once.

A text worker of a large table goes on to sketch the spilled ranges once the read is done
(dedup.runs.sketching) with numba's kernels loaded; the memos featurising filled (normalised
cells, number and feature hashes, the token tables) and rjieba's dictionary would stay beside
them to the run's end. Each is rebuilt on its first use should the process featurise again.
"""

from __future__ import annotations

from . import batch, normalize, numbers, segment, shingles


def forget(segmenter: "segment.Segmenter | None" = None) -> None:
    """Empty the featurising memos (and ``segmenter``'s token tables); drop rjieba's dictionary."""
    normalize.forget()
    batch.forget()
    numbers.forget()
    shingles.forget()
    segment.forget()
    if segmenter is not None:
        segmenter.forget()

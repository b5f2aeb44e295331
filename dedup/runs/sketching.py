"""The sketch stage of a whole-table run, spread over worker processes.

Once the run knows what the table shares (IDF term counts, common content features) each row's
sketch depends on that row alone, so the spilled ranges of rows (dedup.runs.spill, SPILL_ROWS
rows each) are sketched by ``workers`` processes. The workers are forked after the read; each
reads the ranges it is given from the spill's files and sends back their sketches, so no process
holds more than a range's features and temporaries. Before, the weighted MinHash of issue 22 took
one process 45 s of a 200,000-row run on 16 cores (bench/results/scale16-stop31.md). The result is
the same array ``Recipe.sketch`` makes of all the rows at once.
"""

from __future__ import annotations

import functools

import numpy as np

from ..index import kernels
from ..text.terms import TermModel
from .recipe import Recipe
from .spill import FeatureSpill
from .workers import Workers

SKETCH_ROWS = 1 << 12  # rows of a range sketched at a time (their temporaries: about 40 MB of demo rows)


def sketch_spilled(recipe: Recipe, spill: FeatureSpill, terms: TermModel | None, workers: int = 1) -> np.ndarray:
    """``recipe.sketch`` of every spilled row (features weighed by ``terms``): range by range in
    this process, or by ``workers`` processes when there are several ranges."""
    if len(spill) <= 1 or workers <= 1:
        return np.concatenate([_sketch_range(recipe, spill, terms, i) for i in range(len(spill))])
    out: np.ndarray | None = None
    work = functools.partial(_in_worker, recipe, spill, terms)
    with Workers(work, min(workers, len(spill)), "sketch worker") as pool:
        pending = [pool.put(i) for i in range(len(spill))]
        at = 0
        for seq in pending:
            part = pool.get(seq)
            if out is None:
                out = np.empty((spill.rows, *part.shape[1:]), part.dtype)
            out[at:at + len(part)] = part
            at += len(part)
    assert out is not None
    return out


def _in_worker(recipe: Recipe, spill: FeatureSpill, terms: TermModel | None, i: int) -> np.ndarray:
    """``_sketch_range`` in a sketch worker, which loads the compiled kernels (dedup.index.kernels)
    once, from numba's cache: loaded in the run's process before the fork, numba's 130 MB stayed
    in it to the run's end (200k demo rows: peak 393 MB against 290, bench/results/sketch-s48.md)."""
    kernels.compiled()
    return _sketch_range(recipe, spill, terms, i)


def _sketch_range(recipe: Recipe, spill: FeatureSpill, terms: TermModel | None, i: int) -> np.ndarray:
    """Range ``i``'s sketches, SKETCH_ROWS rows at a time: the weights and the row of each feature
    made for a whole range (16,384 rows) took a sketch worker about 150 MB over its features."""
    feats = spill.load(i)
    n = len(feats.counts)
    if n <= SKETCH_ROWS:
        return recipe.sketch(feats, terms)
    out: np.ndarray | None = None
    for lo in range(0, n, SKETCH_ROWS):
        part = recipe.sketch(feats.span(lo, min(lo + SKETCH_ROWS, n)), terms)
        if out is None:
            out = np.empty((n, *part.shape[1:]), part.dtype)
        out[lo:lo + len(part)] = part
    assert out is not None
    return out

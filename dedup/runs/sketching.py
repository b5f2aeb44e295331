"""The sketch stage of a whole-table run, spread over worker processes.

Once the run knows what the table shares (IDF term counts, common content features) each row's
sketch depends on that row alone, so the rows are cut into SKETCH_ROWS ranges and sketched by
``workers`` processes. The workers are forked after the features are read, so they inherit them
(copy-on-write, never pickled) and get only row ranges; they send back the sketches. Before, the
weighted MinHash of issue 22 took one process 45 s of a 200,000-row run on 16 cores
(bench/results/scale16-stop31.md). The result is the same array ``Recipe.sketch`` makes.
"""

from __future__ import annotations

import functools

import numpy as np

from ..index.fingerprint import HashedFeatures
from ..text.terms import TermModel
from .recipe import Recipe
from .workers import Workers

SKETCH_ROWS = 1 << 14  # rows a worker sketches at a time; a table of fewer is sketched in this process


def sketch_rows(recipe: Recipe, feats: HashedFeatures, terms: TermModel | None, workers: int = 1) -> np.ndarray:
    """``recipe.sketch(feats, terms)``, in ``workers`` processes when there are several ranges;
    in one process range by range, so the weights and other temporaries are a range's, not the table's."""
    rows = len(feats.counts)
    if rows <= SKETCH_ROWS:
        return recipe.sketch(feats, terms)
    ranges = [(lo, min(rows, lo + SKETCH_ROWS)) for lo in range(0, rows, SKETCH_ROWS)]
    if workers <= 1:
        return np.concatenate([_sketch_range(recipe, feats, terms, r) for r in ranges])
    out: np.ndarray | None = None
    work = functools.partial(_sketch_range, recipe, feats, terms)
    with Workers(work, min(workers, len(ranges)), "sketch worker") as pool:
        pending = [(lo, hi, pool.put((lo, hi))) for lo, hi in ranges]
        for lo, hi, seq in pending:
            part = pool.get(seq)
            if out is None:
                out = np.empty((rows, *part.shape[1:]), part.dtype)
            out[lo:hi] = part
    assert out is not None
    return out


def _sketch_range(recipe: Recipe, feats: HashedFeatures, terms: TermModel | None, bounds: tuple[int, int]) -> np.ndarray:
    lo, hi = bounds
    return recipe.sketch(row_range(feats, lo, hi), terms)


def row_range(feats: HashedFeatures, lo: int, hi: int) -> HashedFeatures:
    """The features of rows ``lo`` to ``hi`` (views, no copy)."""
    ends = np.cumsum(feats.counts)
    start, stop = (int(ends[lo - 1]) if lo else 0), int(ends[hi - 1]) if hi else 0
    content = None
    if feats.content is not None and feats.content_counts is not None:
        cends = np.cumsum(feats.content_counts)
        cstart, cstop = (int(cends[lo - 1]) if lo else 0), int(cends[hi - 1]) if hi else 0
        content = (feats.content[cstart:cstop], feats.content_counts[lo:hi])
    return HashedFeatures(feats.hashes[start:stop], feats.weights[start:stop], feats.idf[start:stop], feats.counts[lo:hi],
                          None if feats.field is None else feats.field[start:stop],
                          None if feats.signatures is None else feats.signatures[lo:hi],
                          *(content or (None, None)))

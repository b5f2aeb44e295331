"""The sketch stage of a whole-table run, spread over worker processes.

Once the run knows what the table shares (IDF term counts, common content features) each row's
sketch depends on that row alone, so the spilled ranges of rows (dedup.runs.spill, SPILL_ROWS
rows each) are sketched by worker processes. Each reads the ranges it is given from the spill's
files and sends back their sketches, so no process holds more than a range's features and
temporaries. Before, the weighted MinHash of issue 22 took one process 45 s of a 200,000-row run
on 16 cores (bench/results/scale16-stop31.md). The result is the same array ``Recipe.sketch``
makes of all the rows at once.

The workers are the run's text workers (dedup.runs.parallel.Featurizing), forked BEFORE the read,
while the run's process holds little more than the interpreter; those that sketch load the
compiled kernels (dedup.index.kernels) as their first task, while the parent reads its first
batches; after the read they are sent what the ranges are sketched with. Forked after the read,
each started with the parent's 275 MB of RSS and added numba's: 200k demo rows peaked at 352 MB
against 284 (bench/results/sketch-s48.md, round two). Until session 49 they were a second pool of
their own, forked before the read and idle through it, each loading numba beside the text workers
(bench/results/workers-s49.md).
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

import numpy as np

from ..index import kernels
from ..index.fingerprint import HashedFeatures
from ..text import memos
from ..text.segment import Segmenter
from ..text.terms import TermModel
from .heap import give_back_freed
from .recipe import Recipe
from .spill import FeatureSpill

if TYPE_CHECKING:
    from .parallel import Featurizing

SKETCH_ROWS = 1 << 10  # rows of a range sketched at a time (4,096: a sketching worker's peak 13 MB higher, 200k demo rows)


def sketch_spilled(recipe: Recipe, spill: FeatureSpill, terms: TermModel | None,
                   workers: Featurizing | None = None) -> np.ndarray:
    """``recipe.sketch`` of every spilled row (features weighed by ``terms``): by the text
    ``workers`` that loaded the kernels when there are several ranges and such workers, else range
    by range in this process."""
    if len(spill) <= 1 or workers is None or workers.pool is None or not workers.sketchers:
        return np.concatenate([_sketch_range(recipe, spill, terms, i) for i in range(len(spill))])
    pool, among = workers.pool, workers.sketchers
    context = pickle.dumps((recipe, spill, terms), pickle.HIGHEST_PROTOCOL)
    for seq in workers.loading + pool.each(("context", context), among):  # a pickling error is raised here, not lost in a queue's thread
        pool.get(seq)
    workers.loading = []
    out: np.ndarray | None = None
    at = 0
    for seq in [pool.put(("range", i), among) for i in range(len(spill))]:
        part = pool.get(seq)
        if out is None:
            out = np.empty((spill.rows, *part.shape[1:]), part.dtype)
        out[at:at + len(part)] = part
        at += len(part)
    assert out is not None
    return out


class Sketcher:
    """A text worker's sketch tasks: ``("load", None)`` loads the compiled kernels (from numba's cache;
    loaded in the run's process, numba's 130 MB stayed in it to the run's end), ``("context",
    pickled (recipe, spill, terms))`` keeps what the ranges are sketched with, ``("range", i)``
    gives range i's sketches."""

    def __init__(self, segmenter: Segmenter | None = None) -> None:
        self.context: tuple[Recipe, FeatureSpill, TermModel | None] | None = None
        self.segmenter = segmenter  # the text worker's, whose memos go once it sketches

    def __call__(self, task: tuple[str, Any]) -> np.ndarray | None:
        kind, value = task
        if kind == "load":
            kernels.compiled()
        elif kind == "context":
            self.context = pickle.loads(value)
            memos.forget(self.segmenter)  # a text worker's featurising is done: 62 MB at 200k demo rows (session 49)
            give_back_freed()  # the read's batches featurised here
        else:
            assert self.context is not None
            out = _sketch_range(*self.context, value)
            give_back_freed()  # else the freed ranges' heap stayed: 185 -> 305 MB over 6 ranges (200k demo rows)
            return out
        return None


def _sketch_range(recipe: Recipe, spill: FeatureSpill, terms: TermModel | None, i: int) -> np.ndarray:
    """Range ``i``'s sketches, a written part (``FeatureSpill.pieces``) at a time."""
    parts = [_sketched(recipe, feats, terms) for feats in spill.pieces(i)]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _sketched(recipe: Recipe, feats: HashedFeatures, terms: TermModel | None) -> np.ndarray:
    """The rows' sketches, SKETCH_ROWS rows at a time: the weights and the row of each feature
    made for a whole range (16,384 rows) took a sketching worker about 150 MB over its features."""
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

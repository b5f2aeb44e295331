"""Rows of a table gathered where they are read: ``table[at]`` without making all of it.

A full run finds its rows' distinct sketches (dedup.index.pairs.distinct_rows: the distinct ones in
key order and each row's place among them) and held the rows' sketches beside them: a second copy
of nearly every sketch, 0.3 KB a row, in the run's process and in the store writer forked from it
(issue 26, bench/results/memory-s38.md). The distinct sketches and each row's place give the rows'
sketches back a slice at a time (the store's blobs, dedup.store.model.sketch_blobs), a column (the
fingerprints) or some rows (star clustering's checks); ``np.asarray`` makes them all."""

from __future__ import annotations

import numpy as np


class GatheredRows:
    """The rows ``table[at]`` of a 2-D ``table``, answering what the runs and stores ask of a
    (rows, words) matrix: its shape and length, rows by slice or index array, ``[rows, columns]``."""

    ndim = 2

    def __init__(self, table: np.ndarray, at: np.ndarray, once: bool = False):
        self.table, self.at = table, at
        self.once = once  # read once, by the store that writes them, which then lets them go (release)
        self.shape = (len(at), table.shape[1])
        self.dtype = table.dtype
        self.size = self.shape[0] * self.shape[1]

    def __len__(self) -> int:
        return len(self.at)

    def __getitem__(self, key) -> np.ndarray:
        if isinstance(key, tuple):  # [rows, columns]: the columns' view of the table, then its rows
            rows, cols = key
            return self.table[:, cols][self.at[rows]]
        return self.table[self.at[key]]

    def columns(self, cols: slice) -> GatheredRows:
        """These rows' words ``cols``, still not gathered (the sketch words after the fingerprint)."""
        return GatheredRows(self.table[:, cols], self.at, self.once)

    def release(self) -> None:
        """Where the rows are read ``once``, the table and places let go (empty ones in their place;
        the shape stays): the store writer's distinct sketches, 72 MB of a 200k run, were held
        through the block entries' write although the rows were written first (issue 26)."""
        if self.once:
            self.table = np.empty((0, self.shape[1]), self.dtype)
            self.at = np.empty(0, self.at.dtype)

    def reshape(self, *shape) -> np.ndarray:
        """The whole array reshaped (``FullResult.sketches`` handed to code that takes any matrix)."""
        return np.asarray(self).reshape(*shape)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = self.table[self.at]
        return out if dtype is None else out.astype(dtype, copy=False)

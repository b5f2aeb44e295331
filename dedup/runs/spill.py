"""A whole-table run's features kept out of the parent's memory, in files of a range of rows each.

Issue 26: the parent held every row's features (about 3.2 KB a demo row, plus a second copy while
``HashedFeatures.concat`` joined the batches) from the end of the read to the end of the sketch
stage, the largest part of a full run's peak. Here the batches' features are gathered into files of
SPILL_ROWS rows in a temporary directory as they arrive; the parent holds one range at a time. A
table of at most SPILL_ROWS rows never touches the disk. The learning (dedup.runs.learning) and the
sketch workers (dedup.runs.sketching) then read the files one range at a time.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path

import numpy as np

from ..errors import DedupError
from ..index.fingerprint import HashedFeatures

SPILL_ROWS = 1 << 14  # rows of one file (a range the sketch workers take); a table of fewer stays in memory
FIELDS = [f.name for f in dataclasses.fields(HashedFeatures)]


class FeatureSpill:
    """Features of consecutive rows added batch by batch (``add``), read back range by range (``load``)."""

    def __init__(self, rows_per_file: int | None = None):
        self.rows_per_file = rows_per_file or SPILL_ROWS
        self.directory: Path | None = None
        self.files: list[Path] = []
        self.bounds: list[tuple[int, int]] = []  # the table rows each range holds (before ``keep``)
        self.held: list[HashedFeatures] = []  # the batches not yet written
        self.held_rows = self.total = 0
        self.memory: HashedFeatures | None = None  # the one range of a table never written
        self.kept: np.ndarray | None = None  # bool per table row: the rows read keeps (None: all)

    def __enter__(self) -> "FeatureSpill":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def add(self, feats: HashedFeatures) -> None:
        """The next batch's features; written out once SPILL_ROWS rows are held."""
        self.held.append(feats)
        self.held_rows += len(feats.counts)
        if self.held_rows >= self.rows_per_file:
            self._write()

    def finish(self, keep: np.ndarray | None = None) -> None:
        """All batches added; ``keep`` (bool per row added): the rows to load, None for all."""
        if self.files:
            self._write()
        else:
            self.memory = HashedFeatures.concat(self.held)
            self.bounds.append((0, self.held_rows))
            self.total, self.held, self.held_rows = self.held_rows, [], 0
        self.kept = keep

    def __len__(self) -> int:
        """The number of ranges."""
        return len(self.bounds)

    @property
    def rows(self) -> int:
        """The rows ``load`` gives over all ranges."""
        return self.total if self.kept is None else int(self.kept.sum())

    def load(self, i: int) -> HashedFeatures:
        """Range ``i``'s features (the rows kept)."""
        if self.memory is not None:
            feats = self.memory
        else:
            with np.load(self.files[i]) as arrays:
                feats = HashedFeatures(**{name: arrays[name] for name in arrays.files})
        if self.kept is None:
            return feats
        lo, hi = self.bounds[i]
        return feats.rows(self.kept[lo:hi])

    def close(self) -> None:
        """Remove the files."""
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
        self.directory, self.files, self.memory, self.held = None, [], None, []

    def _write(self) -> None:
        if not self.held:
            return
        feats = HashedFeatures.concat(self.held)
        self.held = []
        try:
            if self.directory is None:
                self.directory = Path(tempfile.mkdtemp(prefix="dedup-features-"))
            path = self.directory / f"{len(self.files):06d}.npz"
            with open(path, "wb") as f:
                np.savez(f, **{name: a for name in FIELDS if (a := getattr(feats, name)) is not None})
        except OSError as e:  # a full disk: one line, and where the files go
            raise DedupError(f"cannot write the rows' features to {self.directory or tempfile.gettempdir()}: "
                             f"{e.strerror or e} (set TMPDIR to a directory with room, about 3.4 KB a row)") from e
        self.files.append(path)
        self.bounds.append((self.total, self.total + self.held_rows))
        self.total += self.held_rows
        self.held_rows = 0

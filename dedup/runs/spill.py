"""A whole-table run's features kept out of the parent's memory, in files of a range of rows each.

Issue 26: the parent held every row's features (about 3.2 KB a demo row, plus a second copy while
``HashedFeatures.concat`` joined the batches) from the end of the read to the end of the sketch
stage, the largest part of a full run's peak. Here the batches' features go to files in a temporary
directory as they arrive, in ranges of about SPILL_ROWS rows; the parent holds one range at a time.
A table of at most SPILL_ROWS rows never touches the disk. The learning (dedup.runs.learning) and
the text workers, sketching (dedup.runs.sketching), then read the files one range at a time.

Where the table fills several ranges and has text workers (dedup.runs.parallel), they write each
batch's features themselves (``write_features``, at the ``stem`` the parent gives the batch) and send back
only where they are (``Written``): the parent keeps the order and each range's row bounds. Before
session 49 the features were pickled back, unpickled and written by the parent (2.5 s of the text
workers' and 2.1 s of the parent's CPU at 200k news rows).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path
from typing import Iterator, NamedTuple

import numpy as np

from ..errors import DedupError
from ..index.fingerprint import HashedFeatures

SPILL_ROWS = 1 << 14  # rows of a range (a text worker sketches one at a time); a table of fewer stays in memory
FIELDS = [f.name for f in dataclasses.fields(HashedFeatures)]


class Written(NamedTuple):
    """A batch's features in files (``write_features``): their path's stem, rows and fields."""

    stem: Path
    rows: int
    fields: tuple[str, ...]


def write_features(feats: HashedFeatures, stem: Path) -> Written:
    """``feats`` in a .npy file a field named after ``stem``: read back by memory map, the batches a
    text worker wrote are joined into their range with no second copy."""
    names = tuple(name for name in FIELDS if getattr(feats, name) is not None)
    try:
        for name in names:
            np.save(f"{stem}.{name}.npy", getattr(feats, name), allow_pickle=False)
    except OSError as e:  # a full disk: one line, and where the files go
        raise cannot_write(stem.parent, e) from e
    return Written(stem, len(feats.counts), names)


def cannot_write(directory: Path, e: OSError) -> DedupError:
    return DedupError(f"cannot write the rows' features to {directory}: {e.strerror or e} "
                      "(set TMPDIR to a directory with room, about 3.4 KB a row)")


def read_features(parts: list[Written]) -> HashedFeatures:
    """The features of ``parts``, joined in order (HashedFeatures.concat's answer)."""
    names = [n for n in FIELDS if all(n in p.fields for p in parts)]
    return HashedFeatures(**{n: np.concatenate([np.load(f"{p.stem}.{n}.npy", mmap_mode="r") for p in parts])
                             for n in names})


class FeatureSpill:
    """Features of consecutive rows added batch by batch (``add``: the features, or the files a text
    worker wrote them to, at ``stem()``), read back range by range (``load``)."""

    def __init__(self, rows_per_file: int | None = None):
        self.rows_per_file = rows_per_file or SPILL_ROWS
        self.directory: Path | None = None
        self.files: list[list[Written]] = []  # each range's batches, in files
        self.bounds: list[tuple[int, int]] = []  # the table rows each range holds (before ``keep``)
        self.held: list[HashedFeatures] = []  # the batches not yet written
        self.parts: list[Written] = []  # the next range's batches written so far
        self.held_rows = self.total = self.stems = 0
        self.memory: HashedFeatures | None = None  # the one range of a table never written
        self.kept: np.ndarray | None = None  # bool per table row: the rows read keeps (None: all)

    def __enter__(self) -> "FeatureSpill":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def stem(self) -> Path:
        """Where the next batch's files go (its features to come back as ``Written``)."""
        try:
            if self.directory is None:
                self.directory = Path(tempfile.mkdtemp(prefix="dedup-features-"))
        except OSError as e:
            raise cannot_write(Path(tempfile.gettempdir()), e) from e
        self.stems += 1
        return self.directory / f"{self.stems:06d}"

    def add(self, feats: HashedFeatures | Written) -> None:
        """The next batch's features (or their files); a range is closed once SPILL_ROWS rows are held."""
        if isinstance(feats, Written):
            self._write()
            self.parts.append(feats)
            self.held_rows += feats.rows
        else:
            self.held.append(feats)
            self.held_rows += len(feats.counts)
        if self.held_rows >= self.rows_per_file:
            self._close()

    def finish(self, keep: np.ndarray | None = None) -> None:
        """All batches added; ``keep`` (bool per row added): the rows to load, None for all."""
        if self.files or self.parts:
            self._close()
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
            feats = read_features(self.files[i])
        if self.kept is None:
            return feats
        lo, hi = self.bounds[i]
        return feats.rows(self.kept[lo:hi])

    def pieces(self, i: int) -> Iterator[HashedFeatures]:
        """Range ``i``'s features (the rows kept) a written part at a time, never joined: a text
        worker sketching a range held the whole range's features beside its kernels, the largest
        process of a 200k-row run (session 49, lead)."""
        if self.memory is not None:
            yield self.load(i)
            return
        lo = self.bounds[i][0]
        for part in self.files[i]:
            feats = read_features([part])
            yield feats if self.kept is None else feats.rows(self.kept[lo:lo + part.rows])
            lo += part.rows

    def close(self) -> None:
        """Remove the files."""
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
        self.directory, self.files, self.memory, self.held, self.parts = None, [], None, [], []

    def _write(self) -> None:
        """The held batches into one part of the range."""
        if self.held:
            feats = HashedFeatures.concat(self.held)
            self.held = []
            self.parts.append(write_features(feats, self.stem()))

    def _close(self) -> None:
        """The range's parts, from the rows after the last range's."""
        self._write()
        if not self.parts:
            return
        self.files.append(self.parts)
        self.parts = []
        self.bounds.append((self.total, self.total + self.held_rows))
        self.total += self.held_rows
        self.held_rows = 0

"""Featurising batches of rows, in worker processes when there are cores to spare.

Segmentation (jieba, pure Python) is the cost of a run; it parallelises across processes, not
threads. Batches go to worker processes the run watches (dedup.runs.workers: one that dies fails
the run at once) with a bounded number in flight, so memory stays flat and results come back in
reading order. Small tables never start a pool.

A table of several spill ranges (dedup.runs.spill) and several workers gets its pool forked before
the read; the workers write the batches' features to the spill themselves and send back where they
are, and after the read the same workers sketch the ranges (dedup.runs.sketching): those that sketch
load the compiled kernels (dedup.index.kernels) as their first task, while the parent reads its first
batches, and featurise with them from then on (dedup.text.token_hashes, dedup.text.content_kernels).
Until session 49 a second pool of sketch workers was forked for that, idle through the read, each
loading numba beside the text workers (bench/results/workers-s49.md).
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, Iterator

from ..index.fingerprint import HashedFeatures
from ..store import Skipped
from ..text import nfkc_batch
from ..text.batch_terms import Layout, Segments, field_plan, hashed_layout, row_segments
from ..text.features import Featurizer
from .sketching import Sketcher
from .spill import FeatureSpill, write_features
from .workers import Workers

Rows = list[tuple[str, dict]]
Output = tuple[list[str], HashedFeatures, list[Skipped]]  # keys of rows with features, their features, skipped rows


def resolve_workers(setting: int | str | None) -> int:
    """``auto`` (or None) = the number of cores; otherwise the given number, at least 1."""
    if setting in (None, "auto"):
        return max(1, os.cpu_count() or 1)
    return max(1, int(setting))


def featurize_rows(featurizer: Featurizer, rows: Rows) -> Output:
    """Hashed features of the rows that have any; the others as skipped (no features or unreadable).

    Weighting and SimHash come after, once the whole run's term counts are known (dedup.terms).
    The batch's tokens are judged and hashed at once (dedup.text.batch_terms); ``hashed_batch``
    of the rows' ``occurrences`` is the plain way it is tested against."""
    layout, skipped = Layout(), []
    read: list[tuple[str, dict, int]] = []  # rows read: key, row, skipped rows before it
    seen: dict[tuple, Segments] = {}  # the field values of a batch's rows -> their segments: copies are segmented once
    names = [f.name for f in featurizer.fields]
    plan = field_plan(featurizer)
    texts = [f.name for f in featurizer.fields if f.kind == "text"]
    nfkc_batch.remember(row.get(name) for _, row in rows for name in texts)
    for key, row in rows:
        try:
            values = tuple(map(row.get, names))
            plain = all(v is None or type(v) in (str, int) for v in values)  # hashable, and never True == 1
            f = seen.get(values) if plain else None
            if f is None:
                f = row_segments(featurizer, row, plan)
                if plain:
                    seen[values] = f
        except (ValueError, TypeError, ArithmeticError) as e:  # a value no text can be made of (UnicodeDecodeError is a ValueError)
            skipped.append(Skipped(key, "unreadable", f"{type(e).__name__}: {e}"))
            continue
        layout.add(len(read), f)
        read.append((key, row, len(skipped)))
    feats, has = hashed_layout(featurizer, layout, len(read))
    keys, kept = [], []
    for (key, row, before), some in zip(reversed(read), reversed(has.tolist())):  # from the end: insertions keep their places
        if some:
            keys.append(key)
            kept.append(row)
        else:
            skipped.insert(before, Skipped(key, "no_features", "every field is empty"))
    keys.reverse()
    kept.reverse()
    if hasattr(featurizer.signature, "parts"):  # a text signature: weighed once the run knows what rows share
        feats.signatures, feats.content, feats.content_counts = featurizer.signature.parts(kept)
        feats.numbers = featurizer.signature.numbers_of(kept)
    elif featurizer.signature is not None:
        feats.signatures = featurizer.signature.of_rows(kept)
    return keys, feats, skipped


class TextWorker:
    """A text worker's tasks: ``("rows", rows)`` featurises a batch; ``("spill", (rows, stem))``
    too, and writes its features to files at ``stem`` (dedup.runs.spill), sending back ``Written``
    in their place: pickled back, they cost this worker their pickling and the run's process their
    unpickling, joining and writing, and 650 MB went through the pipes at 200k news rows
    (bench/results/workers-s49.md)."""

    def __init__(self, featurizer: Featurizer):
        self.featurizer = featurizer
        self.sketcher = Sketcher(featurizer.segmenter)

    def __call__(self, task: tuple[str, Any]) -> Any:
        kind, value = task
        if kind == "rows":
            return featurize_rows(self.featurizer, value)
        if kind != "spill":  # after the read: the sketch tasks (dedup.runs.sketching.Sketcher)
            return self.sketcher(task)
        rows, stem = value
        keys, feats, skipped = featurize_rows(self.featurizer, rows)
        return keys, write_features(feats, stem), skipped


class Featurizing:
    """Submit batches, get their outputs back in order: ``for out, n in f.submit(rows): ...`` then ``f.drain()``.

    ``ranges``: the spill ranges the table is expected to fill. With more than one, and several
    workers, the pool is forked now (before the read's heap exists), its first ``sketchers``
    workers load the compiled kernels, to sketch the ranges once the read is done, and the workers
    write the batches' features to ``spill``'s files (an output's features are then ``Written``,
    for ``FeatureSpill.add``; a batch featurised in this process comes back whole). A smaller table
    starts its pool at its second batch, its features come back whole and no worker loads numba."""

    def __init__(self, featurizer: Featurizer, workers: int, ranges: int = 1, spill: FeatureSpill | None = None):
        self.featurizer = featurizer
        self.workers = workers
        self.pool: Workers | None = None
        self.pending: deque[tuple[int, int]] = deque()  # (the batch's number in the pool, its row count)
        self.batches = 0
        self.held: tuple[Rows, int] | None = None  # the first batch, until a second shows a pool is worth it
        self.sketchers = n if workers > 1 and (n := min(workers, ranges)) > 1 else 0
        self.spill = spill if self.sketchers else None
        self.loading: list[int] = []  # the sketchers' kernel loads, got before their first range
        if self.sketchers:
            self.pool = Workers(TextWorker(self.featurizer), self.workers, "text worker")
            self.loading = self.pool.each(("load", None), self.sketchers)

    def __enter__(self) -> "Featurizing":
        return self

    def __exit__(self, kind, *exc) -> None:
        if self.pool is not None:
            self.pool.__exit__(kind, *exc)  # an error (a worker dead, Ctrl-C) kills them all at once

    def submit(self, rows: Rows, n: int) -> Iterator[tuple[Output, int]]:
        """``n`` is the number of rows the batch stands for (its unreadable ones included)."""
        self.batches += 1
        if self.workers <= 1:
            yield featurize_rows(self.featurizer, rows), n
            return
        if self.pool is None and self.batches == 1:  # it may be the only one (no pool then): held until the next comes
            self.held = (rows, n)
            return
        if self.pool is None:
            self.pool = Workers(TextWorker(self.featurizer), self.workers, "text worker")
            first, count = self.held or ([], 0)
            self.held = None
            self.pending.append((self.pool.put(self._task(first)), count))
        self.pending.append((self.pool.put(self._task(rows)), n))
        while len(self.pending) > 2 * self.workers:
            seq, count = self.pending.popleft()
            yield self.pool.get(seq), count

    def _task(self, rows: Rows) -> tuple[str, Any]:
        return ("rows", rows) if self.spill is None else ("spill", (rows, self.spill.stem()))

    def drain(self) -> Iterator[tuple[Output, int]]:
        if self.held is not None:  # the table was one batch: featurised here, no pool started
            (rows, n), self.held = self.held, None
            yield featurize_rows(self.featurizer, rows), n
        while self.pending:
            seq, count = self.pending.popleft()
            yield self.pool.get(seq), count

"""Featurising batches of rows, in worker processes when there are cores to spare.

Segmentation (jieba, pure Python) is the cost of a run; it parallelises across processes, not
threads. Batches go to a process pool with a bounded number in flight, so memory stays flat and
results come back in reading order. Small tables never start a pool.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Iterator

from ..index.fingerprint import HashedFeatures
from ..store import Skipped
from ..text.batch import hashed_batch
from ..text.features import Featurizer

Rows = list[tuple[str, dict]]
Output = tuple[list[str], HashedFeatures, list[Skipped]]  # keys of rows with features, their features, skipped rows

_WORKER_FEATURIZER: Featurizer | None = None


def resolve_workers(setting: int | str | None) -> int:
    """``auto`` (or None) = the number of cores; otherwise the given number, at least 1."""
    if setting in (None, "auto"):
        return max(1, os.cpu_count() or 1)
    return max(1, int(setting))


def featurize_rows(featurizer: Featurizer, rows: Rows) -> Output:
    """Hashed features of the rows that have any; the others as skipped (no features or unreadable).

    Weighting and SimHash come after, once the whole run's term counts are known (dedup.terms)."""
    found, keys, skipped, kept = [], [], [], []
    seen: dict[tuple, list] = {}  # the field values of a batch's rows -> their features: copies are segmented once
    names = [f.name for f in featurizer.fields]
    for key, row in rows:
        try:
            values = tuple(row.get(n) for n in names)
            plain = all(v is None or type(v) in (str, int) for v in values)  # hashable, and never True == 1
            f = seen.get(values) if plain else None
            if f is None:
                f = featurizer.occurrences(row)
                if plain:
                    seen[values] = f
        except (ValueError, TypeError, ArithmeticError) as e:  # a value no text can be made of (UnicodeDecodeError is a ValueError)
            skipped.append(Skipped(key, "unreadable", f"{type(e).__name__}: {e}"))
            continue
        if f:
            found.append(f)
            keys.append(key)
            kept.append(row)
        else:
            skipped.append(Skipped(key, "no_features", "every field is empty"))
    feats = hashed_batch(featurizer, found)
    if featurizer.signature is not None:
        feats.signatures = featurizer.signature.of_rows(kept)
    return keys, feats, skipped


def _init_worker(featurizer: Featurizer) -> None:
    global _WORKER_FEATURIZER
    _WORKER_FEATURIZER = featurizer
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it shuts the pool down
    die_with_parent()


def die_with_parent() -> None:
    """On Linux, ask the kernel to end this process (a worker, the store writer) when its parent
    dies, even by SIGKILL, so a killed run leaves no orphan processes behind."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the request took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _work(rows: Rows) -> Output:
    return featurize_rows(_WORKER_FEATURIZER, rows)


class Featurizing:
    """Submit batches, get their outputs back in order: ``for out, n in f.submit(rows): ...`` then ``f.drain()``."""

    def __init__(self, featurizer: Featurizer, workers: int):
        self.featurizer = featurizer
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.pending: deque[tuple[Future, int]] = deque()
        self.batches = 0

    def __enter__(self) -> "Featurizing":
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def submit(self, rows: Rows, n: int) -> Iterator[tuple[Output, int]]:
        """``n`` is the number of rows the batch stands for (its unreadable ones included)."""
        self.batches += 1
        if self.workers <= 1 or self.batches == 1:  # the first batch may be the only one: no pool yet
            yield featurize_rows(self.featurizer, rows), n
            return
        if self.pool is None:
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                            initializer=_init_worker, initargs=(self.featurizer,))
        self.pending.append((self.pool.submit(_work, rows), n))
        while len(self.pending) > 2 * self.workers:
            future, count = self.pending.popleft()
            yield future.result(), count

    def drain(self) -> Iterator[tuple[Output, int]]:
        while self.pending:
            future, count = self.pending.popleft()
            yield future.result(), count

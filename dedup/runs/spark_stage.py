"""The Spark run's executor-side store writes: each task stages its rows into the store itself.

The driver never holds a row: a task opens the store by its URL and stages its part's
fingerprint rows (with sketches and row watermarks) and skipped rows, or a slice of the block
entries, through the store's bulk paths (Store.stage_rows / stage_blocks). A retried task (Spark
runs a failed one again) replaces what its earlier attempt may have staged. The driver swaps
the staging in afterwards (Store.replace_table_staged).
"""

from __future__ import annotations

import itertools

import numpy as np

from ..index.keys import key_sort
from ..store import BlockEntries, open_store
from .recipe import extra_words, fingerprints_of
from .spark_parts import Part, kept, staged_skipped

ENTRIES_CHUNK = 100_000  # block entries a stage_blocks call (a task's memory stays bounded)


def again() -> bool:
    """Whether this task is an attempt after a failed one (its rows may be staged already). A
    task run again as part of a re-attempted stage counts from 0 again: in the SQL store (and
    for MongoDB's fingerprints, unique by key) its repeated rows fail it, and its next attempt
    replaces them (the MongoDB block documents staged by such a task would be doubled).
    """
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return ctx is not None and ctx.attemptNumber() > 0


def _store(target: tuple):
    url, bucket_size, _table, _run = target
    return open_store(url, migrate=False, bucket_size=bucket_size)  # the driver migrated it


def stage_part(target: tuple, part: Part, drop: set[str], twice: set[str]) -> None:
    """A task: stage one part's rows (the keys in ``drop`` left out, as the driver decided)."""
    _url, _size, table, run_id = target
    keys, sketches, _at = kept(part, drop)
    wms = part.rows.row_watermarks
    with _store(target) as store:
        store.stage_rows(table, run_id, keys, fingerprints_of(sketches, len(keys)),
                         extra_words(sketches) if len(keys) else None,
                         [wms.get(k) for k in keys] if wms else None, staged_skipped(part, twice), again=again())


def stage_entries(target: tuple, entries, whole_blocks: bool) -> None:
    """A task: stage block entries, ``entries`` an iterator of (name, key, fingerprint), or with
    ``whole_blocks`` of (name, [(key, fingerprint)]) holding all of a block's (each block's
    entries then in key order, as a local run files them)."""
    _url, _size, table, run_id = target
    if whole_blocks:
        entries = ((name, k, fp) for name, members in entries
                   for k, fp in sorted(members, key=lambda m: key_sort(m[0])))
    retry = again()
    with _store(target) as store:
        while True:
            chunk = list(itertools.islice(entries, ENTRIES_CHUNK))
            if whole_blocks and len(chunk) == ENTRIES_CHUNK:  # never cut a block in two
                last = chunk[-1][0]
                for e in entries:
                    if e[0] != last:
                        entries = itertools.chain([e], entries)
                        break
                    chunk.append(e)
            if not chunk:
                break
            names, keys, fps = zip(*chunk)
            store.stage_blocks(table, run_id, BlockEntries(list(names), list(keys), np.array(fps, dtype=np.uint64)),
                               again=retry)


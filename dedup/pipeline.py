"""The full batch as named stages: read -> featurise -> fingerprint -> pairs -> groups -> store.

``run_full`` is the library entry point the ``dedup full`` command calls; it can be used from
Python with a Config and an optional progress callback.
"""

from __future__ import annotations

import datetime as _dt
import logging
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from . import fingerprint
from .candidates import near_pairs
from .config import Config, TableConfig
from .errors import DedupError
from .features import Featurizer
from .groups import Group, build_groups, row_pairs
from .normalize import NORMALIZATION_VERSION
from .segment import Segmenter, load_stopwords
from .source import Source, watermark_to_json
from .store import RunRecord, Skipped, TableSnapshot, open_store

log = logging.getLogger(__name__)
Progress = Callable[[int], None]  # called with the number of rows just read


@dataclass
class FullResult:
    """What a full run found, before (and independent of) storing it."""

    table: str
    keys: list[str] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))
    groups: list[Group] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    rows_read: int = 0
    watermark: dict | None = None
    seconds: float = 0.0

    @property
    def rows_in_groups(self) -> int:
        return sum(g.size for g in self.groups)

    def summary(self) -> dict:
        reasons = [s.reason for s in self.skipped]
        return {
            "table": self.table, "rows": self.rows_read, "fingerprinted": len(self.keys),
            "groups": len(self.groups), "rows_in_groups": self.rows_in_groups,
            "skipped_no_features": reasons.count("no_features"), "unreadable": reasons.count("unreadable"),
            "seconds": round(self.seconds, 3),
        }


def make_featurizer(config: Config, table: TableConfig) -> Featurizer:
    segmenter = Segmenter(load_stopwords(config.text.stopwords), hmm=config.text.hmm)
    return Featurizer(table.fields, segmenter)


def fingerprint_version(config: Config, featurizer: Featurizer) -> dict:
    """Everything that decides a fingerprint; rows fingerprinted under another stamp are not comparable."""
    return {
        "max_distance": config.max_distance,
        "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
        "normalization": NORMALIZATION_VERSION,
        **featurizer.version(),
    }


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


def fingerprint_rows(source: Source, featurizer: Featurizer, progress: Progress | None = None) -> FullResult:
    """Read every row and fingerprint it; rows without features or unreadable ones are set aside."""
    result = FullResult(table=source.config.name)
    wm_col = source.config.watermark
    wm_max = None
    chunks: list[np.ndarray] = []
    for batch in source.batches():
        feats, keys = [], []
        for key, row in batch.rows:
            try:
                f = featurizer.features(row)
            except (UnicodeDecodeError, ValueError, TypeError) as e:
                result.skipped.append(Skipped(key, "unreadable", f"{type(e).__name__}: {e}"))
                continue
            if wm_col is not None and row.get(wm_col) is not None:
                v = row[wm_col]
                wm_max = v if wm_max is None or v > wm_max else wm_max
            if f:
                feats.append(f)
                keys.append(key)
            else:
                result.skipped.append(Skipped(key, "no_features", "every field is empty"))
        result.skipped.extend(Skipped(k, "unreadable", why) for k, why in batch.unreadable)
        if feats:
            chunks.append(fingerprint.simhash_batch(feats))
            result.keys.extend(keys)
        n = len(batch.rows) + len(batch.unreadable)
        result.rows_read += n
        if progress is not None:
            progress(n)
    if chunks:
        result.fingerprints = np.concatenate(chunks)
    result.watermark = watermark_to_json(wm_max)
    return result


def find_groups(keys: list[str], fps: np.ndarray, config: Config) -> list[Group]:
    """Exact pairs within ``max_distance`` (sort-based over blocks), merged into groups."""
    pairs = row_pairs(keys, fps, partial(near_pairs, layout=config.layout))
    return build_groups(keys, fps, pairs)


def run_full(config: Config, table: str | None = None, progress: Progress | None = None,
             on_total: Callable[[int], None] | None = None) -> FullResult:
    """Fingerprint the whole table, find its duplicate groups and replace its results in the store."""
    tcfg = config.table(table)
    started = time.perf_counter()
    started_at = _utcnow()
    with Source(config.source_url, tcfg, config.batch_size) as source:
        store = open_store(config.store_url)
        try:
            featurizer = make_featurizer(config, tcfg)
            if on_total is not None:
                on_total(source.count())
            run = RunRecord(tcfg.name, "full", started_at)
            try:
                result = fingerprint_rows(source, featurizer, progress)
                result.groups = find_groups(result.keys, result.fingerprints, config)
                result.seconds = time.perf_counter() - started
                run.finished_at, run.status, run.summary = _utcnow(), "ok", result.summary()
                store.replace_table(TableSnapshot(
                    table=tcfg.name, keys=result.keys, fingerprints=result.fingerprints, groups=result.groups,
                    skipped=result.skipped, version=fingerprint_version(config, featurizer),
                    watermark=result.watermark, run=run))
            except DedupError as e:
                _record_failure(store, run, e)
                raise
            result.seconds = time.perf_counter() - started
            return result
        finally:
            store.close()


def _record_failure(store, run: RunRecord, error: Exception) -> None:
    run.finished_at, run.status, run.summary = _utcnow(), "failed", {"error": str(error)}
    try:
        store.record_failed_run(run)
    except DedupError:
        log.debug("could not record the failed run", exc_info=True)


def _utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)

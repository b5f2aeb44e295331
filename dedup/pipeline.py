"""The full batch as named stages: read -> featurise -> fingerprint -> pairs -> groups -> store.

``run_full`` is the library entry point the ``dedup full`` command calls; it can be used from
Python with a Config and an optional progress callback. The stages are shared with the
incremental run (dedup.incremental).
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import socket
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Iterator

import numpy as np

from . import fingerprint
from .candidates import near_pairs
from .config import Config, TableConfig
from .errors import ConfigError, DedupError, LockedError
from .features import Featurizer
from .fingerprint import HashedFeatures
from .groups import Group, build_groups, row_pairs
from .normalize import NORMALIZATION_VERSION
from .parallel import Featurizing, resolve_workers
from .segment import Segmenter, load_stopwords
from .source import Source, watermark_position
from .store import RunRecord, Skipped, Store, TableSnapshot, open_store
from .terms import TermModel
from .verify import verifier_for

log = logging.getLogger(__name__)
Progress = Callable[[int], None]  # called with the number of rows just read
LOCK_TTL_SECONDS = 6 * 3600  # a lock left by a killed run is taken over after this


@dataclass
class FullResult:
    """What a full run found, before (and independent of) storing it."""

    table: str
    keys: list[str] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))
    sketches: np.ndarray = field(default_factory=lambda: np.empty((0, 1), np.uint64))  # word 0 = fingerprint
    features: HashedFeatures | None = None  # until weighed and sketched
    terms: TermModel | None = None  # the IDF counts used (learned by a full run)
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
    return Featurizer(table.fields, segmenter, by_field=table.by_field, tf=config.text.tf)


LEARNED = "learned"  # the part of a version stamp a full run learns from the data (IDF documents)


def fingerprint_version(config: Config, featurizer: Featurizer) -> dict:
    """Everything that decides a fingerprint or a pair; rows fingerprinted under another stamp are
    not comparable."""
    stamp = {
        "max_distance": config.max_distance,
        "blocks": len(config.layout.widths),
        "sketch_bits": config.sketch_bits,
        "min_similarity": config.min_similarity,
        **({"min_field_similarity": config.min_field_similarity} if featurizer.by_field else {}),
        "idf": config.text.idf,
        "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
        "normalization": NORMALIZATION_VERSION,
        **featurizer.version(),
    }
    return json.loads(json.dumps(stamp, sort_keys=True))  # the form a store gives back


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


def fingerprint_rows(source: Source, featurizer: Featurizer, progress: Progress | None = None,
                     since: dict | None = None, by_watermark: bool = False, workers: int = 1) -> FullResult:
    """Read rows and fingerprint them (in ``workers`` processes); rows without features or
    unreadable ones are set aside.

    ``result.watermark`` is the position of the last row in (watermark, key) order, from which an
    incremental run continues (None when the table has no watermark column or no such row).
    """
    result = FullResult(table=source.config.name)
    wm_col, key_col = source.config.watermark, source.config.key
    last: tuple | None = None
    parts: list[HashedFeatures] = []

    def take(outputs) -> None:
        for (keys, feats, skipped), n in outputs:
            result.keys.extend(keys)
            parts.append(feats)
            result.skipped.extend(skipped)
            result.rows_read += n
            if progress is not None:
                progress(n)

    with Featurizing(featurizer, workers) as featurizing:
        for batch in source.batches(since=since, by_watermark=by_watermark):
            if by_watermark:  # batches come in (watermark, key) order: the last row is the furthest
                last = batch.last
            elif wm_col is not None:
                for _key, row in batch.rows:
                    if row.get(wm_col) is not None:
                        pos = (row[wm_col], row[key_col])
                        last = pos if last is None or pos > last else last
            result.skipped.extend(Skipped(k, "unreadable", why) for k, why in batch.unreadable)
            take(featurizing.submit(batch.rows, len(batch.rows) + len(batch.unreadable)))
        take(featurizing.drain())
    result.features = HashedFeatures.concat(parts)
    result.watermark = watermark_position(*last) if last is not None else since
    return result


def sketch_rows(result: FullResult, config: Config, table: TableConfig, terms: TermModel | None) -> None:
    """Weigh the read rows' features (IDF when ``terms``) and SimHash them into sketches (for a
    fields fingerprint, each field into its own bits)."""
    feats = result.features
    weights = terms.weigh(feats) if terms is not None else feats.weights
    words = config.sketch_bits // 64
    if table.by_field:
        result.sketches = fingerprint.field_sketch(feats, weights, config.layout_for(table).block_masks, words)
    else:
        result.sketches = fingerprint.sketch(feats.hashes, weights, feats.counts, words=words)
    result.fingerprints = result.sketches[:, 0].copy()
    result.terms, result.features = terms, None


def find_groups(keys: list[str], sketches: np.ndarray, config: Config, table: TableConfig) -> list[Group]:
    """Exact candidate pairs within ``max_distance`` (sort-based over block tables; a fields
    fingerprint: sharing a field), verified on the sketch, merged into groups."""
    pairs = row_pairs(keys, sketches, partial(near_pairs, layout=config.layout_for(table)),
                      verifier_for(config, table))
    fps = np.asarray(sketches, dtype=np.uint64).reshape(len(keys), -1)[:, 0] if len(keys) else np.empty(0, np.uint64)
    return build_groups(keys, fps, pairs)


@contextmanager
def table_run(config: Config, table: TableConfig, kind: str) -> Iterator[tuple[Source, Store, RunRecord]]:
    """Open source and store, hold the table's lock, and record the run (failed if an error escapes)."""
    with Source(config.source_url, table, config.batch_size) as source:
        store = open_store(config.store_url, bucket_size=config.bucket_size)
        owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        try:
            _take_lock(store, table.name, owner)
            try:
                run = RunRecord(table.name, kind, utcnow())
                store.start_run(run)
                try:
                    yield source, store, run
                except Exception as e:  # recorded, then raised as it was
                    _finish_failed(store, run, e)
                    raise
            finally:
                store.release_lock(table.name, owner)
        finally:
            store.close()


def _take_lock(store: Store, table: str, owner: str) -> None:
    """The table's lock; one left by a run on this machine whose process is gone is taken over."""
    try:
        store.acquire_lock(table, owner, LOCK_TTL_SECONDS)
    except LockedError as e:
        if not _is_dead_local_run(e.owner):
            raise
        log.warning("taking over the lock of %s, a run on this machine that is no longer running", e.owner)
        store.acquire_lock(table, owner, LOCK_TTL_SECONDS, steal_from=e.owner)


def _is_dead_local_run(owner: str | None) -> bool:
    host, _, rest = (owner or "").partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, owned by someone else
        return False
    return False


def _finish_failed(store: Store, run: RunRecord, error: Exception) -> None:
    try:
        store.finish_run(run.id, "failed", {"error": str(error)})
    except DedupError:
        log.debug("could not record the failed run", exc_info=True)


def run_full(config: Config, table: str | None = None, progress: Progress | None = None,
             on_total: Callable[[int], None] | None = None, keep_terms: bool = False) -> FullResult:
    """Fingerprint the whole table, find its duplicate groups and replace its results in the store.

    With IDF on, the term counts are learned from the table's rows, or with ``keep_terms`` taken
    from the store as the last full run left them (so the result is the one incremental runs since
    then have been building)."""
    tcfg = config.table(table)
    started = time.perf_counter()
    with table_run(config, tcfg, "full") as (source, store, run):
        featurizer = make_featurizer(config, tcfg)
        if on_total is not None:
            on_total(source.count())
        result = fingerprint_rows(source, featurizer, progress, workers=resolve_workers(config.text.workers))
        version = fingerprint_version(config, featurizer)
        terms = None
        if config.text.idf:
            terms = stored_terms(store, tcfg.name, result.features) if keep_terms \
                else TermModel.learn(result.features)
            version[LEARNED] = {"documents": terms.documents}
        sketch_rows(result, config, tcfg, terms)
        result.groups = find_groups(result.keys, result.sketches, config, tcfg)
        for g in result.groups:
            g.created_run = g.updated_run = run.id
        store.replace_table(TableSnapshot(
            table=tcfg.name, run_id=run.id, keys=result.keys, fingerprints=result.fingerprints,
            groups=result.groups, skipped=result.skipped, version=version, watermark=result.watermark,
            sketches=extra_words(result.sketches), terms=terms.stored() if terms is not None else None))
        result.seconds = time.perf_counter() - started
        store.finish_run(run.id, "ok", result.summary())
    return result


def stored_terms(store: Store, table: str, feats: HashedFeatures) -> TermModel:
    """The term counts the last full run stored, for the terms in ``feats``."""
    state = store.state(table)
    learned = (state.version.get(LEARNED) if state is not None else None) or {}
    if "documents" not in learned:
        raise ConfigError(f"no term statistics stored for {table!r} (text.idf is on): run `dedup full --table {table}` first")
    wanted = np.unique(feats.hashes[feats.idf])
    return TermModel.from_counts(int(learned["documents"]), store.term_counts(table, wanted))


def extra_words(sketches: np.ndarray) -> np.ndarray | None:
    """Sketch words after the fingerprint, padded to three for the store (None: fingerprint only)."""
    if sketches.shape[1] <= 1:
        return None
    out = np.zeros((sketches.shape[0], 3), dtype=np.uint64)
    out[:, :sketches.shape[1] - 1] = sketches[:, 1:]
    return out


def utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)

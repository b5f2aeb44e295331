"""The full batch: read -> featurise -> sketch -> pairs -> groups -> store, over the whole table.

``run_full`` is what ``dedup full`` calls; from Python it takes a Config and an optional progress
callback. Re-running it replaces the table's previous results in the store in one step.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..config.model import Config
from ..errors import ConfigError
from ..index.fingerprint import HashedFeatures
from ..index.groups import Group
from ..store import Skipped, Store, TableSnapshot, TermCounts
from ..text.terms import TermModel
from .clock import StageClock
from .locking import table_run
from .parallel import resolve_workers
from .recipe import LEARNED, Recipe, extra_words, fingerprints_of
from .stages import Progress, read_rows

log = logging.getLogger(__name__)


@dataclass
class FullResult:
    """What a full run found, as it was stored."""

    table: str
    keys: list[str] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))
    sketches: np.ndarray = field(default_factory=lambda: np.empty((0, 1), np.uint64))  # word 0 = fingerprint
    terms: TermModel | None = None  # the IDF counts used (learned by a full run)
    groups: list[Group] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    rows_read: int = 0
    watermark: dict | None = None
    seconds: float = 0.0
    truncated: int = 0  # text cells cut to source.max_cell_chars
    null_keys: int = 0  # rows not read: their key is NULL
    stages: dict[str, float] = field(default_factory=dict)  # wall-clock seconds per stage (dedup.runs.clock)
    stages_cpu: dict[str, float] = field(default_factory=dict)  # the main process's CPU seconds per stage

    @property
    def rows_in_groups(self) -> int:
        return sum(g.size for g in self.groups)

    def summary(self) -> dict:
        reasons = [s.reason for s in self.skipped]
        return {
            "table": self.table, "rows": self.rows_read, "fingerprinted": len(self.keys),
            "groups": len(self.groups), "rows_in_groups": self.rows_in_groups,
            "skipped_no_features": reasons.count("no_features"), "unreadable": reasons.count("unreadable"),
            "duplicate_keys": reasons.count("duplicate_key"), "null_keys": self.null_keys, "truncated": self.truncated,
            "seconds": round(self.seconds, 3),
        }


def run_full(config: Config, table: str | None = None, progress: Progress | None = None,
             on_total: Callable[[int], None] | None = None, keep_terms: bool = False) -> FullResult:
    """Fingerprint the whole table, find its duplicate groups and replace its results in the store.

    With IDF on, the term counts are learned from the table's rows, or with ``keep_terms`` taken
    from the store as the last full run left them (so the result is the one incremental runs since
    then have been building)."""
    recipe = Recipe.of(config, table)
    started = time.perf_counter()
    clock = StageClock()
    with table_run(config, recipe.table, "full") as (source, store, run):
        if on_total is not None:
            on_total(source.count())
        with clock.stage("read+featurise"):
            rows = read_rows(source, recipe, progress, workers=resolve_workers(config.text.workers))
        with clock.stage("sketch"):
            terms = None
            if recipe.idf:
                terms = stored_terms(store, recipe.table.name, rows.features) if keep_terms \
                    else TermModel.learn(rows.features)
            sketches = recipe.sketch(rows.features, terms)
            recipe = recipe.learn(sketches)
        hot = recipe.scheme.hot() if hasattr(recipe.scheme, "hot") else []
        if hot:
            log.warning("%s: %d key values are each shared by more than %d rows (the largest by %d) and make no "
                        "candidate pairs", recipe.table.name, len(hot), recipe.scheme.max_bucket, hot[0][1])
        fps = fingerprints_of(sketches, len(rows.keys))
        with clock.stage("groups"):
            groups = recipe.groups(rows.keys, sketches, clock)
        for g in groups:
            g.created_run = g.updated_run = run.id
        with clock.stage("block names"):
            blocks = recipe.block_entries(rows.keys, sketches)
        with clock.stage("store"):
            store.replace_table(TableSnapshot(
                table=recipe.table.name, run_id=run.id, keys=rows.keys, fingerprints=fps, groups=groups,
                skipped=rows.skipped, version=recipe.version(terms), watermark=rows.watermark,
                sketches=extra_words(sketches), terms=TermCounts(*terms.kept()) if terms is not None else None,
                blocks=blocks))
        result = FullResult(recipe.table.name, rows.keys, fps, sketches, terms, groups, rows.skipped,
                            rows.rows_read, rows.watermark, time.perf_counter() - started, rows.truncated,
                            rows.null_keys, clock.seconds, clock.cpu)
        log.info("%s: stages: %s", recipe.table.name, clock.line())
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

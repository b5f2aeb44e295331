"""The full batch: read -> featurise -> sketch -> pairs -> groups -> store, over the whole table.

``run_full`` is what ``dedup full`` calls; from Python it takes a Config and an optional progress
callback. Re-running it replaces the table's previous results in the store in one step.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..config.model import Config, GroupsConfig
from ..db.source import Source
from ..errors import ConfigError
from ..index.fingerprint import HashedFeatures
from ..index.groups import Group
from ..index.pairs import distinct_rows
from ..store import Skipped, Store, TableSnapshot, TermCounts, iso_utc
from ..text.terms import TermModel
from . import sizes
from .lineage import counts, describe, keep_ids
from .clock import StageClock
from .locking import table_run
from .parallel import resolve_workers
from .recipe import LEARNED, Recipe, extra_words, fingerprints_of
from .stages import Progress, Rows, read_rows
from .store_writer import StoreWriter, writing_beside

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
    run_id: int | None = None
    changes: dict = field(default_factory=dict)  # lineage.counts: groups new, grown, merged... since the stored ones
    truncated_rows: list[str] = field(default_factory=list)  # keys of rows with a cell cut (the first 100)
    stages: dict[str, float] = field(default_factory=dict)  # wall-clock seconds per stage (dedup.runs.clock)
    stages_cpu: dict[str, float] = field(default_factory=dict)  # the main process's CPU seconds per stage
    fingerprinted: int | None = None  # rows fingerprinted, when ``keys`` does not hold them (dedup.runs.spark)
    started: str | None = None  # when the run started, ISO 8601 UTC (set as it is recorded)
    sizes: dict | None = None  # the groups' size profile (dedup.runs.sizes)
    warnings: list[str] = field(default_factory=list)  # group sizes that look wrong (dedup.runs.sizes)

    @property
    def rows_in_groups(self) -> int:
        return sum(g.size for g in self.groups)

    def summary(self) -> dict:
        reasons = [s.reason for s in self.skipped]
        return {
            "table": self.table, "run": self.run_id, "rows": self.rows_read,
            "fingerprinted": len(self.keys) if self.fingerprinted is None else self.fingerprinted,
            "groups": len(self.groups), "rows_in_groups": self.rows_in_groups,
            "skipped_no_features": reasons.count("no_features"), "unreadable": reasons.count("unreadable"),
            "duplicate_keys": reasons.count("duplicate_key"), "null_keys": self.null_keys,
            "bad_keys": reasons.count("bad_key"), "truncated": self.truncated, "truncated_rows": self.truncated_rows,
            **self.changes, "seconds": round(self.seconds, 3), "started": self.started,
            "sizes": self.sizes, "warnings": self.warnings,
        }


def run_full(config: Config, table: str | None = None, progress: Progress | None = None,
             on_total: Callable[[int], None] | None = None, keep_terms: bool = False, *,
             source: Source | None = None, store: Store | None = None) -> FullResult:
    """Fingerprint the whole table, find its duplicate groups and replace its results in the store.

    With IDF on, the term counts are learned from the table's rows, or with ``keep_terms`` taken
    from the store as the last full run left them (so the result is the one incremental runs since
    then have been building). ``source``, ``store``: opened objects to use (the caller closes
    them) instead of the config's URLs."""
    recipe = Recipe.of(config, table)
    started = time.perf_counter()
    clock = StageClock()
    with table_run(config, recipe.table, "full", source=source, store=store) as (source, store, run):
        if on_total is not None:
            on_total(source.count())
        with clock.stage("read+featurise"):
            rows = read_rows(source, recipe, progress, workers=resolve_workers(config.text.workers))
        with clock.stage("sketch"):
            terms = None
            if recipe.idf:
                terms = stored_terms(store, recipe.table.name, rows.features) if keep_terms \
                    else TermModel.learn(rows.features)
            recipe = stored_content(store, recipe, rows.features) if keep_terms else recipe.learn_content(rows.features)
            sketches = recipe.sketch(rows.features, terms)
            recipe = learned(recipe, sketches)
        rows = replace(rows, features=None)  # the sketches hold what is needed: the features' arrays
        # (about 1.4 KB a row) are freed before the pairs, groups and store write
        decisions = store.decisions(recipe.table.name)
        with clock.stage("groups"):
            distinct = distinct_rows(rows.keys, recipe.matrix(sketches))  # for the pairs and the block entries
        write = lambda into, later: into.replace_table(rows_snapshot(  # noqa: E731 - in the writer's child
            snapshot(run, recipe, terms, [], [], rows.skipped, rows.watermark), recipe, rows, sketches, distinct), later)
        with writing_beside(store, len(rows.keys), resolve_workers(config.text.workers), write) as writer:
            with clock.stage("groups"):
                groups = recipe.groups(rows.keys, sketches, decisions, clock, distinct)
            return store_full(store, run, recipe, rows, terms, sketches, groups, started, decisions, clock,
                              distinct, writer, config.groups)


def learned(recipe: Recipe, sketches: np.ndarray) -> Recipe:
    """The recipe with what its scheme learns from the whole table's sketches; hot keys are logged."""
    recipe = recipe.learn(sketches)
    hot = recipe.scheme.hot() if hasattr(recipe.scheme, "hot") else []
    if hot:
        log.warning("%s: %d key values are each shared by more than %d rows (the largest by %d) and make no "
                    "candidate pairs", recipe.table.name, len(hot), recipe.scheme.max_bucket, hot[0][1])
    return recipe


def store_full(store: Store, run, recipe: Recipe, rows: Rows, terms: TermModel | None, sketches: np.ndarray,
               groups: list[Group], started: float, decisions=(), clock: StageClock | None = None,
               distinct=None, writer: StoreWriter | None = None, limits: GroupsConfig | None = None) -> FullResult:
    """Replace the table's results in the store with a full run's, and record the run as finished:
    the groups keep the ids of the stored groups they overlap most (settle_groups), the run's
    changes are kept, and the ``decisions`` the groups were made with are marked applied.
    ``writer``: the rows are being written by it already (dedup.runs.store_writer); ``limits``: the
    group sizes to warn of (dedup.runs.sizes)."""
    clock = clock or StageClock()
    fps = fingerprints_of(sketches, len(rows.keys))
    changes, rows_left = settle_groups(store, run, recipe.table.name, groups)
    if writer is not None:
        with clock.stage("store"):
            writer.finish(groups, changes)
        for name, secs in writer.seconds.items():  # the child's own time, beside the parent's wait
            clock.seconds[name], clock.cpu[name] = secs, 0.0
    else:
        with clock.stage("block names"):
            base = snapshot(run, recipe, terms, groups, changes, rows.skipped, rows.watermark)
            snap = rows_snapshot(base, recipe, rows, sketches, distinct)
        with clock.stage("store"):
            store.replace_table(snap)
    result = FullResult(recipe.table.name, rows.keys, fps, sketches, terms, groups, rows.skipped,
                        rows.rows_read, rows.watermark, time.perf_counter() - started, rows.truncated, rows.null_keys,
                        run.id, counts(changes, rows_left), rows.truncated_rows, clock.seconds, clock.cpu)
    return finish_full(store, run, result, decisions, clock, limits)


# The parts of storing a full run that the local run and dedup.runs.spark share (the Spark run's
# rows reach the store from its executors, not through a snapshot of them):

def settle_groups(store: Store, run, table: str, groups: list[Group]) -> tuple:
    """Give the groups the ids of the stored groups they overlap most (dedup.runs.lineage) and
    return what the run did to each id (lineage.describe)."""
    before = {g.id: g for g in store.groups(table)}
    keep_ids(groups, list(before.values()), store.max_group_id(table) + 1, run.id)
    return describe(before, groups)


def snapshot(run, recipe: Recipe, terms: TermModel | None, groups: list[Group], changes: list,
             skipped: list[Skipped], watermark: dict | None) -> TableSnapshot:
    """A full run's snapshot without per-row data (replace_table_staged takes it as it is)."""
    return TableSnapshot(
        table=recipe.table.name, run_id=run.id, keys=[], fingerprints=np.empty(0, np.uint64), groups=groups,
        skipped=skipped, version=recipe.version(terms), watermark=watermark,
        terms=term_counts(terms, recipe), changes=changes)


def term_counts(terms: TermModel | None, recipe: Recipe) -> TermCounts | None:
    """What the store keeps of what a full run counted: the IDF terms in two rows or more and the
    common content features (dedup.text.rarity), salted apart."""
    parts = ([terms.kept()] if terms is not None else []) + \
        [m.kept() for m in (recipe.content_model, recipe.identity_model) if m is not None]
    if not parts:
        return None
    return TermCounts(np.concatenate([h for h, _ in parts]), np.concatenate([c for _, c in parts]))


def rows_snapshot(base: TableSnapshot, recipe: Recipe, rows: Rows, sketches: np.ndarray, distinct=None) -> TableSnapshot:
    """``base`` with the rows: keys, fingerprints, sketch words, block entries, row watermarks."""
    return replace(base, keys=rows.keys, fingerprints=fingerprints_of(sketches, len(rows.keys)),
                   sketches=extra_words(sketches), blocks=recipe.block_entries(rows.keys, sketches, distinct=distinct),
                   row_watermarks=[rows.row_watermarks.get(k) for k in rows.keys] if rows.row_watermarks else None)


def finish_full(store: Store, run, result: FullResult, decisions=(), clock: StageClock | None = None,
                limits: GroupsConfig | None = None) -> FullResult:
    """Record the run as finished, the ``decisions`` the groups were made with marked applied;
    with ``limits``, the group sizes that look wrong against the last run's are warned of."""
    if clock is not None:
        log.info("%s: stages: %s", result.table, clock.line())
    result.sizes = sizes.profile(result.groups)
    if limits is not None:
        result.warnings = sizes.warnings(result.sizes, sizes.last(store, result.table, run.id), result.groups, limits)
        for w in result.warnings:
            log.warning("%s: %s", result.table, w)
    if decisions:
        store.mark_decisions_applied(result.table, [d.pair for d in decisions], run.id)
    result.started = iso_utc(run.started_at)
    store.finish_run(run.id, "ok", result.summary())
    return result


def stored_content(store: Store, recipe: Recipe, feats: HashedFeatures) -> Recipe:
    """The recipe with the common content features the last full run stored, for those in ``feats``."""
    state = store.state(recipe.table.name)
    learned = (state.version.get(LEARNED) if state is not None else None) or {}
    return recipe.stored_content(learned.get("content_documents"),
                                 lambda keys: store.term_counts(recipe.table.name, keys), feats)


def stored_terms(store: Store, table: str, feats: HashedFeatures) -> TermModel:
    """The term counts the last full run stored, for the terms in ``feats``."""
    state = store.state(table)
    learned = (state.version.get(LEARNED) if state is not None else None) or {}
    if "documents" not in learned:
        raise ConfigError(f"no term statistics stored for {table!r} (text.idf is on): run `dedup full --table {table}` first")
    wanted = np.unique(feats.hashes[feats.idf])
    return TermModel.from_counts(int(learned["documents"]), store.term_counts(table, wanted))

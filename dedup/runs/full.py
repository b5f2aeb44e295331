"""The full batch: read -> featurise -> sketch -> pairs -> groups -> store, over the whole table.

``run_full`` is what ``dedup full`` calls; from Python it takes a Config and an optional progress
callback. Re-running it replaces the table's previous results in the store in one step.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Callable

import numpy as np

from ..config.model import Config, GroupsConfig
from ..db.source import Source
from ..index.groups import Group
from ..index.pairs import distinct_rows
from ..store import Skipped, Store, TableSnapshot, TermCounts, iso_utc
from ..store.gathered import GatheredRows
from ..text.terms import TermModel
from . import sizes
from .clock import StageClock
from .featurise import featurise_table
from .heap import give_back_freed
from .lineage import counts, describe, keep_ids
from .locking import table_run
from .parallel import resolve_workers
from .recipe import Recipe, extra_words, fingerprints_of
from .results import FullResult
from .stages import Progress, Rows
from .store_writer import StoreWriter, writing_beside

log = logging.getLogger(__name__)


def run_full(config: Config, table: str | None = None, progress: Progress | None = None,
             on_total: Callable[[int], None] | None = None, keep_terms: bool = False, *,
             source: Source | None = None, store: Store | None = None) -> FullResult:
    """Fingerprint the whole table, find its duplicate groups and replace its results in the store.

    With IDF on, the term counts are learned from the table's rows, or with ``keep_terms`` taken
    from the store as the last full run left them, with its common content features and a record
    table's field statistics (so the result is the one incremental runs since then have been
    building). ``source``, ``store``: opened objects to use (the caller closes them) instead of the
    config's URLs."""
    recipe = Recipe.of(config, table)
    started = time.perf_counter()
    clock = StageClock()
    with table_run(config, recipe.table, "full", source=source, store=store) as (source, store, run):
        total = source.count()
        if on_total is not None:
            on_total(total)
        workers = resolve_workers(config.text.workers)
        with writing_beside(store, total, workers, write_rows) as writer:  # forked before the read's heap exists
            featured = featurise_table(source, recipe, progress=progress, workers=workers, clock=clock,
                                       stored=store if keep_terms else None, total=total)
            rows, recipe, terms = featured.rows, featured.recipe, featured.terms
            decisions = store.decisions(recipe.table.name)
            with clock.stage("groups"):
                distinct = distinct_rows(rows.keys, recipe.matrix(featured.sketches), in_place=True)  # the sketches given up
            sketches = GatheredRows(distinct[1], distinct[3])  # the rows' sketches from the distinct ones: one copy
            del featured  # (the whole array was 0.3 KB a row more here; issue 26)
            give_back_freed()  # the read's and sketch stage's freed batches
            if writer is not None:  # the row watermarks as a list beside the keys, the child's alone now (0.1 KB a row)
                wms, rows = watermarks_of(rows), replace(rows, row_watermarks={})
                writer.send((snapshot(run, recipe, terms, [], [], rows.skipped, rows.watermark), recipe, rows, distinct, wms))
                del wms
                give_back_freed()  # the pickler's memo of every key and watermark sent
            with clock.stage("groups"):
                groups = recipe.groups(rows.keys, sketches, decisions, clock, distinct)
            return store_full(store, run, recipe, rows, terms, sketches, groups, started, decisions, clock,
                              distinct, writer, config.groups)


def write_rows(into: Store, inputs: list, later: Callable[[], dict]) -> None:
    """In the store writer's child: the rows' snapshot made from what ``run_full`` sent (the base
    snapshot, the recipe, the rows, ``distinct_rows``' answer, the rows' watermarks; taken out of
    ``inputs``), written (``Store.replace_table``). Its sketches are read once: the store lets the
    distinct ones go once it has written the rows (GatheredRows.release), this the only reference."""
    base, recipe, rows, distinct, wms = inputs.pop()
    snap = rows_snapshot(base, recipe, rows, GatheredRows(distinct[1], distinct[3], once=True), distinct, wms)
    del distinct
    into.replace_table(snap, later)


def store_full(store: Store, run, recipe: Recipe, rows: Rows, terms: TermModel | None, sketches: np.ndarray | GatheredRows,
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
            snap = rows_snapshot(base, recipe, rows, sketches, distinct, watermarks_of(rows))
        with clock.stage("store"):
            store.replace_table(snap)
    result = FullResult(
        table=recipe.table.name, keys=rows.keys, fingerprints=fps, sketches=sketches, terms=terms, groups=groups,
        skipped=rows.skipped, rows_read=rows.rows_read, watermark=rows.watermark, seconds=time.perf_counter() - started,
        truncated=rows.truncated, null_keys=rows.null_keys, run_id=run.id, changes=counts(changes, rows_left),
        truncated_rows=rows.truncated_rows, stages=clock.seconds, stages_cpu=clock.cpu)
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


def rows_snapshot(base: TableSnapshot, recipe: Recipe, rows: Rows, sketches: np.ndarray | GatheredRows, distinct=None,
                  watermarks: list[str | None] | None = None) -> TableSnapshot:
    """``base`` with the rows: keys, fingerprints, sketch words, block entries, row watermarks
    (``watermarks``: ``watermarks_of(rows)``)."""
    return replace(base, keys=rows.keys, fingerprints=fingerprints_of(sketches, len(rows.keys)),
                   sketches=extra_words(sketches, copy=False), blocks=recipe.packed_entries(rows.keys, sketches, distinct=distinct),
                   row_watermarks=watermarks)


def watermarks_of(rows: Rows) -> list[str | None] | None:
    """The rows' watermarks aligned with their keys (None: the table has no watermark column)."""
    return [rows.row_watermarks.get(k) for k in rows.keys] if rows.row_watermarks else None


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

"""The incremental (cron) run: only rows past the stored watermark are read and compared.

New rows are fingerprinted, compared with each other (the same block search as the full run) and
with the stored fingerprints that share one of their blocks (fetched in batches of block names,
not one query per row). Groups are the connected components of all pairs within k, as in the full
run, kept up to date: a new row can start a group, join one, or merge several (the oldest id
survives); a row whose content changed leaves its group first (which may split it) and comes back
with its new fingerprint. The store applies all changes at once and the watermark moves last, so
a killed run, re-run, gives the same result as one clean run (the regrouping itself:
dedup.runs.changes).
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from ..config.lookback import describe as describe_lookback
from ..db.source import Source
from ..config.model import Config
from ..errors import ConfigError
from ..store import Store, iso_utc
from . import late
from .changes import Batch, mark_applied, plan_changes
from .learning import learned_from_features
from .locking import table_run
from .parallel import resolve_workers
from .recipe import Recipe
from .results import IncrementalResult
from .stages import Progress, read_rows
from .stored import stored_recipe

log = logging.getLogger(__name__)


def run_incremental(config: Config, table: str | None = None, progress: Progress | None = None,
                    on_total: Callable[[int], None] | None = None, reconcile: bool = False, *,
                    source: Source | None = None, store: Store | None = None) -> IncrementalResult:
    """Fingerprint the rows past the table's watermark, and those of its lookback window whose
    watermark changed, and fold them into the stored groups; with ``reconcile`` (or on every
    ``reconcile_every``-th run) remove the rows deleted from the source too (dedup.runs.late).
    ``source``, ``store``: opened objects to use (the caller closes them) instead of the config's URLs."""
    recipe = Recipe.of(config, table)
    name = recipe.table.name
    if not recipe.table.watermark:
        raise ConfigError(f"tables.{name}.watermark: required for incremental runs "
                          "(the column that says a row is new or changed)")
    started = time.perf_counter()
    with table_run(config, recipe.table, "incremental", source=source, store=store) as (source, store, run):
        state = store.state(name)
        recipe, version = stored_recipe(recipe, state)
        since = source.watermark.checked(state.watermark, name) if state is not None else None  # drift refused
        reconcile = reconcile or (state is not None and late.should_reconcile(store, name, recipe.table.reconcile_every))
        gone = late.vanished(source, store, name) if reconcile and state is not None else []
        start, window = late.read_from(source, since)
        if on_total is not None:
            on_total(source.count(start))
        rows = read_rows(source, recipe, progress, since=start, by_watermark=True,
                         workers=resolve_workers(config.text.workers),
                         select=late.changed_rows(store, name, recipe.table.watermark) if state is not None else None,
                         null_since=since)
        rows.watermark = late.later(rows.watermark, since)
        recipe, terms = learned_from_features(recipe, rows.features, stored=store)  # as the last full run learned
        sketches = recipe.sketch(rows.features, terms)
        decisions = store.decisions(name)
        plan = plan_changes(store, recipe, Batch.read(rows, sketches, gone), run_id=run.id, version=version,
                            decisions=decisions, limits=config.groups)
        log.debug("%s: writing the changes of run %d", name, run.id)
        store.apply_changes(plan.changes)
        mark_applied(store, name, decisions, run.id)
        result = IncrementalResult(
            **vars(plan.update), table=name, run_id=run.id, rows_read=rows.rows_read, truncated=rows.truncated,
            truncated_rows=rows.truncated_rows, null_watermark=rows.null_watermark, unchanged=rows.unchanged,
            lookback_from=str(window) if window is not None else None, reconciled=reconcile,
            unseen_rows=late.unseen_rows(source, store, name), started=iso_utc(run.started_at))
        if result.deleted:
            log.info("%s: %d rows deleted from the source removed from the store", name, result.deleted)
        if result.unseen_rows:
            log.warning("%s: at least %d source rows are not in the store: rows later than watermark_lookback "
                        "(%s) or with a NULL %s never reach an incremental run; `dedup full --table %s` reads them",
                        name, result.unseen_rows, describe_lookback(recipe.table.watermark_lookback), recipe.table.watermark,
                        name)
        result.seconds = time.perf_counter() - started
        store.finish_run(run.id, "ok", result.summary())
    return result

"""Decisions on pairs of rows (dedup.index.decisions): recorded, and applied to the stored groups.

``decide`` records decisions and regroups at once, under the table's lock, as a run of kind
``decide``: the groups of the rows named are worked out again from their stored sketches (as an
incremental run does for a group that lost a member), without the pairs decided different and
with those decided same. A full run and every incremental run apply all of a table's decisions,
so they stick. A decision recorded but not yet applied (a review cut short) is applied by the
next run of any kind.
"""

from __future__ import annotations

import datetime as _dt


from ..config.model import Config
from ..errors import ConfigError
from ..index.decisions import Decision
from ..index.keys import key_sort
from ..store import Store
from .incremental import IncrementalResult, mark_applied, plan_changes, stored_recipe, stored_sketches
from .locking import table_run
from .recipe import Recipe
from .stages import Rows


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None, microsecond=0)


def decide(config: Config, table: str | None, decisions: list[Decision],
           check_keys: bool = False) -> IncrementalResult | None:
    """Record ``decisions`` and regroup the rows they name; None when the table has no run yet
    (the decisions wait for its first full run). ``check_keys``: refuse keys of no stored row."""
    recipe = Recipe.of(config, table)
    with table_run(config, recipe.table, "decide") as (_source, store, run):
        if decisions:
            if check_keys:
                refuse_unknown_keys(store, recipe.table.name, decisions)
            store.put_decisions(recipe.table.name, decisions)
        return regroup(store, recipe, run.id)


def refuse_unknown_keys(store: Store, table: str, decisions: list[Decision]) -> None:
    """Refuse keys that name no fingerprinted row (once the table has been run)."""
    if store.state(table) is None:
        return
    keys = sorted({k for d in decisions for k in d.pair}, key=key_sort)
    missing = [k for k in keys if k not in store.fingerprints(table, keys)]
    if missing:
        skipped = {s.key for s in store.skipped(table)}
        why = " (skipped by the last run: nothing to compare)" if set(missing) <= skipped else ""
        raise ConfigError(f"no fingerprinted row with key {', '.join(map(repr, missing[:5]))} in {table!r}{why}")


def apply_pending(config: Config, table: str | None) -> IncrementalResult | None:
    """Regroup with the decisions recorded (by `dedup review`) but not yet applied."""
    return decide(config, table, [])


def regroup(store: Store, recipe: Recipe, run_id: int, again: list[str] | tuple[()] = ()) -> IncrementalResult | None:
    """Apply the decisions no run has applied yet to the stored groups, and finish run ``run_id``.
    ``again``: rows whose decisions were removed (forget, undo), worked out again from their stored
    sketches as if they had changed, so that links a removed "different" had cut come back."""
    name = recipe.table.name
    state = store.state(name)
    if state is None:
        store.finish_run(run_id, "ok", {"table": name, "note": "no groups yet: decisions wait for a full run"})
        return None
    recipe, _ = stored_recipe(recipe, state)
    decisions = store.decisions(name)
    if not any(d.applied_run is None for d in decisions) and not again:
        store.finish_run(run_id, "ok", {"table": name, "decisions": 0})
        return IncrementalResult(name, run_id=run_id)
    fp = store.fingerprints(name, sorted(set(again), key=key_sort))
    keys = [k for k in sorted(set(again), key=key_sort) if k in fp]
    rows = Rows(keys, None, [], 0, state.watermark, row_watermarks=store.row_watermarks(name, keys) if keys else {})
    changes, result = plan_changes(store, recipe, rows, stored_sketches(store, name, keys, fp, recipe.width), run_id,
                                   state.version, decisions)
    changes.watermark = state.watermark
    store.apply_changes(changes)
    mark_applied(store, name, decisions, run_id)
    store.finish_run(run_id, "ok", {**result.summary(), "decisions": sum(d.applied_run is None for d in decisions)})
    return result

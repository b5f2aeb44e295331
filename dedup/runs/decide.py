"""Decisions on pairs of rows (dedup.index.decisions): recorded, and applied to the stored groups.

``decide`` records decisions and regroups at once, under the table's lock, as a run of kind
``decide``: the groups of the rows named are worked out again from their stored sketches (as an
incremental run does for a group that lost a member), without the pairs decided different and
with those decided same. A full run and every incremental run apply all of a table's decisions,
so they stick. A decision recorded but not yet applied (a review cut short) is applied by the
next run of any kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from ..config.model import Config
from ..errors import ConfigError
from ..index.decisions import Decision
from ..index.keys import key_sort
from ..store import Store
from .changes import Batch, mark_applied, plan_changes
from .locking import table_run
from .recipe import Recipe
from .results import IncrementalResult
from .stored import stored_recipe


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


def regroup(store: Store, recipe: Recipe, run_id: int, again: Sequence[str] = ()) -> IncrementalResult | None:
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
        return IncrementalResult(table=name, run_id=run_id)
    plan = plan_changes(store, recipe, Batch.stored(store, recipe, list(again), state.watermark), run_id=run_id,
                        version=state.version, decisions=decisions)
    store.apply_changes(plan.changes)
    mark_applied(store, name, decisions, run_id)
    result = IncrementalResult(**vars(plan.update), table=name, run_id=run_id)
    store.finish_run(run_id, "ok", {**result.summary(), "decisions": sum(d.applied_run is None for d in decisions)})
    return result

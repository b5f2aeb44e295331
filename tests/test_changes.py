"""Folding a batch into the stored groups (dedup.runs.changes): a plan is computed, not applied,
and working out again rows that did not change plans no change to any group."""

from __future__ import annotations

import copy

from dedup.config import load_config
from dedup.demo import prepare_demo
from dedup.index.groups import Group, Pair
from dedup.runs.changes import Batch, _assign_ids, plan_changes
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.runs.stored import stored_recipe
from dedup.store import open_store


def test_stored_rows_worked_out_again_keep_their_groups_and_ids(tmp_path):
    cfg = load_config(str(prepare_demo(tmp_path / "demo", rows=150, seed=7)))
    run_full(cfg)
    store = open_store(cfg.store_url)
    try:
        state = store.state("petitions")
        recipe, _ = stored_recipe(Recipe.of(cfg, None), state)
        before = {g.id: g.keys for g in store.groups("petitions")}
        grouped = [g.keys[-1] for g in store.groups("petitions")][:5]
        batch = Batch.stored(store, recipe, grouped + ["no such key"], state.watermark)
        assert batch.keys == sorted(grouped, key=int) and batch.sketches.shape == (len(grouped), recipe.width)
        plan = plan_changes(store, recipe, batch, run_id=99, version=state.version)
        again = plan_changes(store, recipe, batch, run_id=99, version=state.version)
        assert {g.id: g.keys for g in store.groups("petitions")} == before  # planned, not applied
    finally:
        store.close()
    u = plan.update
    assert (u.new_groups, u.grown_groups, u.shrunk_groups, u.merges, u.dissolved, u.split) == ([], [], [], {}, [], [])
    assert {g.id: g.keys for g in plan.changes.upsert_groups} == {i: k for i, k in before.items()
                                                                  if set(k) & set(grouped)}
    assert plan.changes.delete_groups == [] and plan.changes.watermark == state.watermark
    assert u == again.update and plan.changes.upsert_groups == again.changes.upsert_groups


def test_assign_ids_returns_new_groups_and_leaves_its_inputs_alone():
    old = {3: Group(3, ["1", "2"], [0, 1], [Pair("1", "2", 1)], 1, 1), 5: Group(5, ["7", "8"], [0, 2], [], 2, 2)}
    clustered = [Group(0, ["1", "2", "7", "8"], [0, 1, 2, 2]), Group(0, ["20", "21"], [0, 1])]
    inputs = copy.deepcopy((old, clustered))
    groups, ids = _assign_ids(clustered, old, {"1": 3, "2": 3, "7": 5, "8": 5}, 10, 9)
    assert (old, clustered) == inputs
    assert [(g.id, g.created_run, g.updated_run, g.merged_from) for g in groups] == [(3, 1, 9, [5]), (10, 9, 9, [])]
    assert (ids.merges, ids.grown_groups, ids.new_groups, ids.shrunk_groups) == ({3: [5]}, [3], [10], [])

"""The incremental (cron) run: only rows past the stored watermark are read and compared.

New rows are fingerprinted, compared with each other (the same block search as the full run) and
with the stored fingerprints that share one of their blocks (fetched in batches of block names,
not one query per row). Groups are the connected components of all pairs within k, as in the full
run, kept up to date: a new row can start a group, join one, or merge several (the oldest id
survives); a row whose content changed leaves its group first (which may split it) and comes back
with its new fingerprint. The store applies all changes at once and the watermark moves last, so
a killed run, re-run, gives the same result as one clean run.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..config.lookback import describe as describe_lookback
from ..config.model import Config, GroupsConfig
from ..errors import ConfigError
from ..index.decisions import Decision, decided_keys
from ..index.clusters import QUORUM, cluster
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from ..store import Store, TableChanges, iso_utc
from . import late, sizes
from .full import stored_content, stored_terms
from .lineage import describe
from .locking import table_run
from .parallel import resolve_workers
from .recipe import LEARNED, Recipe, extra_words, fingerprints_of
from .stages import Progress, Rows, read_rows

log = logging.getLogger(__name__)


@dataclass
class IncrementalResult:
    table: str
    rows_read: int = 0
    fingerprinted: int = 0
    changed: int = 0  # rows that were already stored and were re-fingerprinted
    new_groups: list[int] = field(default_factory=list)
    grown_groups: list[int] = field(default_factory=list)  # groups that gained members (they may have lost some too)
    shrunk_groups: list[int] = field(default_factory=list)  # groups that only lost members and live on
    merges: dict[int, list[int]] = field(default_factory=dict)  # surviving id -> ids merged into it
    dissolved: list[int] = field(default_factory=list)  # groups left with fewer than two rows
    split: list[int] = field(default_factory=list)  # groups whose rows now lie in several groups
    rows_leaving: int = 0  # rows that were in a group and are in none now
    rows_joining: int = 0  # rows of this run that are in a group now
    skipped: int = 0
    unreadable: int = 0
    truncated: int = 0  # text cells cut to source.max_cell_chars
    truncated_rows: list[str] = field(default_factory=list)  # keys of rows with a cell cut (the first 100)
    null_watermark: int = 0  # rows an incremental run never reads: their watermark is NULL
    unchanged: int = 0  # rows read again in the lookback window and left alone (already done)
    lookback_from: str | None = None  # the watermark the lookback window started at (None: no window)
    reconciled: bool = False  # the key column was read to find deleted rows
    deleted: int = 0  # stored rows whose key the source no longer holds, removed by this run
    unseen_rows: int = 0  # at least this many source rows are not in the store (late beyond the lookback)
    run_id: int | None = None
    seconds: float = 0.0
    started: str | None = None  # when the run started, ISO 8601 UTC
    sizes: dict | None = None  # the groups' size profile after the run (dedup.runs.sizes)
    warnings: list[str] = field(default_factory=list)  # group sizes that look wrong (dedup.runs.sizes)

    def summary(self) -> dict:
        return {
            "table": self.table, "run": self.run_id, "rows": self.rows_read, "fingerprinted": self.fingerprinted,
            "changed": self.changed, "new_groups": len(self.new_groups), "grown_groups": len(self.grown_groups),
            "shrunk_groups": len(self.shrunk_groups),
            "merged_groups": sum(len(v) for v in self.merges.values()), "dissolved_groups": len(self.dissolved),
            "split_groups": len(self.split), "rows_joining_groups": self.rows_joining,
            "rows_left_groups": self.rows_leaving, "skipped": self.skipped, "unreadable": self.unreadable,
            "truncated": self.truncated, "truncated_rows": self.truncated_rows, "null_watermark": self.null_watermark,
            "unchanged": self.unchanged, "lookback_from": self.lookback_from, "reconciled": self.reconciled,
            "deleted": self.deleted, "unseen_rows": self.unseen_rows,
            "merges": [{"into": k, "from": v} for k, v in sorted(self.merges.items())],
            "seconds": round(self.seconds, 3), "started": self.started, "sizes": self.sizes,
            "warnings": self.warnings,
        }


def run_incremental(config: Config, table: str | None = None, progress: Progress | None = None,
                    on_total: Callable[[int], None] | None = None, reconcile: bool = False) -> IncrementalResult:
    """Fingerprint the rows past the table's watermark, and those of its lookback window whose
    watermark changed, and fold them into the stored groups; with ``reconcile`` (or on every
    ``reconcile_every``-th run) remove the rows deleted from the source too (dedup.runs.late)."""
    recipe = Recipe.of(config, table)
    name = recipe.table.name
    if not recipe.table.watermark:
        raise ConfigError(f"tables.{name}.watermark: required for incremental runs "
                          "(the column that says a row is new or changed)")
    started = time.perf_counter()
    with table_run(config, recipe.table, "incremental") as (source, store, run):
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
        recipe = stored_content(store, recipe, rows.features)
        sketches = recipe.sketch(rows.features, stored_terms(store, name, rows.features) if recipe.idf else None)
        decisions = store.decisions(name)
        changes, result = plan_changes(store, recipe, rows, sketches, run.id, version, decisions, gone, config.groups)
        log.debug("%s: writing the changes of run %d", name, run.id)
        store.apply_changes(changes)
        mark_applied(store, name, decisions, run.id)
        result.reconciled, result.unchanged = reconcile, rows.unchanged
        result.lookback_from = str(window) if window is not None else None
        result.unseen_rows = late.unseen_rows(source, store, name)
        if result.deleted:
            log.info("%s: %d rows deleted from the source removed from the store", name, result.deleted)
        if result.unseen_rows:
            log.warning("%s: at least %d source rows are not in the store: rows later than watermark_lookback "
                        "(%s) or with a NULL %s never reach an incremental run; `dedup full --table %s` reads them",
                        name, result.unseen_rows, describe_lookback(recipe.table.watermark_lookback), recipe.table.watermark,
                        name)
        result.seconds, result.started = time.perf_counter() - started, iso_utc(run.started_at)
        store.finish_run(run.id, "ok", result.summary())
    return result


def stored_recipe(recipe: Recipe, state) -> tuple[Recipe, dict]:
    """The recipe with what the last full run learned, and the version stamp to store; a
    ConfigError when the stored fingerprints were made with other settings (or need a full run)."""
    name = recipe.table.name
    version = recipe.version()
    stored_version = {k: v for k, v in state.version.items() if k != LEARNED} if state is not None else None
    if state is not None and stored_version != version:
        raise ConfigError(
            f"the fingerprints stored for {name!r} were made with other settings "
            f"({_differences(stored_version, version)}); run `dedup full --table {name}` to rebuild them")
    if state is not None and LEARNED in state.version:
        version[LEARNED] = state.version[LEARNED]
        recipe = recipe.using(state.version[LEARNED].get("fields"))
    if recipe.learns and recipe.learned is None:
        raise ConfigError(f"{name!r} is compared as records, by what a full run learns from the whole table: "
                          f"run `dedup full --table {name}` first")
    return recipe, version


def _differences(old: dict, new: dict) -> str:
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return ", ".join(f"{k} changed" for k in keys) or "unknown change"


def mark_applied(store: Store, table: str, decisions: list[Decision], run_id: int) -> None:
    """Record that run ``run_id`` regrouped with the decisions no run had applied yet."""
    pending = [d.pair for d in decisions if d.applied_run is None]
    if pending:
        store.mark_decisions_applied(table, pending, run_id)


def plan_changes(store: Store, recipe: Recipe, rows: Rows, sketches: np.ndarray, run_id: int,
                 version: dict, decisions: list[Decision] | tuple[()] = (), gone: list[str] | tuple[()] = (),
                 limits: GroupsConfig | None = None) -> tuple[TableChanges, IncrementalResult]:
    """Work out, from the store and the new rows, everything the store must change, and what it amounts to.

    ``decisions`` (all of the table's): pairs decided different are cut, pairs decided same joined;
    the groups of rows named by a decision no run has applied yet are regrouped as if a member changed.
    ``gone``: stored keys deleted from the source (they leave like changed rows, and do not come back).
    ``limits``: warn (logged, and in the result) of group sizes that look wrong (dedup.runs.sizes)."""
    table = recipe.table.name
    result = IncrementalResult(table, run_id=run_id)
    new_keys, new_sketches = rows.keys, np.asarray(sketches, dtype=np.uint64)
    new_fps = fingerprints_of(new_sketches, len(new_keys))
    read_keys = list(dict.fromkeys([*new_keys, *(s.key for s in rows.skipped)]))
    read_now = set(read_keys)
    gone = [k for k in gone if k not in read_now]  # a key read now is there (deleted, then added again)
    batch_keys = read_keys + gone
    in_batch = set(batch_keys)

    stored_before = store.fingerprints(table, batch_keys)  # rows of this batch already stored: changed rows
    touched = set(store.group_ids_of(table, batch_keys).values())  # groups that lose or change a member
    pending = decided_keys(d for d in decisions if d.applied_run is None) - in_batch
    touched |= set(store.group_ids_of(table, sorted(pending, key=key_sort)).values())

    new_old, stored_fp, taken = _pairs_with_stored(store, recipe, new_keys, new_sketches, in_batch)
    copies: set[str] = set()  # new rows identical to an earlier stored row: never a key's anchors
    if recipe.verifier is not None and new_old:
        new_old, copies = _verified(store, table, new_old, new_keys, new_sketches, stored_fp, recipe.verify)
    partners = decided_keys(d for d in decisions if in_batch & set(d.pair)) - in_batch
    matched = sorted({old for _, old, _ in new_old} | pending | partners, key=key_sort)
    involved = touched | set(store.group_ids_of(table, matched).values())
    old_groups = {g.id: g for g in store.groups(table, sorted(involved))} if involved else {}
    old_group_of = {m: g.id for g in old_groups.values() for m in g.keys if m not in in_batch}
    fp = store.fingerprints(table, sorted(set(old_group_of) | set(matched), key=key_sort))
    fp.update(zip(new_keys, (int(v) for v in new_fps)))

    pairs: list[Pair] = [_ordered(a, b, d) for a, b, d in new_old] + recipe.pairs(new_keys, new_sketches, taken)
    for g in old_groups.values():
        if g.id in touched:  # a member left or changed: its remaining members' pairs are recomputed
            rest = [m for m in g.keys if m not in in_batch]
            pairs += recipe.pairs(rest, stored_sketches(store, table, rest, fp, new_sketches.shape[1]))
        else:
            pairs += g.pairs
    lookup = SketchLookup(store, table, fp, dict(zip(new_keys, new_sketches)), recipe.width)
    if recipe.clustering == "star":  # the rows a new row may be checked against, in one read
        lookup([k for g in old_groups.values() for k in g.keys[:QUORUM] if k not in in_batch]
               + [k for k in matched if k not in old_group_of and k in fp])
    check = recipe.centre_check(lookup)
    settled = [g for g in old_groups.values() if g.id not in touched]  # members unchanged: placed already
    groups = _assign_ids(cluster(pairs, fp, check, decisions, settled), old_groups, old_group_of,
                         store.max_group_id(table) + 1, run_id, result)

    result.rows_read = rows.rows_read
    result.fingerprinted = len(new_keys)
    result.deleted = len(gone)
    result.changed = len(stored_before) - sum(1 for k in gone if k in stored_before)
    reasons = [s.reason for s in rows.skipped]
    result.skipped, result.unreadable = len(reasons), reasons.count("unreadable")
    result.truncated, result.null_watermark, result.truncated_rows = rows.truncated, rows.null_watermark, rows.truncated_rows
    grouped = {m for g in groups for m in g.keys}
    result.rows_joining = sum(1 for key in new_keys if key in grouped)
    result.dissolved = sorted(set(old_groups) - {g.id for g in groups} - {i for v in result.merges.values() for i in v})
    history, result.rows_leaving = describe(old_groups, groups)
    result.sizes, before = sizes.current(store, table, run_id, old_groups, groups)
    if limits is not None:
        changed = set(result.new_groups) | set(result.grown_groups)
        result.warnings = sizes.warnings(result.sizes, before, [g for g in groups if g.id in changed], limits)
        for w in result.warnings:
            log.warning("%s: %s", table, w)
    result.split = [c.group for c in history if "split" in c.kinds]

    old_keys = list(stored_before)
    changes = TableChanges(
        table=table, run_id=run_id, remove_keys=batch_keys,
        remove_blocks=recipe.block_entries(old_keys, stored_sketches(store, table, old_keys, stored_before,
                                                                  new_sketches.shape[1]), every_name=True),
        add_keys=list(new_keys), add_fingerprints=new_fps, add_sketches=extra_words(new_sketches),
        add_blocks=recipe.block_entries(new_keys, new_sketches, taken, copies), skipped=list(rows.skipped),
        delete_groups=sorted(set(old_groups) - {g.id for g in groups}), upsert_groups=groups,
        version=version, watermark=rows.watermark, changes=history,
        add_row_watermarks=[rows.row_watermarks.get(k) for k in new_keys] if rows.row_watermarks else None)
    return changes, result


def _ordered(a: str, b: str, d: int) -> Pair:
    return Pair(a, b, d) if key_sort(a) < key_sort(b) else Pair(b, a, d)


def _pairs_with_stored(store: Store, recipe: Recipe, keys: list[str], sketches: np.ndarray, in_batch: set[str]
                       ) -> tuple[list[tuple[str, str, int]], dict[str, int], dict[str, int]]:
    """(new key, stored key, distance) within reach, from the stored entries of the new rows' blocks
    (a key's anchors only, when the recipe anchors its buckets: dedup.index.anchors), the
    fingerprints those entries hold for the stored keys, and how many stored entries each block has."""
    fps = fingerprints_of(sketches, len(keys))
    names_of = recipe.block_names(sketches)
    entries = store.block_entries(recipe.table.name, sorted({n for ns in names_of for n in ns}))
    taken: dict[str, int] = {}
    rows, other_fp, other_key = [], [], []
    for name, members in entries.items():
        taken[name] = sum(1 for _, okey in members if okey not in in_batch)
    for i, names in enumerate(names_of):
        for name in names:
            for ofp, okey in entries.get(name, ()):
                if okey not in in_batch:
                    rows.append(i)
                    other_fp.append(ofp)
                    other_key.append(okey)
    if not rows:
        return [], {}, taken
    rows_a = np.asarray(rows, dtype=np.int64)
    dist = np.bitwise_count(fps[rows_a] ^ np.asarray(other_fp, dtype=np.uint64))
    close = np.flatnonzero(dist <= recipe.reach).tolist()
    return (sorted({(keys[rows[j]], other_key[j], int(dist[j])) for j in close}),
            {other_key[j]: int(other_fp[j]) for j in close}, taken)


def stored_sketches(store: Store, table: str, keys: list[str], fp: dict[str, int], words: int) -> np.ndarray:
    """Stored rows' sketches (fingerprint first) with ``words`` words, as a (len(keys), words)
    uint64 matrix aligned with ``keys``; missing words are 0."""
    out = np.zeros((len(keys), words), dtype=np.uint64)
    if not keys:
        return out
    out[:, 0] = np.fromiter((fp[k] for k in keys), dtype=np.uint64, count=len(keys))
    extra = store.sketches(table, keys) if words > 1 else {}
    rows = [extra.get(k, ()) for k in keys]
    full = [i for i, r in enumerate(rows) if len(r) >= words - 1]
    if full:  # one conversion for all rows that have every word (all of them, unless the store is old)
        out[np.asarray(full), 1:] = np.array([rows[i][:words - 1] for i in full], dtype=np.uint64)
    for i, r in enumerate(rows):
        if 0 < len(r) < words - 1:
            out[i, 1:1 + len(r)] = np.asarray(r, dtype=np.uint64)
    return out


def _verified(store: Store, table: str, pairs: list[tuple[str, str, int]], new_keys: list[str],
              new_sketches: np.ndarray, stored_fp: dict[str, int], verify
              ) -> tuple[list[tuple[str, str, int]], set[str]]:
    """The (new, stored) candidate pairs that pass verification (dedup.verify) on their sketches,
    and the new rows whose sketch equals that of a stored row with a lower key (copies)."""
    olds = sorted({old for _, old, _ in pairs}, key=key_sort)
    stored = stored_sketches(store, table, olds, stored_fp, new_sketches.shape[1])
    new_at = {k: i for i, k in enumerate(new_keys)}
    old_at = {k: i for i, k in enumerate(olds)}
    a = new_sketches[np.fromiter((new_at[n] for n, _, _ in pairs), dtype=np.int64, count=len(pairs))]
    b = stored[np.fromiter((old_at[o] for _, o, _ in pairs), dtype=np.int64, count=len(pairs))]
    keep = verify(a, b)
    same = (a == b).all(axis=1)
    copies = {n for (n, o, _), s in zip(pairs, same) if s and key_sort(o) < key_sort(n)}
    return [p for p, ok in zip(pairs, keep) if ok], copies


class SketchLookup:
    """keys -> their sketches, (len, width): this batch's rows from memory, stored rows from the
    store, each fetched once (star clustering verifies a few (centre, row) pairs at a time)."""

    def __init__(self, store: Store, table: str, fp: dict[str, int], new: dict[str, np.ndarray], width: int):
        self.store, self.table, self.fp, self.known, self.width = store, table, fp, dict(new), width

    def __call__(self, keys: list[str]) -> np.ndarray:
        missing = sorted({k for k in keys if k not in self.known}, key=key_sort)
        if missing:
            self.known.update(zip(missing, stored_sketches(self.store, self.table, missing, self.fp, self.width)))
        return np.array([self.known[k] for k in keys], dtype=np.uint64).reshape(len(keys), self.width)


def _assign_ids(clustered: list[Group], old_groups: dict[int, Group], old_group_of: dict[str, int],
                next_id: int, run_id: int, result: IncrementalResult) -> list[Group]:
    """The new groups (dedup.index.clusters.cluster), keeping stored ids: the oldest id of the
    groups a new group contains rows of survives; a split group's id stays with its part holding
    the lowest key."""
    used: set[int] = set()
    out: list[Group] = []
    for group in clustered:
        members = group.keys
        ids = sorted({old_group_of[m] for m in members if m in old_group_of} - used)
        if ids:
            old = old_groups[ids[0]]
            used.update(ids)
            group.id, group.created_run = old.id, old.created_run
            group.merged_from = list(old.merged_from) + ids[1:]
            changed = set(members) != set(old.keys)
            group.updated_run = run_id if changed else old.updated_run
            if ids[1:]:
                result.merges[old.id] = ids[1:]
            if set(members) - set(old.keys):
                result.grown_groups.append(old.id)
            elif changed:
                result.shrunk_groups.append(old.id)
        else:
            group.id, group.created_run, group.updated_run = next_id, run_id, run_id
            next_id += 1
            result.new_groups.append(group.id)
        out.append(group)
    return out

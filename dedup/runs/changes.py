"""Folding a batch of rows into the stored groups: everything the store must change, and what it
amounts to (dedup.runs.incremental for the rows past the watermark, dedup.runs.decide for the rows
whose decisions changed).

The batch's rows are compared with each other and with the stored rows that share one of their
blocks; the groups that lose or change a member are worked out again from their remaining
members' stored sketches; the clusters keep the stored ids (the oldest of merged groups survives).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import numpy as np

from collections.abc import Sequence
from ..config.model import GroupsConfig
from ..index.clusters import QUORUM, cluster
from ..index.decisions import Decision, decided_keys
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from ..store import Skipped, Store, TableChanges
from . import sizes
from .lineage import describe
from .recipe import Recipe, extra_words, fingerprints_of
from .results import GroupUpdate
from .stages import Rows
from .stored import SketchLookup, stored_sketches

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class Batch:
    """The rows a regrouping starts from: rows to (re)place with their sketches, the rows read
    and set aside, the stored keys deleted from the source, and the watermark to store."""

    keys: list[str]
    sketches: np.ndarray
    skipped: list[Skipped] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)  # they leave like changed rows, and do not come back
    watermark: dict | None = None
    row_watermarks: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def read(cls, rows: Rows, sketches: np.ndarray, gone: Sequence[str] = ()) -> Batch:
        """The rows a run read (dedup.runs.stages.read_rows), sketched."""
        return cls(keys=rows.keys, sketches=sketches, skipped=list(rows.skipped), gone=list(gone),
                   watermark=rows.watermark, row_watermarks=rows.row_watermarks)

    @classmethod
    def stored(cls, store: Store, recipe: Recipe, keys: list[str], watermark: dict | None) -> Batch:
        """Stored rows, as if they had changed, from their stored sketches (keys of no stored row
        left out); the watermark stays ``watermark``."""
        table = recipe.table.name
        fp = store.fingerprints(table, sorted(set(keys), key=key_sort))
        keys = [k for k in sorted(set(keys), key=key_sort) if k in fp]
        return cls(keys=keys, sketches=stored_sketches(store, table, keys, fp, recipe.width), watermark=watermark,
                   row_watermarks=store.row_watermarks(table, keys) if keys else {})


@dataclass(frozen=True, kw_only=True)
class Plan:
    """What the store must change (Store.apply_changes), and what that does to the groups."""

    changes: TableChanges
    update: GroupUpdate


@dataclass(kw_only=True)
class _Scope:
    """The keys, pairs and stored groups a batch involves (read from the store once)."""

    fps: np.ndarray  # the batch rows' fingerprints
    batch_keys: list[str]  # every key the batch replaces or removes
    in_batch: set[str]
    gone: list[str]
    stored_before: dict[str, int]  # batch keys already stored: changed rows
    touched: set[int]  # groups that lose or change a member
    matched: list[str]  # stored rows paired with a batch row or named by a decision
    new_old: list[tuple[str, str, int]]  # (batch key, stored key, distance) pairs, verified
    taken: dict[str, int]  # stored entries a block has
    copies: set[str]  # batch rows identical to an earlier stored row: never a key's anchors
    old_groups: dict[int, Group]
    old_group_of: dict[str, int]  # stored key (not in the batch) -> its group
    fp: dict[str, int]  # fingerprints of every row involved


def mark_applied(store: Store, table: str, decisions: list[Decision], run_id: int) -> None:
    """Record that run ``run_id`` regrouped with the decisions no run had applied yet."""
    pending = [d.pair for d in decisions if d.applied_run is None]
    if pending:
        store.mark_decisions_applied(table, pending, run_id)


def plan_changes(store: Store, recipe: Recipe, batch: Batch, *, run_id: int, version: dict,
                 decisions: Sequence[Decision] = (), limits: GroupsConfig | None = None) -> Plan:
    """Work out, from the store and the batch, everything the store must change, and what it amounts to.

    ``decisions`` (all of the table's): pairs decided different are cut, pairs decided same joined;
    the groups of rows named by a decision no run has applied yet are regrouped as if a member changed.
    ``limits``: warn (logged, and in the update) of group sizes that look wrong (dedup.runs.sizes)."""
    scope = _scope(store, recipe, batch, decisions)
    lookup = _lookup(store, recipe, batch, scope)
    clustered = cluster(_pairs(store, recipe, batch, scope), scope.fp, recipe.centre_check(lookup),
                        decisions, [g for g in scope.old_groups.values() if g.id not in scope.touched],
                        recipe.gather, recipe.merge, recipe.widen, recipe.alone_check(lookup),
                        recipe.near_check(lookup), recipe.odd_check(lookup))
    groups, ids = _assign_ids(clustered, scope.old_groups, scope.old_group_of,
                              store.max_group_id(recipe.table.name) + 1, run_id)
    history, rows_leaving = describe(scope.old_groups, groups)
    update = _update(store, recipe.table.name, batch, scope, groups, ids, run_id, limits)
    update = replace(update, rows_leaving=rows_leaving, split=[c.group for c in history if "split" in c.kinds])
    return Plan(changes=_table_changes(store, recipe, batch, scope, groups, history, run_id, version), update=update)


def _scope(store: Store, recipe: Recipe, batch: Batch, decisions: Sequence[Decision]) -> _Scope:
    """The batch's keys, its pairs with stored rows, and the stored groups and rows they involve."""
    table, keys = recipe.table.name, batch.keys
    sketches = np.asarray(batch.sketches, dtype=np.uint64)
    read_keys = list(dict.fromkeys([*keys, *(s.key for s in batch.skipped)]))
    read_now = set(read_keys)
    gone = [k for k in batch.gone if k not in read_now]  # a key read now is there (deleted, then added again)
    batch_keys = read_keys + gone
    in_batch = set(batch_keys)
    stored_before = store.fingerprints(table, batch_keys)
    touched = set(store.group_ids_of(table, batch_keys).values())
    pending = decided_keys(d for d in decisions if d.applied_run is None) - in_batch
    touched |= set(store.group_ids_of(table, sorted(pending, key=key_sort)).values())

    new_old, stored_fp, taken = _pairs_with_stored(store, recipe, keys, sketches, in_batch)
    copies: set[str] = set()
    if recipe.verifier is not None and new_old:
        new_old, copies = _verified(store, table, new_old, keys, sketches, stored_fp, recipe.verify)
    partners = decided_keys(d for d in decisions if in_batch & set(d.pair)) - in_batch
    matched = sorted({old for _, old, _ in new_old} | pending | partners, key=key_sort)
    involved = touched | set(store.group_ids_of(table, matched).values())
    old_groups = {g.id: g for g in store.groups(table, sorted(involved))} if involved else {}
    old_group_of = {m: g.id for g in old_groups.values() for m in g.keys if m not in in_batch}
    fps = fingerprints_of(sketches, len(keys))
    fp = store.fingerprints(table, sorted(set(old_group_of) | set(matched), key=key_sort))
    fp.update(zip(keys, (int(v) for v in fps)))
    return _Scope(fps=fps, batch_keys=batch_keys, in_batch=in_batch, gone=gone, stored_before=stored_before,
                  touched=touched, matched=matched, new_old=new_old, taken=taken, copies=copies,
                  old_groups=old_groups, old_group_of=old_group_of, fp=fp)


def _pairs(store: Store, recipe: Recipe, batch: Batch, scope: _Scope) -> list[Pair]:
    """The pairs to cluster: the batch's with stored rows and with each other, those among the
    remaining members of a touched group (recomputed), and the other groups' stored pairs."""
    sketches = np.asarray(batch.sketches, dtype=np.uint64)
    # a copy of a stored row is linked to it (scope.new_old) and searched no further: in one full run it is
    # that row, whose pairs with the batch's rows the stored search made if it is an anchor (if not, its
    # buckets' anchors are full and no row of the batch is one); searched, it took an anchor place
    fresh = [i for i, k in enumerate(batch.keys) if k not in scope.copies] if scope.copies else None
    searched = (batch.keys, sketches) if fresh is None else ([batch.keys[i] for i in fresh], sketches[fresh])
    pairs = [_ordered(a, b, d) for a, b, d in scope.new_old] + recipe.pairs(*searched, scope.taken)
    for g in scope.old_groups.values():
        if g.id in scope.touched:  # a member left or changed: its remaining members' pairs are recomputed
            rest = [m for m in g.keys if m not in scope.in_batch]
            pairs += recipe.pairs(rest, stored_sketches(store, recipe.table.name, rest, scope.fp, sketches.shape[1]))
        else:
            pairs += g.pairs
    return pairs


def _lookup(store: Store, recipe: Recipe, batch: Batch, scope: _Scope) -> SketchLookup:
    """Sketches from the batch or the store, for the recipe's checks of a (centre, row) pair."""
    sketches = np.asarray(batch.sketches, dtype=np.uint64)
    lookup = SketchLookup(store, recipe.table.name, scope.fp, dict(zip(batch.keys, sketches)), recipe.width)
    if recipe.clustering == "star":  # the rows a new row may be checked against, in one read
        lookup([k for g in scope.old_groups.values() for k in g.keys[:QUORUM] if k not in scope.in_batch]
               + [k for k in scope.matched if k not in scope.old_group_of and k in scope.fp])
    return lookup


def _update(store: Store, table: str, batch: Batch, scope: _Scope, groups: list[Group], ids: GroupUpdate,
            run_id: int, limits: GroupsConfig | None) -> GroupUpdate:
    """What the new groups do to the stored ones (``ids``: the ids assign_ids kept and made)."""
    reasons = [s.reason for s in batch.skipped]
    grouped = {m for g in groups for m in g.keys}
    merged = {i for v in ids.merges.values() for i in v}
    profile, before = sizes.current(store, table, run_id, scope.old_groups, groups)
    warnings: list[str] = []
    if limits is not None:
        changed = set(ids.new_groups) | set(ids.grown_groups)
        warnings = sizes.warnings(profile, before, [g for g in groups if g.id in changed], limits)
        for w in warnings:
            log.warning("%s: %s", table, w)
    return replace(
        ids, fingerprinted=len(batch.keys), deleted=len(scope.gone),
        changed=len(scope.stored_before) - sum(1 for k in scope.gone if k in scope.stored_before),
        skipped=len(reasons), unreadable=reasons.count("unreadable"),
        rows_joining=sum(1 for key in batch.keys if key in grouped),
        dissolved=sorted(set(scope.old_groups) - {g.id for g in groups} - merged), sizes=profile, warnings=warnings)


def _table_changes(store: Store, recipe: Recipe, batch: Batch, scope: _Scope, groups: list[Group], history: list,
                   run_id: int, version: dict) -> TableChanges:
    """The store's changes: the batch's rows and blocks replaced, the groups deleted and upserted."""
    sketches = np.asarray(batch.sketches, dtype=np.uint64)
    old_keys = list(scope.stored_before)
    old_sketches = stored_sketches(store, recipe.table.name, old_keys, scope.stored_before, sketches.shape[1])
    return TableChanges(
        table=recipe.table.name, run_id=run_id, remove_keys=scope.batch_keys,
        remove_blocks=recipe.block_entries(old_keys, old_sketches, every_name=True),
        add_keys=list(batch.keys), add_fingerprints=scope.fps, add_sketches=extra_words(sketches),
        add_blocks=recipe.block_entries(batch.keys, sketches, scope.taken, scope.copies), skipped=list(batch.skipped),
        delete_groups=sorted(set(scope.old_groups) - {g.id for g in groups}), upsert_groups=groups,
        version=version, watermark=batch.watermark, changes=history,
        add_row_watermarks=[batch.row_watermarks.get(k) for k in batch.keys] if batch.row_watermarks else None)


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


def _assign_ids(clustered: list[Group], old_groups: dict[int, Group], old_group_of: dict[str, int],
                next_id: int, run_id: int) -> tuple[list[Group], GroupUpdate]:
    """The new groups (dedup.index.clusters.cluster) with stored ids kept, and which ids are new,
    grown, shrunk or merged: the oldest id of the groups a new group contains rows of survives; a
    split group's id stays with its part holding the lowest key."""
    used: set[int] = set()
    out: list[Group] = []
    ids = GroupUpdate()
    for group in clustered:
        members = group.keys
        old_ids = sorted({old_group_of[m] for m in members if m in old_group_of} - used)
        if not old_ids:
            out.append(replace(group, id=next_id, created_run=run_id, updated_run=run_id))
            ids.new_groups.append(next_id)
            next_id += 1
            continue
        old = old_groups[old_ids[0]]
        used.update(old_ids)
        changed = set(members) != set(old.keys)
        out.append(replace(group, id=old.id, created_run=old.created_run, merged_from=list(old.merged_from) + old_ids[1:],
                           updated_run=run_id if changed else old.updated_run))
        if old_ids[1:]:
            ids.merges[old.id] = old_ids[1:]
        if set(members) - set(old.keys):
            ids.grown_groups.append(old.id)
        elif changed:
            ids.shrunk_groups.append(old.id)
    return out, ids

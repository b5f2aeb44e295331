"""Group ids that survive a run, and what a run did to each group (the run history).

A full run finds its groups from scratch; ``keep_ids`` gives each the id of the stored group it
overlaps most, so ids survive a weekly full run: candidate (new group, old group) pairs are taken
largest overlap first (ties: the larger share of the two groups' rows, then the lower old id,
then the new group's lowest key), each old id and each new group at most once; the groups left
over get fresh ids above every id used before, in order of their lowest key. An incremental run
keeps ids its own way (dedup.runs.incremental); both then call ``describe`` to record what
changed: which groups are new, grown, merged, split, shrunk or gone, and which rows arrived or left.
"""

from __future__ import annotations

from collections import Counter

from ..index.groups import Group
from ..index.keys import key_sort
from ..store.model import CHANGE_KINDS, GroupChange
from .summary import ChangeCounts


def keep_ids(new: list[Group], old: list[Group], next_id: int, run_id: int) -> None:
    """Number the full run's ``new`` groups (in place) after the stored ``old`` ones, as the module says;
    created_run, updated_run and merged_from carry over from the group whose id is kept."""
    old_of = {k: g.id for g in old for k in g.keys}
    old_by_id = {g.id: g for g in old}
    candidates = []
    for i, g in enumerate(new):
        for oid, n in Counter(old_of[k] for k in g.keys if k in old_of).items():
            share = n / (g.size + old_by_id[oid].size - n)
            candidates.append((-n, -share, oid, key_sort(g.keys[0]), i))
    kept: dict[int, int] = {}  # new group index -> old id
    used: set[int] = set()
    for _n, _share, oid, _key, i in sorted(candidates):
        if i not in kept and oid not in used:
            kept[i] = oid
            used.add(oid)
    for i, g in sorted(enumerate(new), key=lambda e: key_sort(e[1].keys[0])):
        if i in kept:
            was = old_by_id[kept[i]]
            g.id, g.created_run, g.merged_from = was.id, was.created_run, list(was.merged_from)
            g.updated_run = was.updated_run if set(g.keys) == set(was.keys) else run_id
        else:
            g.id, g.created_run, g.updated_run, g.merged_from = next_id, run_id, run_id, []
            next_id += 1
    new_of = {k: g.id for g in new for k in g.keys}
    by_id = {g.id: g for g in new}
    for oid in sorted(set(old_by_id) - used):  # ids not kept: merged into where most of their rows went
        into = _main(Counter(new_of[k] for k in old_by_id[oid].keys if k in new_of))
        if into is not None:
            by_id[into].merged_from.append(oid)
    new.sort(key=lambda g: g.id)


def describe(old: dict[int, Group], new: list[Group]) -> tuple[list[GroupChange], int]:
    """What turned the ``old`` groups (id -> group, those the run touched) into the ``new`` ones
    (the run's groups with their ids, unchanged ones included): a GroupChange per changed id, by id,
    and the number of rows that were in a group and are in none now."""
    old_of = {k: gid for gid, g in old.items() for k in g.keys}
    new_of = {k: g.id for g in new for k in g.keys}
    by_id = {g.id: g for g in new}
    out: list[GroupChange] = []
    absorbed: dict[int, int] = {}  # old id merged away -> the group that took it
    for g in new:
        before = old.get(g.id)
        merged = [i for i in g.merged_from if i in old and i != g.id and (before is None or i not in before.merged_from)]
        absorbed.update((i, g.id) for i in merged)
        added = [k for k in g.keys if k not in old_of]
        if before is None:
            source = _main(Counter(old_of[k] for k in g.keys if k in old_of))
            out.append(GroupChange(g.id, ["new"], g.size, added, merged_from=merged, split_from=source))
            continue
        keys = set(g.keys)
        removed = [k for k in before.keys if k not in keys]
        split_into = sorted({new_of[k] for k in removed if k in new_of and new_of[k] not in old})
        kinds = {"grown": len(keys - set(before.keys)) > 0, "merged": bool(merged), "split": bool(split_into)}
        kinds["shrunk"] = bool(removed) and not kinds["grown"] and not kinds["split"]
        if any(kinds.values()):
            out.append(GroupChange(g.id, [k for k in CHANGE_KINDS if kinds.get(k)], g.size, added, removed,
                                   merged, split_into=split_into))
    for gid in sorted(set(old) - set(by_id)):
        out.append(GroupChange(gid, ["gone"], 0, removed=list(old[gid].keys), merged_into=absorbed.get(gid)))
    out.sort(key=lambda c: c.group)
    left = sum(1 for k in old_of if k not in new_of)
    return out, left


def counts(changes: list[GroupChange], rows_left: int) -> dict:
    """The change counts of a run's summary (the columns of `dedup runs`)."""
    n = Counter(k for c in changes for k in c.kinds)
    merged = sum(1 for c in changes if c.merged_into is not None)
    return ChangeCounts(new_groups=n["new"], grown_groups=n["grown"], shrunk_groups=n["shrunk"], merged_groups=merged,
                        split_groups=n["split"], dissolved_groups=n["gone"] - merged, rows_left_groups=rows_left).as_dict()


def _main(where: Counter) -> int | None:
    """The id most rows went to (ties: the lowest), None for nowhere."""
    return min(where, key=lambda i: (-where[i], i)) if where else None

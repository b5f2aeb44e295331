"""A reviewer's actions on groups, as sets of pair decisions (dedup.index.decisions), for the CLI
(`dedup decide`) and the web workbench alike.

Each action takes the table's lock (a run of kind ``decide``, as `decide` does), records its
decisions with the reviewer, the time, a note and one action id, and regroups at once; every
later full and incremental run applies the decisions again, so the action sticks. Taking a row out
decides it "different" from every other member of its group, so no link into the group is left;
a split decides every pair across the parts "different"; a merge every pair across the two groups
"same". Undo removes the last action's decisions, puts back those they had replaced, and works
the rows named out again.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from dataclasses import dataclass, field
from itertools import combinations, product

from ..clock import now
from ..config.model import Config
from ..errors import ConfigError
from ..index.decisions import DIFFERENT, SAME, VERDICTS, Action, Decision, GroupNote, ordered
from ..index.keys import key_sort
from ..store import Store, open_store
from .decide import refuse_unknown_keys, regroup
from .results import IncrementalResult
from .locking import table_run
from .recipe import Recipe


@dataclass(frozen=True)
class ActionResult:
    """What an action did: its id (for undo, the id of the action undone), its kind, the number of
    pair decisions it recorded or removed, and the regrouping (IncrementalResult.summary(); empty
    when the table has no groups yet: the decisions wait for its first full run)."""
    action: str
    kind: str
    decisions: int
    changed: dict = field(default_factory=dict)
    groups: tuple[int, ...] = ()  # the groups it named (take_out, split: the group; merge: both)


def mark(config: Config, table: str | None, a: str, b: str, verdict: str, *, reviewer: str | None,
         note: str | None = None, source: str = "decide") -> ActionResult:
    """Two rows are the same matter (``verdict`` "same") or not ("different")."""
    if verdict not in VERDICTS:
        raise ConfigError(f"a decision is one of {', '.join(VERDICTS)}, not {verdict!r}")
    if a == b:
        raise ConfigError("give two different keys")
    return _act(config, table, "mark", reviewer, note, source, lambda store, name: ([(a, b, verdict)], (a, b), ()))


def take_out(config: Config, table: str | None, key: str, *, reviewer: str | None, note: str | None = None,
             source: str = "decide") -> ActionResult:
    """Take row ``key`` out of its group: "different" from each other member."""
    def plan(store: Store, name: str):
        group = _group_of(store, name, [key])
        return [(key, m, DIFFERENT) for m in group.keys if m != key], (key,), (group.id,)
    return _act(config, table, "take_out", reviewer, note, source, plan)


def split(config: Config, table: str | None, parts: list[list[str]], *, reviewer: str | None,
          note: str | None = None, source: str = "decide") -> ActionResult:
    """Split a group: every pair of rows across two of ``parts`` (rows of one group) is "different";
    rows of the group no part names stay where their links put them."""
    parts = [list(dict.fromkeys(p)) for p in parts if p]
    named = [k for p in parts for k in p]
    if len(parts) < 2:
        raise ConfigError("a split needs at least two parts, each naming rows")
    if len(set(named)) < len(named):
        raise ConfigError("a row is named in two parts of the split")

    def plan(store: Store, name: str):
        group = _group_of(store, name, named)
        pairs = [(x, y, DIFFERENT) for p, q in combinations(parts, 2) for x, y in product(p, q)]
        return pairs, tuple(named), (group.id,)
    return _act(config, table, "split", reviewer, note, source, plan)


def merge(config: Config, table: str | None, group_a: int, group_b: int, *, reviewer: str | None,
          note: str | None = None, source: str = "decide") -> ActionResult:
    """Merge two groups: every pair of rows across them is "same"."""
    if int(group_a) == int(group_b):
        raise ConfigError(f"merging group {group_a} with itself: give two groups")

    def plan(store: Store, name: str):
        found = {g.id: g for g in store.groups(name, [int(group_a), int(group_b)])}
        missing = [str(g) for g in (int(group_a), int(group_b)) if g not in found]
        if missing:
            raise ConfigError(f"no group {' or '.join(missing)} in {name!r} (see `dedup report`)")
        a, b = found[int(group_a)], found[int(group_b)]
        return [(x, y, SAME) for x, y in product(a.keys, b.keys)], (), (a.id, b.id)
    return _act(config, table, "merge", reviewer, note, source, plan)


def forget(config: Config, table: str | None, a: str, b: str, *, reviewer: str | None = None) -> ActionResult:
    """Remove the decision on two rows (undo puts it back) and work the two rows out again."""
    if a == b:
        raise ConfigError("give two different keys")
    pair = ordered(a, b)
    recipe = Recipe.of(config, table)
    with table_run(config, recipe.table, "decide") as (_source, store, run):
        name = recipe.table.name
        old = [d for d in store.decisions(name, list(pair)) if d.pair == pair]
        aid = new_id() if old else ""
        if old:
            store.put_action(name, Action(aid, "forget", now(), reviewer, pair, pairs=(pair,), replaced=tuple(old)))
            store.delete_decisions(name, [pair])
        result = regroup(store, recipe, run.id, _cover(store, name, {pair}) if old else [])
    return ActionResult(aid, "forget", len(old), _summary(result))


def undo_last(config: Config, table: str | None, *, reviewer: str | None = None) -> ActionResult:
    """Undo the last action not yet undone (``reviewer``'s last when given): its decisions that no
    later action replaced are removed, those it had replaced put back, and its rows regrouped."""
    recipe = Recipe.of(config, table)
    with table_run(config, recipe.table, "decide") as (_source, store, run):
        name = recipe.table.name
        last = store.actions(name, 1, reviewer, undone=False)
        if not last:
            who = f" by {reviewer}" if reviewer else ""
            raise ConfigError(f"nothing to undo{who} in {name!r}")
        action = last[0]
        pairs = set(action.pairs)
        keys = sorted({k for p in pairs for k in p}, key=key_sort)
        current = [d for d in store.decisions(name, keys) if d.pair in pairs]
        mine = {d.pair for d in current if d.action == action.id}
        if action.kind == "forget":  # its pair has no decision, unless a later action made one
            mine = pairs - {d.pair for d in current}
        store.delete_decisions(name, sorted(mine))
        back = [d for d in action.replaced if d.pair in mine]
        if back:
            store.put_decisions(name, back)  # applied_run None: regrouped now
        store.mark_action_undone(name, action.id, now(), reviewer)
        result = regroup(store, recipe, run.id, _cover(store, name, mine))
    return ActionResult(action.id, "undo", len(mine), _summary(result))


def history(config: Config, table: str | None, *, limit: int = 50) -> list[Action]:
    """The table's last ``limit`` actions, newest first (undone ones too: see ``undone_at``)."""
    name = config.table(table).name
    with open_store(config.store_url, read_only=True) as store:
        return store.actions(name, limit)


def note_group(config: Config, table: str | None, group_id: int, text: str, *, reviewer: str | None) -> GroupNote:
    """Keep a note on a group (under its id, which later runs keep while the group lives)."""
    if not text.strip():
        raise ConfigError("a note needs some text")
    name = config.table(table).name
    with open_store(config.store_url) as store:
        if not store.groups(name, [int(group_id)]):
            raise ConfigError(f"no group {group_id} in {name!r} (see `dedup report`)")
        note = GroupNote(int(group_id), text.strip(), reviewer, now())
        store.put_group_note(name, note)
        return note


def group_notes(config: Config, table: str | None, group_id: int | None) -> list[GroupNote]:
    """The notes on a group (every group's when None), oldest first."""
    name = config.table(table).name
    with open_store(config.store_url, read_only=True) as store:
        return store.group_notes(name, None if group_id is None else int(group_id))


def new_id() -> str:
    """An action id that sorts in time order: UTC to the microsecond, then 6 random hex digits."""
    return f"{_dt.datetime.now(_dt.timezone.utc):%Y%m%dT%H%M%S%f}-{secrets.token_hex(3)}"


def _act(config: Config, table: str | None, kind: str, reviewer: str | None, note: str | None, source: str,
         plan) -> ActionResult:
    """Under the table's lock: ``plan(store, table name)`` gives (pairs (a, b, verdict), keys
    named, groups named); record the action and its decisions, then regroup."""
    recipe = Recipe.of(config, table)
    with table_run(config, recipe.table, "decide") as (_source, store, run):
        name = recipe.table.name
        triples, keys, groups = plan(store, name)
        at, aid = now(), new_id()
        decisions = list({d.pair: d for d in (Decision(a, b, v, at, source, None, None, reviewer, note or None, aid)
                                              for a, b, v in triples)}.values())
        if not decisions:
            raise ConfigError(f"{kind.replace('_', ' ')}: nothing to decide")
        refuse_unknown_keys(store, name, decisions)
        pairs = {d.pair for d in decisions}
        replaced = tuple(d for d in store.decisions(name, sorted({k for p in pairs for k in p}, key=key_sort))
                         if d.pair in pairs)
        store.put_action(name, Action(aid, kind, at, reviewer, tuple(keys), tuple(int(g) for g in groups),
                                      tuple(sorted(pairs)), note or None, replaced))
        store.put_decisions(name, decisions)
        result = regroup(store, recipe, run.id)
    return ActionResult(aid, kind, len(decisions), _summary(result), tuple(int(g) for g in groups))


def _group_of(store: Store, name: str, keys: list[str]):
    """The one stored group holding every row of ``keys``; a one-line refusal otherwise."""
    if store.state(name) is None:
        raise ConfigError(f"no groups in {name!r} yet: run `dedup full` first")
    of = store.group_ids_of(name, keys)
    outside = [k for k in keys if k not in of]
    if outside:
        raise ConfigError(f"row {outside[0]!r} is in no group of {name!r}")
    ids = sorted(set(of.values()))
    if len(ids) > 1:
        raise ConfigError(f"the rows named are in groups {', '.join(map(str, ids))}, not one group")
    return store.groups(name, ids)[0]


def _cover(store: Store, name: str, pairs: set[tuple[str, str]]) -> list[str]:
    """Rows to work out again after decisions on ``pairs`` were removed: one end of each pair (its
    candidate pairs bring the other end back), as few as can be found greedily, rows in no group
    first, so that a group keeps its id through the other members it still has."""
    grouped = set(store.group_ids_of(name, sorted({k for p in pairs for k in p}, key=key_sort)))
    left, out = set(pairs), []
    while left:
        counts: dict[str, int] = {}
        for p in left:
            for k in p:
                counts[k] = counts.get(k, 0) + 1
        best = min(counts, key=lambda k: (-counts[k], k in grouped, key_sort(k)))
        out.append(best)
        left = {p for p in left if best not in p}
    return sorted(out, key=key_sort)


def _summary(result: IncrementalResult | None) -> dict:
    return {} if result is None else result.summary()

"""The run history for people: `dedup runs` (the list) and the scope of `report --run N` / `--since-last-run`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..config.model import Config
from ..errors import ConfigError
from ..index.groups import Group
from ..store import GroupChange, RunRecord, Store, iso_utc, open_store
from ..runs.summary import CHANGE_COUNTS
from ..store.model import CHANGE_KINDS
from .cells import visible

# the `dedup runs` column of each change count of a run's summary (dedup.runs.summary)
COLUMNS = {"new_groups": "new", "grown_groups": "grown", "merged_groups": "merged", "split_groups": "split",
           "shrunk_groups": "shrunk", "dissolved_groups": "gone", "rows_left_groups": "left"}
COUNTS = tuple((k, COLUMNS[k]) for k in CHANGE_COUNTS)  # a count without a column fails at import
ALL_RUNS = 1_000_000  # a store's whole history (one cron run a night for thousands of years)


def changed(run: RunRecord) -> bool:
    """Whether a run changed any group: its change counts, or for a full run recorded before runs kept
    them, whether it found any group."""
    s = run.summary or {}
    if "new_groups" not in s:
        return run.kind == "full" and bool(s.get("groups"))
    return any(s.get(k) for k, _ in COUNTS)


@dataclass
class RunScope:
    """The groups a report shows for one run, what the run did to them and the groups it ended."""

    run: RunRecord | None
    groups: list[Group] = field(default_factory=list)
    changes: dict[int, GroupChange] = field(default_factory=dict)
    gone: list[GroupChange] = field(default_factory=list)
    added: set[str] = field(default_factory=set)  # rows that were in no group before the run
    through: int | None = None  # the last run shown: ``run`` itself, or the latest with --since-run

    def describe(self) -> dict | None:
        r = self.run
        if r is None:
            return None
        return {"id": r.id, "through": self.through if self.through is not None else r.id, "kind": r.kind,
                "status": r.status, "started_at": str(r.started_at), "started": iso_utc(r.started_at),
                "finished_at": str(r.finished_at), **{k: (r.summary or {}).get(k, 0) for k, _ in COUNTS}}


def run_scope(store: Store, table: str, run_id: int | None, groups: list[Group], since: bool = False) -> RunScope:
    """Run ``run_id``, or (None) the last successful run that changed any group, and the stored groups
    it changed (``since``: that run and every later one did). A run recorded before runs kept their
    history shows the groups it last updated."""
    runs = store.runs(table, limit=ALL_RUNS)
    if run_id is not None:
        run = next((r for r in runs if r.id == run_id), None)
        if run is None:
            raise ConfigError(f"run {run_id} is not a run of table {table!r} (`dedup runs --table {table}` lists them)")
    else:
        run = next((r for r in runs if r.status == "ok" and changed(r)), None)
    if run is None:
        return RunScope(None)
    if "rows_left_groups" not in (run.summary or {}):  # before the run history
        return RunScope(run, [g for g in groups if g.updated_run == run.id])
    changes: dict[int, GroupChange] = {}
    for r in sorted((r for r in runs if r.id >= run.id), key=lambda r: r.id) if since else [run]:
        for c in store.run_changes(table, r.id):
            changes[c.group] = _combined(changes[c.group], c) if c.group in changes else c
    live = {g.id for g in groups}
    shown = [g for g in groups if g.id in changes]
    return RunScope(run, shown, changes, [c for c in changes.values() if "gone" in c.kinds and c.group not in live],
                    {k for g in shown for k in set(changes[g.id].added) & set(g.keys)},
                    max(r.id for r in runs) if since else run.id)


def _combined(a: GroupChange, b: GroupChange) -> GroupChange:
    """What an earlier run (a) and a later one (b) did to one group id, together."""
    kinds = set(a.kinds) | set(b.kinds)
    return GroupChange(a.group, [k for k in CHANGE_KINDS if k in kinds], b.size,
                       list(dict.fromkeys(a.added + b.added)), list(dict.fromkeys(a.removed + b.removed)),
                       list(dict.fromkeys(a.merged_from + b.merged_from)), b.merged_into,
                       list(dict.fromkeys(a.split_into + b.split_into)),
                       a.split_from if a.split_from is not None else b.split_from)


def change_entry(c: GroupChange) -> dict:
    """A group's ``change`` in the report JSON."""
    return {"kinds": list(c.kinds), "added": list(c.added), "removed": list(c.removed),
            "merged_from": list(c.merged_from), "split_into": list(c.split_into), "split_from": c.split_from}


def runs_text(config: Config, table: str | None, limit: int, as_json: bool = False, kind: str | None = None) -> str:
    """`dedup runs`: the table's most recent runs (of one ``kind``: full, incremental or decide), as
    text or JSON, from the store opened read-only."""
    name = config.table(table).name
    with open_store(config.store_url, read_only=True) as store:
        history = store.runs(name, limit=ALL_RUNS if kind else limit)
    if kind:
        history = [r for r in history if r.kind == kind][:limit]
    return json.dumps(runs_json(history), ensure_ascii=False, indent=2) + "\n" if as_json else runs_table(name, history)


def runs_table(table: str, runs: list[RunRecord]) -> str:
    """`dedup runs`: a line per run, most recent first, with what it changed."""
    head = ["run", "kind", "started (UTC)", "status", "rows"] + [c for _, c in COUNTS]
    rows = [[str(r.id), r.kind, f"{r.started_at:%Y-%m-%d %H:%M:%S}", r.status, str((r.summary or {}).get("rows", ""))]
            + [_count(r, k) for k, _ in COUNTS] for r in runs]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    left = {1, 2, 3}  # text columns; numbers are right-aligned
    table = visible(table)  # a name is data: no terminal escapes
    lines = [f"{table}: {len(runs)} runs, most recent first" if runs else f"{table}: no runs recorded yet"]
    for cells in [head, *rows] if runs else []:
        lines.append("  ".join(c.ljust(w) if i in left else c.rjust(w)
                               for i, (c, w) in enumerate(zip(cells, widths))).rstrip())
    return "\n".join(lines) + "\n"


def runs_json(runs: list[RunRecord]) -> list[dict]:
    return [{"id": r.id, "kind": r.kind, "status": r.status, "started_at": str(r.started_at), "started": iso_utc(r.started_at),
             "finished_at": None if r.finished_at is None else str(r.finished_at), "rows": (r.summary or {}).get("rows"),
             **{k: (r.summary or {}).get(k) for k, _ in COUNTS}, "changed": changed(r)} for r in runs]


def _count(run: RunRecord, key: str) -> str:
    value = (run.summary or {}).get(key)
    return "" if value is None else str(value)

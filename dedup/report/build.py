"""The report of duplicate groups as one dict: the JSON contract other tools read (dedup.report.render prints it)."""

from __future__ import annotations

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..store import Store
from ..text.normalize import value_to_text
from .runs import change_entry, run_scope


def build_report(store: Store, config: Config, table: TableConfig, source: Source | None = None,
                 since_last_run: bool = False, run: int | None = None, since_run: int | None = None) -> dict:
    """Groups as in DESIGN.md; each row carries the table's display columns when a source is given.

    ``run`` keeps only the groups run N changed, each with a ``change`` (what the run did) and its
    rows that were in no group before marked ``new``; the groups it ended are listed in ``gone``.
    ``since_last_run`` does so for the last successful run that changed any group (dedup.report.runs),
    ``since_run`` for run N and every run after it together.
    """
    state = store.state(table.name)
    if state is None:
        return {"table": table.name, "max_distance": config.max_distance, "match": config.match.method,
                "groups": [], "skipped": [],
                "note": "no run has been recorded for this table yet: run `dedup full` first"}
    groups = store.groups(table.name)
    scope = None
    if since_last_run or run is not None or since_run is not None:
        scope = run_scope(store, table.name, run if since_run is None else since_run, groups, since_run is not None)
        groups = scope.groups
    keys = [k for g in groups for k in g.keys]
    values = source.fetch(keys, table.display) if source is not None else {}
    out_groups = []
    for g in groups:
        rows = []
        for k, d in zip(g.keys, g.distances):
            row = {"key": k, "distance": d}
            if scope is not None:
                row["new"] = k in scope.added
            vals = values.get(k, {})
            for col in table.display:
                if col not in row:
                    row[col] = value_to_text(vals.get(col))
            rows.append(row)
        entry = {
            "group": g.id, "size": g.size, "rows": rows,
            "pairs": [{"a": p.a, "b": p.b, "distance": p.distance} for p in g.pairs],
        }
        if g.merged_from:
            entry["merged_from"] = list(g.merged_from)
        if scope is not None and g.id in scope.changes:
            entry["change"] = change_entry(scope.changes[g.id])
        out_groups.append(entry)
    out = {
        "table": table.name,
        "max_distance": int(state.version.get("max_distance", config.max_distance)),
        "match": state.version.get("match", "simhash"),  # the recipe that made the stored groups
        "groups": out_groups,
        "skipped": [{"key": s.key, "reason": s.reason, "detail": s.detail} for s in store.skipped(table.name)],
    }
    if scope is not None:
        out["run"] = scope.describe()
        out["gone"] = [{"group": c.group, "rows": c.removed, "merged_into": c.merged_into} for c in scope.gone]
        if since_last_run or since_run is not None:
            out["since_run"] = out["run"]
    return out

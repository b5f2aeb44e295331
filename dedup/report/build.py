"""The report of duplicate groups as one dict: the JSON contract other tools read (dedup.report.render prints it)."""

from __future__ import annotations

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..store import Store
from ..text.normalize import value_to_text


def build_report(store: Store, config: Config, table: TableConfig, source: Source | None = None,
                 since_last_run: bool = False) -> dict:
    """Groups as in DESIGN.md; each row carries the table's display columns when a source is given.

    ``since_last_run`` keeps only the groups the last successful run created or changed.
    """
    state = store.state(table.name)
    if state is None:
        return {"table": table.name, "max_distance": config.max_distance, "match": config.match.method,
                "groups": [], "skipped": [],
                "note": "no run has been recorded for this table yet: run `dedup full` first"}
    groups = store.groups(table.name)
    last_run = None
    if since_last_run:
        last_run = next((r for r in store.runs(table.name, limit=50) if r.status == "ok"), None)
        groups = [g for g in groups if last_run is not None and g.updated_run == last_run.id]
    keys = [k for g in groups for k in g.keys]
    values = source.fetch(keys, table.display) if source is not None else {}
    out_groups = []
    for g in groups:
        rows = []
        for k, d in zip(g.keys, g.distances):
            row = {"key": k, "distance": d}
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
        out_groups.append(entry)
    out = {
        "table": table.name,
        "max_distance": int(state.version.get("max_distance", config.max_distance)),
        "match": state.version.get("match", "simhash"),  # the recipe that made the stored groups
        "groups": out_groups,
        "skipped": [{"key": s.key, "reason": s.reason, "detail": s.detail} for s in store.skipped(table.name)],
    }
    if since_last_run:
        out["since_run"] = None if last_run is None else {
            "id": last_run.id, "kind": last_run.kind, "finished_at": str(last_run.finished_at)}
    return out

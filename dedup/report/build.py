"""The report of duplicate groups as one dict: the JSON contract other tools read (dedup.report.render prints it)."""

from __future__ import annotations

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..store import Store
from ..text.normalize import value_to_text


def build_report(store: Store, config: Config, table: TableConfig, source: Source | None = None,
                 since_last_run: bool = False, scorer=None) -> dict:
    """Groups as in DESIGN.md; each row carries the table's display columns when a source is given.

    ``since_last_run`` keeps only the groups the last successful run created or changed.
    ``scorer`` (dedup.runs.explain.Scorer): each pair also carries its similarity (and per-field
    similarities), each row its strongest link in the group. Decisions on the group's rows are listed.
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
    scored = scorer.pairs([(p.a, p.b) for g in groups for p in g.pairs]) if scorer is not None and groups else {}
    decided = _decisions_by_key(store, table.name, keys)
    out_groups = []
    for g in groups:
        pairs = [_pair(p, scored, decided) for p in g.pairs]
        links = _strongest_links(pairs)
        rows = []
        for k, d in zip(g.keys, g.distances):
            row = {"key": k, "distance": d, **links.get(k, {})}
            vals = values.get(k, {})
            for col in table.display:
                if col not in row:
                    row[col] = value_to_text(vals.get(col))
            rows.append(row)
        entry = {
            "group": g.id, "size": g.size, "rows": rows,
            "pairs": pairs,
        }
        on_group = {(x.a, x.b): x for k in g.keys for x in decided.get(k, ())}
        if on_group:
            entry["decisions"] = [{"a": x.a, "b": x.b, "verdict": x.verdict} for x in on_group.values()]
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


def _decisions_by_key(store: Store, table: str, keys: list[str]) -> dict:
    out: dict = {}
    for x in store.decisions(table, keys) if keys and hasattr(store, "decisions") else ():
        for k in x.pair:
            out.setdefault(k, []).append(x)
    return out


def _pair(p, scored: dict, decided: dict) -> dict:
    out = {"a": p.a, "b": p.b, "distance": p.distance, **scored.get((p.a, p.b), {})}
    verdict = next((x.verdict for x in decided.get(p.a, ()) if x.pair == (p.a, p.b)), None)
    if verdict:
        out["decision"] = verdict
    return out


def _strongest_links(pairs: list[dict]) -> dict[str, dict]:
    """Each row's strongest link among the group's pairs: the highest similarity, else the smallest distance."""
    best: dict[str, tuple] = {}
    for p in pairs:
        sim = p.get("similarity")
        rank = (sim if sim is not None else -2.0, -p["distance"])
        for k, other in ((p["a"], p["b"]), (p["b"], p["a"])):
            if k not in best or rank > best[k][0]:
                best[k] = (rank, {"link": other, **({"similarity": sim} if sim is not None else {})})
    return {k: v for k, (_, v) in best.items()}

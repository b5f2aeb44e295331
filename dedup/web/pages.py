"""What a group page and a review pair show, as plain data: the rows side by side with their
differences from the first row marked, the date each was filed, and the links with the
similarity and the rule that accepted each (dedup.runs.explain scores them as the run did)."""

from __future__ import annotations

from ..index.decisions import ordered
from .diff import marked
from .graph import layout
from .workbench import Workbench, date_column, label_of


def rule_of(entry: dict) -> dict:
    """The rule that accepted a link and its bar (dedup.runs.rules, as the scorer names them; the
    page words them as the static report does)."""
    return {"rule": entry.get("rule"), "bar": entry.get("threshold")}


def rows_view(bench: Workbench, keys: list[str], values: dict) -> dict:
    """The rows as columns: for each shown column its label and each row's marked pieces."""
    base = values.get(keys[0]) if keys else None
    whole = bench.whole_columns
    dc = date_column(bench.tcfg)
    shown = [c for c in bench.columns if c != dc]
    fields = []
    for col in shown:
        cells = []
        for n, k in enumerate(keys):
            mine = (values.get(k) or {}).get(col)
            cells.append(marked(mine, None if n == 0 or base is None else base.get(col), col in whole))
        fields.append({"name": col, "label": label_of(bench.tcfg, col), "cells": cells})
    rows = [{"key": k, "missing": k not in values, "date": (values.get(k) or {}).get(dc) if dc else None}
            for k in keys]
    label = label_of(bench.tcfg, dc) if dc else None
    return {"rows": rows, "fields": fields, "dated": dc is not None,
            "date_label": label if label != dc else None}  # None: the page says "filed"


def group_view(bench: Workbench, store, source, scorer, group_id: int) -> dict | None:
    """Everything the page of group ``group_id`` shows; None when there is no such group."""
    found = store.groups(bench.table, [group_id])
    if not found:
        return None
    g = found[0]
    values = bench.values(source, g.keys)
    pairs = [(p.a, p.b) for p in g.pairs]
    scored = scorer.pairs(pairs) if scorer is not None and pairs else {}
    said = {d.pair: d for d in store.decisions(bench.table, g.keys)}
    links = []
    for a, b in pairs:
        entry = scored.get((a, b), {})
        d = said.get(ordered(a, b))
        links.append({"a": a, "b": b, "similarity": entry.get("similarity"),
                      **rule_of(entry),
                      "decision": d.verdict if d else None})
    sims = [x["similarity"] for x in links if x["similarity"] is not None]
    if sims:
        weakest = min(range(len(links)), key=lambda n: 2.0 if links[n]["similarity"] is None else links[n]["similarity"])
        links[weakest]["weakest"] = True
    drawn = layout(g.keys, links)
    return {"id": g.id, "size": g.size, "keys": g.keys, **rows_view(bench, g.keys, values),
            "links": sorted(links, key=lambda x: 2.0 if x["similarity"] is None else x["similarity"]),
            "graph": None if drawn is None else {"nodes": drawn[0], "edges": drawn[1]},
            "decisions": [d for d in said.values()],
            "measure": scorer.measure if scorer is not None else None,
            "threshold": scorer.threshold if scorer is not None else None}


def pair_view(bench: Workbench, store, source, scorer, a: str, b: str, similarity: float | None) -> dict:
    """One pair of the review queue: the two rows side by side, their similarity, rule and groups."""
    a, b = ordered(a, b)
    values = bench.values(source, [a, b])
    entry = (scorer.pairs([(a, b)]) if scorer is not None else {}).get((a, b), {"similarity": similarity})
    groups = store.group_ids_of(bench.table, [a, b])
    return {"a": a, "b": b, "similarity": entry.get("similarity"), **rule_of(entry),
            "groups": [groups.get(a), groups.get(b)], **rows_view(bench, [a, b], values)}

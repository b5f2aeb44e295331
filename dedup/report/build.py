"""The report of duplicate groups as one dict: the JSON contract other tools read (dedup.report.render prints it)."""

from __future__ import annotations

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import ConfigError
from ..index.groups import Group
from ..index.keys import key_sort
from ..store import Store
from ..text.normalize import value_to_text
from .links import closest_links, weakest_entry
from .runs import RunScope, change_entry, run_scope

SORTS = ("size", "key", "newest")


def order_groups(groups: list[Group], sort: str | None) -> list[Group]:
    """``size``: largest first; ``key``: by each group's lowest key; ``newest``: the groups the latest
    runs changed first; None: as stored (by id). Ties keep the id order."""
    by_id = sorted(groups, key=lambda g: g.id)
    if sort is None:
        return by_id
    if sort == "size":
        return sorted(by_id, key=lambda g: -g.size)
    if sort == "key":
        return sorted(by_id, key=lambda g: key_sort(g.keys[0]) if g.keys else (2, 0, ""))
    if sort == "newest":
        return sorted(by_id, key=lambda g: (-(g.updated_run or 0), -(g.created_run or 0), -g.id))
    raise ValueError(f"unknown sort {sort!r} (use {', '.join(SORTS)})")


def build_report(store: Store, config: Config, table: TableConfig, source: Source | None = None,
                 since_last_run: bool = False, *, sort: str | None = None, min_size: int = 2,
                 limit: int | None = None, extra_columns: tuple[str, ...] = (), run: int | None = None,
                 since_run: int | None = None, scorer=None, group: int | None = None) -> dict:
    """Groups as in docs/reference/report.md (the JSON contract); each row carries the table's display
    columns when a source is given.

    ``since_last_run`` keeps only the groups the last successful run created or changed; ``sort``,
    ``min_size`` and ``limit`` choose and order the groups (the groups left out are counted in
    ``omitted_groups``). ``extra_columns`` are read too (the HTML report's text excerpts). A row the
    source no longer has is marked ``"deleted": true``. ``scorer`` (dedup.runs.explain.Scorer): each
    pair also carries its similarity, per-field similarities and the rule that accepted it (``rule``,
    ``threshold``), each row its strongest link in the group (``link``, ``similarity``), each group
    its weakest link (``weakest``). Decisions on a group's rows are listed in its ``decisions``.
    ``group`` keeps only group N (a ConfigError when the table has none). The table's ``date_column``
    is read with the display columns, and named in the report with the ``labels``.

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
    scope = None
    if since_last_run or run is not None or since_run is not None:
        scope = run_scope(store, table.name, run if since_run is None else since_run, store.groups(table.name),
                          since_run is not None)
    groups = _shown_groups(store, table.name, scope, group)
    chosen = [g for g in order_groups(groups, sort) if g.size >= min_size]
    chosen = chosen if limit is None else chosen[:max(limit, 0)]
    columns = tuple(dict.fromkeys((*table.display, *([table.date_column] if table.date_column else []),
                                   *extra_columns)))
    keys = [k for g in chosen for k in g.keys]
    values = source.fetch(keys, columns) if source is not None else {}
    scored = scorer.pairs([(p.a, p.b) for g in chosen for p in g.pairs]) if scorer is not None and chosen else {}
    decided = _decisions_by_key(store, table.name, keys)
    out = {
        "table": table.name,
        "max_distance": int(state.version.get("max_distance", config.max_distance)),
        "match": state.version.get("match", "simhash"),  # the recipe that made the stored groups
        "groups": [_group_entry(g, values, table, columns, source is not None, scored, decided, scope)
                   for g in chosen],
        "skipped": [{"key": s.key, "reason": s.reason, "detail": s.detail} for s in store.skipped(table.name)],
    }
    since = since_last_run or since_run is not None
    return out | _table_notes(table, len(groups) - len(chosen)) | _scope_entries(scope, since)


def _shown_groups(store: Store, table: str, scope: RunScope | None, group: int | None) -> list[Group]:
    """The stored groups, or those of the run ``scope``; only group ``group`` when it is given."""
    groups = store.groups(table) if scope is None else scope.groups
    if group is None:
        return groups
    groups = [g for g in groups if g.id == group]
    if not groups:
        raise ConfigError(f"table {table!r} has no group {group}" + (" changed by that run" if scope else "")
                          + " (`dedup report` lists the groups)")
    return groups


def _table_notes(table: TableConfig, omitted: int) -> dict:
    """The report's date column, labels and count of groups left out, where there are any."""
    out: dict = {}
    if table.date_column:
        out["date_column"] = table.date_column
    if table.labels:
        out["labels"] = dict(table.labels)
    if omitted > 0:
        out["omitted_groups"] = omitted
    return out


def _scope_entries(scope: RunScope | None, since: bool) -> dict:
    """``run`` (and with ``since`` the same as ``since_run``) and the ``gone`` groups of a run's report."""
    if scope is None:
        return {}
    out = {"run": scope.describe(),
           "gone": [{"group": c.group, "rows": c.removed, "merged_into": c.merged_into} for c in scope.gone]}
    if since:
        out["since_run"] = out["run"]
    return out


def _group_entry(g: Group, values: dict, table: TableConfig, columns: tuple[str, ...], read: bool,
                 scored: dict, decided: dict, scope: RunScope | None = None) -> dict:
    pairs = [_pair(p, scored, decided) for p in g.pairs]
    links = closest_links({"pairs": pairs}) if scored else {}
    rows = []
    for k, d in zip(g.keys, g.distances):
        row = {"key": k, "distance": d}
        if k in links:
            row["link"], row["similarity"] = links[k][0], round(links[k][1], 4)
        if scope is not None:
            row["new"] = k in scope.added
        vals = values.get(k)
        for col in columns:
            if col not in row:
                row[col] = value_to_text((vals or {}).get(col))
        if read and vals is None:
            row["deleted"] = True  # a stored key the source no longer has
        rows.append(row)
    entry = {"group": g.id, "size": g.size, "rows": rows, "pairs": pairs}
    weakest = weakest_entry(entry)
    if weakest is not None:
        entry["weakest"] = weakest
    on_group = {x.pair: x for k in g.keys for x in decided.get(k, ())}
    if on_group:  # "decision" as a pair's: what the HTML report reads
        entry["decisions"] = [{"a": x.a, "b": x.b, "decision": x.verdict} for x in on_group.values()]
    if g.merged_from:
        entry["merged_from"] = list(g.merged_from)
    if scope is not None and g.id in scope.changes:
        entry["change"] = change_entry(scope.changes[g.id])
    return entry


def _decisions_by_key(store: Store, table: str, keys: list[str]) -> dict:
    out: dict = {}
    for x in store.decisions(table, keys) if keys else ():
        for k in x.pair:
            out.setdefault(k, []).append(x)
    return out


def _pair(p, scored: dict, decided: dict) -> dict:
    out = {"a": p.a, "b": p.b, "distance": p.distance, **scored.get((p.a, p.b), {})}
    verdict = next((x.verdict for x in decided.get(p.a, ()) if x.pair == (p.a, p.b)), None)
    if verdict:
        out["decision"] = verdict
    return out

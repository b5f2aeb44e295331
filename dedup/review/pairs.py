"""One pair of rows as a person checks it (`dedup explain`, and each pair of `dedup review`): values
side by side, the score and the rule that fired, shared blocks, groups and any decision."""

from __future__ import annotations

from ..config.model import Config, TableConfig
from ..errors import ConfigError
from ..index.paths import link_path
from ..index.decisions import ordered
from ..report.opened import opened
from ..runs.explain import Scorer
from ..store import Store
from ..text.normalize import value_to_text


def explain_pair(config: Config, table: str | None, a: str, b: str) -> dict:
    """`dedup explain`: the pair view of rows ``a`` and ``b``, read from the store and the source."""
    with opened(config, table, read_only=True) as o:
        return pair_view(o.store, o.table, o.source, o.scorer, a, b)


def pair_view(store: Store, tcfg: TableConfig, source, scorer: Scorer | None, a: str, b: str) -> dict:
    """Everything `dedup explain` shows about rows ``a`` and ``b``, as plain data."""
    a, b = ordered(a, b)
    cols = list(dict.fromkeys([*(f.name for f in tcfg.fields), *tcfg.display]))
    values = _fetch(source, [a, b], tuple(cols))
    fps = store.fingerprints(tcfg.name, [a, b])
    for k in (a, b):
        if k not in values and k not in fps:
            raise ConfigError(f"no row with key {k!r} in table {tcfg.name!r} (neither in the source nor in the store)")
    scored = (scorer.pairs([(a, b)], with_weights=True, deciding=True) if scorer is not None else {}).get((a, b), {})
    by_field = scored.get("fields") or {}
    weights = scored.get("weights") or {}
    total = sum(weights.values())
    fields = []
    for name in cols:
        sim = by_field.get(name)
        w = weights.get(name)
        fields.append({"name": name, "a": _text(values, a, name), "b": _text(values, b, name), "similarity": sim,
                       "weight": w, "share": (w * sim / total) if w is not None and sim is not None and total else None})
    decision = next((d for d in store.decisions(tcfg.name, [a]) if d.pair == (a, b)), None)
    groups = store.group_ids_of(tcfg.name, [a, b])
    path = _link_path(store, tcfg.name, scorer, groups, a, b)
    return {
        "a": a, "b": b, "similarity": scored.get("similarity"), "scores": by_field,
        "measure": scorer.measure if scorer is not None else None,
        "threshold": (scored.get("decided_by") or {}).get("threshold", scorer.threshold if scorer is not None else None),
        "rule": scored.get("decided_by"),
        "distance": (fps[a] ^ fps[b]).bit_count() if a in fps and b in fps else None,
        "blocks": scorer.shared_blocks(a, b) if scorer is not None else [],
        "groups": {a: groups.get(a), b: groups.get(b)},
        "path": path,  # two rows of one group that are no pair of it: the links that join them
        "decision": None if decision is None else {
            "verdict": decision.verdict, "source": decision.source, "applied": decision.applied_run is not None,
            "decided_at": decision.decided_at.isoformat(sep=" ") if decision.decided_at else None},
        "in_source": {a: a in values, b: b in values},
        "fields": fields,
    }


def _link_path(store: Store, table: str, scorer: Scorer | None, groups: dict, a: str, b: str) -> list[dict] | None:
    """For two rows of one group that are no pair of it: the group's chain of links between them,
    each link with its similarity (None otherwise)."""
    gid = groups.get(a)
    if gid is None or gid != groups.get(b):
        return None
    (group,) = store.groups(table, [gid]) or (None,)
    if group is None or any({p.a, p.b} == {a, b} for p in group.pairs):
        return None
    path = link_path(group.pairs, a, b)
    if path is None:
        return None
    links = list(zip(path, path[1:]))
    scored = scorer.pairs([ordered(x, y) for x, y in links]) if scorer is not None else {}
    return [{"a": x, "b": y, "similarity": scored.get(ordered(x, y), {}).get("similarity")} for x, y in links]


def _fetch(source, keys: list[str], cols: tuple[str, ...]) -> dict:
    """The rows of these keys that the source has (a key its key column cannot hold is not there)."""
    out: dict = {}
    for k in keys if source is not None else ():
        try:
            out.update(source.fetch([k], cols))
        except (ValueError, TypeError):
            pass
    return out


def _text(values: dict, key: str, col: str) -> str | None:
    if key not in values:
        return "(not in the source)"
    return value_to_text(values[key].get(col))

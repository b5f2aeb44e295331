"""The links most worth a person's look: the stored groups' links not yet decided, weakest first
(`dedup review` and the workbench's review queue)."""

from __future__ import annotations

from ..errors import ConfigError
from ..index.keys import key_sort
from ..store import Store
from .explain import Scorer


def group_pairs(store: Store, scorer: Scorer | None, table: str, group: int | None = None,
                include_decided: bool = False) -> list[tuple[str, str, float | None]]:
    """The links of the stored groups (one group's with ``group``), weakest first: the ones most worth a look."""
    groups = store.groups(table, [group] if group is not None else None)
    if group is not None and not groups:
        raise ConfigError(f"table {table!r} has no group {group}")
    pairs = [(p.a, p.b) for g in groups for p in g.pairs]
    decided = {d.pair for d in store.decisions(table, [k for p in pairs for k in p])} if not include_decided else set()
    pairs = [p for p in pairs if p not in decided]
    scored = scorer.pairs(pairs) if scorer is not None else {}
    out = [(a, b, scored.get((a, b), {}).get("similarity")) for a, b in pairs]
    return sorted(out, key=lambda p: (p[2] if p[2] is not None else 2.0, key_sort(p[0]), key_sort(p[1])))

"""Group sizes worth a warning: a group past ``groups.warn_size``, a largest group that jumped.

Every run records a small profile of its groups' sizes in its summary (``sizes``: groups, rows in
groups, the largest few by id), so the next run compares with it without reading every group: a
full run from its groups, an incremental run (and ``decide``) from the last profile and the groups
it replaced. A chain that starts to swallow unrelated rows shows as a group past the size, or as a
largest group ``warn_growth`` times the last run's.
"""

from __future__ import annotations

from ..config.model import GroupsConfig
from ..index.groups import Group
from ..store import Store

TOP = 10  # the largest groups a profile names
MIN_JUMP = 10  # rows a largest group must gain before a jump is worth a warning (2 -> 5 is not)
LOOK_BACK = 20  # runs searched for the last profile


def profile(groups: list[Group]) -> dict:
    """The sizes of a table's groups (all of them) as a run records them."""
    top = sorted(((g.id, g.size) for g in groups), key=lambda t: (-t[1], t[0]))[:TOP]
    return {"groups": len(groups), "rows_in_groups": sum(g.size for g in groups),
            "largest": top[0][1] if top else 0, "top": [list(t) for t in top]}


def updated(before: dict, replaced: dict[int, Group], groups: list[Group]) -> dict:
    """``before`` (the last profile) after a run replaced the groups ``replaced`` (id -> group) by
    ``groups``; the largest is exact unless every group of the old top was replaced and shrank."""
    kept = [(i, s) for i, s in before.get("top", []) if i not in replaced]
    top = sorted(kept + [(g.id, g.size) for g in groups], key=lambda t: (-t[1], t[0]))[:TOP]
    return {"groups": before["groups"] - len(replaced) + len(groups),
            "rows_in_groups": before["rows_in_groups"] - sum(g.size for g in replaced.values()) + sum(g.size for g in groups),
            "largest": top[0][1] if top else 0, "top": [list(t) for t in top]}


def last(store: Store, table: str, run_id: int | None) -> dict | None:
    """The profile of the table's last finished run before ``run_id`` that recorded one."""
    for r in store.runs(table, LOOK_BACK):
        if r.id != run_id and r.status == "ok" and isinstance((r.summary or {}).get("sizes"), dict):
            return r.summary["sizes"]
    return None


def current(store: Store, table: str, run_id: int, replaced: dict[int, Group], groups: list[Group]) -> tuple[dict, dict | None]:
    """(this run's profile, the last run's) for a run that replaced ``replaced`` by ``groups``;
    with no profile recorded yet (a store from before profiles) the stored groups are read once."""
    before = last(store, table, run_id)
    base = before if before is not None else profile(store.groups(table))
    return updated(base, replaced, groups), before


def warnings(now: dict, before: dict | None, changed: list[Group], limits: GroupsConfig) -> list[str]:
    """What looks wrong: ``changed`` (groups the run made or grew) past the size, a largest group
    that jumped since ``before``."""
    out = []
    big = sorted((g for g in changed if g.size > limits.warn_size), key=lambda g: (-g.size, g.id))
    if big:
        named = ", ".join(f"group {g.id} ({g.size} rows)" for g in big[:5]) + (" ..." if len(big) > 5 else "")
        out.append(f"{len(big)} groups over groups.warn_size {limits.warn_size} rows: {named}; a group that large "
                   "is often a chain of unrelated rows (see `dedup explain` on two of its rows)")
    if before is not None and before.get("largest"):
        was, largest = before["largest"], now["largest"]
        if largest >= limits.warn_growth * was and largest - was >= MIN_JUMP:
            out.append(f"the largest group grew from {was} to {largest} rows since the last run "
                       f"(groups.warn_growth {limits.warn_growth:g})")
    return out

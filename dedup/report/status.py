"""`dedup status` for people: a few aligned lines per table, what needs attention first."""

from __future__ import annotations

from .cells import visible


def status_text(tables: list[dict], age_text) -> str:
    """The status dicts of dedup.runs.status as text; ``age_text`` formats seconds (``2h 5m``)."""
    out = []
    for t in tables:
        out.append(f"{visible(t['table'])}: " + ("ok" if t["healthy"] else "NEEDS ATTENTION"))
        out += [f"  ! {visible(p)}" for p in t["problems"]]
        for kind in ("full", "incremental"):
            r = t[f"last_{kind}"]
            line = "none" if r is None else (f"run {r['id']} {r['outcome']}, started {r['started']} "
                                             f"({age_text(r['age_seconds'])} ago)")
            out.append(f"  last {kind + ':':<13}{line}")
        waiting = t["waiting_rows"]
        out.append(f"  {'waiting rows:':<18}" + ("– (no watermark position)" if waiting is None
                                                 else f"{waiting} past the watermark"))
        out.append(f"  {'unseen rows:':<18}" + ("–" if t["unseen_rows"] is None else str(t["unseen_rows"])))
        lock = t["lock"]
        out.append(f"  {'lock:':<18}" + ("free" if lock is None else f"held by {visible(lock['owner'])} until "
                                         f"{lock['expires']}" + (" (expired)" if lock["expired"] else "")))
        sizes, largest = t["group_sizes"], t["largest_group"]
        groups = f"{t['groups']} ({t['rows_in_groups']} rows)"
        if largest:
            groups += (f"; sizes p50 {sizes['p50']}, p90 {sizes['p90']}, p99 {sizes['p99']}; "
                       f"largest: group {largest['group']}, {largest['size']} rows")
        out.append(f"  {'groups:':<18}{groups}")
    return "\n".join(out) + "\n"

"""The report in a terminal: a block per group, a line per row in fixed columns measured in
terminal columns (CJK characters take two), NULL an empty cell in its place, every line within
the terminal's width."""

from __future__ import annotations

import textwrap

from .cells import clip, cut, display_width, fit, visible

MAX_COLUMN = 60  # a text column wider than this is clipped even on a wide terminal
ROWS_SHOWN = 50  # a larger group (a mass petition) lists its first rows and counts the rest
GAP = "  "


def recipe_line(report: dict) -> str:
    """What the distances mean under the recipe that made the groups."""
    if report.get("match", "simhash") == "simhash":
        return f"max distance {report['max_distance']}"
    return "matched by MinHash signatures; distance: fingerprint bits that differ"


def to_table(report: dict, display: tuple[str, ...] = (), width: int = 100) -> str:
    """Readable in a terminal: one block per group, a line per row with its display columns."""
    groups = report["groups"]
    lines = [f"{visible(report['table'])}: {len(groups)} duplicate groups, {sum(g['size'] for g in groups)} rows "
             f"({recipe_line(report)})"]
    if report.get("omitted_groups"):
        lines.append(f"{report['omitted_groups']} more groups not shown (--limit, --min-size)")
    if report.get("note"):
        lines.append(visible(report["note"]))
    cols = [c for c in display if c not in ("key", "distance")]
    rows = [r for g in groups for r in g["rows"][:ROWS_SHOWN]]
    key_w = min(max([3, *(display_width(visible(r["key"])) for r in rows)]), max(width // 4, 3))
    dist_w = max([1, *(len(str(r["distance"])) for r in rows)])
    room = width - len(GAP) - key_w - len(GAP) - (2 + dist_w) - len(GAP) * len(cols)
    natural = [min(max([1, *(display_width(visible(" ".join((r.get(c) or "").split()))) for r in rows)]), MAX_COLUMN)
               for c in cols]
    widths = fit(natural, room)
    for g in groups:
        lines.append("")
        worst = max((p["distance"] for p in g["pairs"]), default=0)
        merged = f" (merged with groups {', '.join(map(str, g['merged_from']))})" if g.get("merged_from") else ""
        lines.append(cut(f"group {g['group']}: {g['size']} rows, pair distances up to {worst}{merged}", width))
        for r in g["rows"][:ROWS_SHOWN]:
            cells = [clip(r["key"], key_w, right=True, squash=False), f"d={r['distance']:>{dist_w}}"]
            cells += [clip(r.get(c), w) for c, w in zip(cols, widths)]
            if r.get("deleted"):
                cells.append("(deleted from the source)")
            lines.append(cut(GAP + GAP.join(cells), width).rstrip())
        if len(g["rows"]) > ROWS_SHOWN:
            lines.append(f"{GAP}… and {len(g['rows']) - ROWS_SHOWN:,} more rows (every row: --format json or csv)")
    skipped = report.get("skipped") or []
    if skipped:
        unreadable = [s for s in skipped if s["reason"] == "unreadable"]
        lines.append("")
        lines.append(f"skipped: {len(skipped) - len(unreadable)} rows without features, "
                     f"{len(unreadable)} unreadable" + (
                         " (" + ", ".join(visible(s["key"]) for s in unreadable[:10]) + ("…" if len(unreadable) > 10 else "")
                         + ")" if unreadable else ""))
    return "\n".join(wrapped for line in lines for wrapped in _wrap(line, width)) + "\n"


def _wrap(line: str, width: int) -> list[str]:
    """A summary line longer than the terminal, wrapped (row lines are already cut to fit)."""
    if display_width(line) <= width:
        return [line]
    return [cut(part, width) for part in textwrap.wrap(line, width, break_on_hyphens=False)] or [""]

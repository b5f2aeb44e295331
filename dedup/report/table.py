"""The report in a terminal: a line naming the columns (by their plain labels), then a block per
group headed by its weakest link, a line per row in fixed columns measured in terminal columns
(CJK characters take two): the key, the date it was filed, the display columns, the row it is
most similar to with the similarity and the rule; NULL an empty cell in its place, rows earliest
filed first when the table has a date column, every line within the terminal's width."""

from __future__ import annotations

import textwrap

from .cells import clip, cut, display_width, fit, visible
from .labels import LABELS, date_text, percent, rule_text
from .links import closest_pairs, pair_similarity, reading_order, weakest_pair

MAX_COLUMN = 60  # a text column wider than this is clipped even on a wide terminal
ROWS_SHOWN = 50  # a larger group (a mass petition) lists its first rows and counts the rest
GAP = "  "


def recipe_line(report: dict) -> str:
    """How the recipe that made the groups matched rows, and what a similarity is."""
    if report.get("match", "simhash") == "simhash":
        return f"fingerprints within {report['max_distance']} bits; similarity 100% = the same"
    return "matched by similarity: the number that decided each link, 100% = the same"


def to_table(report: dict, display: tuple[str, ...] = (), width: int = 100) -> str:
    """Readable in a terminal: one block per group, a line per row with its display columns."""
    groups = report["groups"]
    lines = [f"{visible(report['table'])}: {len(groups)} duplicate groups, {sum(g['size'] for g in groups)} rows "
             f"({recipe_line(report)})"]
    if report.get("omitted_groups"):
        lines.append(f"{report['omitted_groups']} more groups not shown (--limit, --min-size)")
    if report.get("note"):
        lines.append(visible(report["note"]))
    if "run" in report:
        lines.append(run_line(report))
    L = LABELS["en"]
    date = report.get("date_column")
    labels = report.get("labels") or {}
    cols = ([date] if date else []) + [c for c in display if c not in ("key", "distance", date)]
    heads = [labels.get(c, L["date"] if c == date else c) for c in cols]
    shown = [(g, reading_order(g["rows"], date)[:ROWS_SHOWN], closest_pairs(g)) for g in groups]
    rows = [r for _, rs, _ in shown for r in rs]
    links = {(g["group"], r["key"]): link_text(r["key"], pairs.get(r["key"]), L) for g, rs, pairs in shown for r in rs}
    key_w = min(max([3, display_width(L["key"]), *(display_width(visible(r["key"])) for r in rows)]),
                max(width // 4, 3))
    room = width - len(GAP) - key_w - len(GAP) * (len(cols) + 1)
    natural = [min(max([1, display_width(visible(h)), *(display_width(visible(" ".join((r.get(c) or "").split())))
                                                        for r in rows)]), MAX_COLUMN) for c, h in zip(cols, heads)]
    natural.append(max([1, display_width(L["link"]), *map(display_width, links.values())]))
    widths = fit(natural, room)
    if groups:
        lines.append("")
        lines.append(cut(GAP + GAP.join([clip(L["key"], key_w, right=True)] + [clip(h, w) for h, w in zip(
            [*heads, L["link"]], widths)]), width).rstrip())
    for g, rs, _ in shown:
        lines.append("")
        merged = f" (merged with groups {', '.join(map(str, g['merged_from']))})" if g.get("merged_from") else ""
        lines.append(cut(f"group {g['group']}: {g['size']} rows{weakest_text(g, L)}{merged}{change_note(g)}", width))
        for r in rs:
            cells = [clip(r["key"], key_w, right=True, squash=False)]
            cells += [clip(date_text(r.get(c)) if c == date else r.get(c), w) for c, w in zip(cols, widths)]
            cells.append(clip(links[g["group"], r["key"]], widths[-1]))
            if r.get("deleted"):
                cells.append(f"({L['deleted']})")
            lines.append(cut(("+ " if r.get("new") else GAP) + GAP.join(cells), width).rstrip())
        if len(g["rows"]) > ROWS_SHOWN:
            lines.append(f"{GAP}… and {len(g['rows']) - ROWS_SHOWN:,} more rows (every row: --format json or csv)")
    for gone in report.get("gone") or []:
        into = f"merged into group {gone['merged_into']}" if gone.get("merged_into") is not None else "ended"
        lines.append("")
        lines.append(f"group {gone['group']}: {into} (it had rows {', '.join(visible(k) for k in gone['rows'])})")
    skipped = report.get("skipped") or []
    if skipped:
        unreadable = [s for s in skipped if s["reason"] == "unreadable"]
        lines.append("")
        lines.append(f"skipped: {len(skipped) - len(unreadable)} rows without features, "
                     f"{len(unreadable)} unreadable" + (
                         " (" + ", ".join(visible(s["key"]) for s in unreadable[:10]) + ("…" if len(unreadable) > 10 else "")
                         + ")" if unreadable else ""))
    return "\n".join(wrapped for line in lines for wrapped in _wrap(line, width)) + "\n"


def link_text(key: str, pair: dict | None, L: dict) -> str:
    """'17 87% similar text': the row a row is most similar to, the similarity and the rule."""
    if pair is None:
        return ""
    other = pair["b"] if pair["a"] == key else pair["a"]
    return " ".join(x for x in (visible(other), percent(pair_similarity(pair)), rule_text(pair.get("rule"), L)) if x)


def weakest_text(group: dict, L: dict) -> str:
    """', weakest link 21 – 23: 87% (similar text)': where a wrong group most likely hangs."""
    p = weakest_pair(group)
    if p is None:
        return ""
    rule = rule_text(p.get("rule"), L)
    return (f", {L['weakest']} {visible(p['a'])} – {visible(p['b'])}: {percent(pair_similarity(p))}"
            + (f" ({rule})" if rule else ""))


def run_line(report: dict) -> str:
    """Which run (or runs) a run report shows, and the mark of its new rows."""
    run = report.get("run")
    if run is None:
        return "no run has changed any group yet"
    if run.get("through", run["id"]) != run["id"]:
        return (f"changes of runs {run['id']} to {run['through']} (run {run['id']}: {run['kind']}, started "
                f"{run['started_at'][:19]} UTC); + marks rows that were in no group before")
    return (f"changes of run {run['id']} ({run['kind']}, finished {run['finished_at'][:19]} UTC): {run['new_groups']} new, "
            f"{run['grown_groups']} grown, {run['merged_groups']} merged, {run['split_groups']} split, "
            f"{run['shrunk_groups']} shrunk, {run['dissolved_groups']} gone, {run['rows_left_groups']} rows left "
            f"groups; + marks rows that were in no group before")


def change_note(group: dict) -> str:
    """' [new, split from 4]': what the report's run did to a group."""
    c = group.get("change")
    if not isinstance(c, dict):
        return ""
    words = list(c["kinds"])
    if c.get("split_from") is not None:
        words.append(f"split from {c['split_from']}")
    if c.get("split_into"):
        words.append(f"split into {', '.join(map(str, c['split_into']))}")
    if c.get("removed"):
        words.append(f"{len(c['removed'])} rows left")
    return f" [{', '.join(words)}]"


def _wrap(line: str, width: int) -> list[str]:
    """A summary line longer than the terminal, wrapped (row lines are already cut to fit)."""
    if display_width(line) <= width:
        return [line]
    return [cut(part, width) for part in textwrap.wrap(line, width, break_on_hyphens=False)] or [""]

"""The report rendered for people and machines: json (the contract), csv, a terminal table, html."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import unicodedata
from pathlib import Path

from ..errors import ConfigError

FORMATS = ("table", "json", "csv", "html")

# A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# C0 and C1 controls, DEL, and the characters that move or reorder a terminal's text: line and
# paragraph separators, bidirectional marks, embeddings, overrides and isolates.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def render(report: dict, fmt: str, display: tuple[str, ...] = ()) -> str:
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report)
    if fmt == "html":
        return to_html(report, display)
    if fmt == "table":
        return to_table(report, display)
    raise ValueError(f"unknown format {fmt!r} (use {', '.join(FORMATS)})")


def csv_cell(value) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading ``'``."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def visible(value) -> str:
    """Text a terminal shows but never obeys: control characters as escapes (``\\x1b``, ``\\n``, ``\\u202e``)."""
    def escape(m: re.Match) -> str:
        c = m.group()
        return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
    return _CONTROL.sub(escape, str(value))


def check_output(path: str | None) -> None:
    """Refuse an --output file that cannot be written, before any work starts (exit 2)."""
    target = Path(path or ".")
    parent = target.parent
    problem = ("it is a directory" if target.is_dir() else f"directory {parent} does not exist"
               if not parent.is_dir() else "the file is not writable" if target.exists()
               and not os.access(target, os.W_OK) else f"directory {parent} is not writable"
               if not target.exists() and not os.access(parent, os.W_OK | os.X_OK) else None)
    if path and problem:
        raise ConfigError(f"cannot write --output {path}: {problem}")


def to_csv(report: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    # with "\n" ending the rows, the csv module would leave a lone "\r" unquoted
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    w.writerow(["key", "group"])
    for g in report["groups"]:
        for r in g["rows"]:
            (quoted if "\r" in r["key"] else w).writerow([csv_cell(r["key"]), g["group"]])
    return buf.getvalue()


def _width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _clip(text: str | None, limit: int) -> str:
    text = visible(" ".join((text or "").split()))
    if _width(text) <= limit:
        return text + " " * (limit - _width(text))
    out, used = [], 0
    for c in text:
        w = _width(c)
        if used + w > limit - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + "…" + " " * (limit - 1 - used)


def recipe_line(report: dict) -> str:
    """What the distances mean under the recipe that made the groups."""
    if report.get("match", "simhash") == "simhash":
        return f"max distance {report['max_distance']}"
    return "matched by MinHash signatures; distance: fingerprint bits that differ"


def to_table(report: dict, display: tuple[str, ...] = (), text_width: int = 40) -> str:
    """Readable in a terminal: one block per group, a line per row with its display columns."""
    groups = report["groups"]
    lines = [f"{visible(report['table'])}: {len(groups)} duplicate groups, {sum(g['size'] for g in groups)} rows "
             f"({recipe_line(report)})"]
    if report.get("note"):
        lines.append(visible(report["note"]))
    if "run" in report:
        lines.append(run_line(report))
    cols = [c for c in display if c not in ("key", "distance")]
    for g in groups:
        lines.append("")
        worst = max((p["distance"] for p in g["pairs"]), default=0)
        merged = f" (merged with groups {', '.join(map(str, g['merged_from']))})" if g.get("merged_from") else ""
        lines.append(f"group {g['group']}: {g['size']} rows, pair distances up to {worst}{merged}{change_note(g)}")
        keys = [visible(r["key"]) for r in g["rows"]]
        key_w = max(3, *map(_width, keys))
        for key, r in zip(keys, g["rows"]):
            cells = [("+ " if r.get("new") else "  ") + " " * (key_w - _width(key)) + key, f"d={r['distance']}"]
            for c in cols:
                v = r.get(c)
                if v is not None:
                    cells.append(_clip(v, text_width if _width(str(v)) > 16 else 16))
            lines.append("  ".join(cells).rstrip())
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
    return "\n".join(lines) + "\n"


def run_line(report: dict) -> str:
    """Which run a run report shows, and the mark of its new rows."""
    run = report.get("run")
    if run is None:
        return "no run has changed any group yet"
    if run.get("through", run["id"]) != run["id"]:
        return (f"changes of runs {run['id']} to {run['through']} (run {run['id']}: {run['kind']}, started "
                f"{run['started_at'][:19]} UTC); + marks rows that were in no group before")
    return (f"changes of run {run['id']} ({run['kind']}, finished {run['finished_at'][:19]} UTC): {run['new_groups']} new, "
            f"{run['grown_groups']} grown, {run['merged_groups']} merged, {run['split_groups']} split, "
            f"{run['dissolved_groups']} gone; + marks rows that were in no group before")


def change_note(group: dict) -> str:
    """' [new, split from 4]': what the report's run did to a group."""
    c = group.get("change")
    if not c:
        return ""
    words = list(c["kinds"])
    if c.get("split_from") is not None:
        words.append(f"split from {c['split_from']}")
    if c.get("split_into"):
        words.append(f"split into {', '.join(map(str, c['split_into']))}")
    if c.get("removed"):
        words.append(f"{len(c['removed'])} rows left")
    return f" [{', '.join(words)}]"


def to_html(report: dict, display: tuple[str, ...] = ()) -> str:
    """A self-contained page: one table per group."""
    esc = html.escape
    cols = [c for c in display if c not in ("key", "distance")]
    parts = [
        "<!doctype html><html lang='zh'><head><meta charset='utf-8'>",
        f"<title>dedup report: {esc(report['table'])}</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
        "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;max-width:40em}th{background:#f4f4f4}"
        "</style></head><body>",
        f"<h1>{esc(report['table'])}: {len(report['groups'])} duplicate groups</h1>",
        f"<p>{esc(recipe_line(report))}</p>",
    ]
    for g in report["groups"]:
        parts.append(f"<h2>group {g['group']} ({g['size']} rows)</h2><table><tr><th>key</th><th>distance</th>"
                     + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>")
        for r in g["rows"]:
            parts.append(f"<tr><td>{'+ ' if r.get('new') else ''}{esc(r['key'])}</td><td>{r['distance']}</td>"
                         + "".join(f"<td>{esc(str(r.get(c) or ''))}</td>" for c in cols) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def rows_per_second(rows: int, seconds: float) -> str:
    """' (N rows/s)' for a run that read rows, so a slow night shows in its summary line."""
    return f" ({rows / seconds:,.0f} rows/s)" if rows and seconds > 0 else ""

"""The report of duplicate groups: one dict (the JSON contract), rendered as json, csv, table or html."""

from __future__ import annotations

import csv
import html
import io
import json
import unicodedata

from .config import Config, TableConfig
from .normalize import value_to_text
from .source import Source
from .store import Store

FORMATS = ("table", "json", "csv", "html")


def build_report(store: Store, config: Config, table: TableConfig, source: Source | None = None,
                 since_last_run: bool = False) -> dict:
    """Groups as in DESIGN.md; each row carries the table's display columns when a source is given.

    ``since_last_run`` keeps only the groups the last successful run created or changed.
    """
    state = store.state(table.name)
    if state is None:
        return {"table": table.name, "max_distance": config.max_distance, "groups": [], "skipped": [],
                "note": "no run has been recorded for this table yet: run `dedup full` first"}
    groups = store.groups(table.name)
    last_run = None
    if since_last_run:
        last_run = next((r for r in store.runs(table.name, limit=50) if r.status == "ok"), None)
        groups = [g for g in groups if last_run is not None and g.updated_run == last_run.id]
    keys = [k for g in groups for k in g.keys]
    values = source.fetch(keys, table.display) if source is not None else {}
    out_groups = []
    for g in groups:
        rows = []
        for k, d in zip(g.keys, g.distances):
            row = {"key": k, "distance": d}
            vals = values.get(k, {})
            for col in table.display:
                if col not in row:
                    row[col] = value_to_text(vals.get(col))
            rows.append(row)
        entry = {
            "group": g.id, "size": g.size, "rows": rows,
            "pairs": [{"a": p.a, "b": p.b, "distance": p.distance} for p in g.pairs],
        }
        if g.merged_from:
            entry["merged_from"] = list(g.merged_from)
        out_groups.append(entry)
    out = {
        "table": table.name,
        "max_distance": int(state.version.get("max_distance", config.max_distance)),
        "groups": out_groups,
        "skipped": [{"key": s.key, "reason": s.reason, "detail": s.detail} for s in store.skipped(table.name)],
    }
    if since_last_run:
        out["since_run"] = None if last_run is None else {
            "id": last_run.id, "kind": last_run.kind, "finished_at": str(last_run.finished_at)}
    return out


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


def to_csv(report: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["key", "group"])
    for g in report["groups"]:
        for r in g["rows"]:
            w.writerow([r["key"], g["group"]])
    return buf.getvalue()


def _width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _clip(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
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


def to_table(report: dict, display: tuple[str, ...] = (), text_width: int = 40) -> str:
    """Readable in a terminal: one block per group, a line per row with its display columns."""
    groups = report["groups"]
    lines = [f"{report['table']}: {len(groups)} duplicate groups, {sum(g['size'] for g in groups)} rows "
             f"(max distance {report['max_distance']})"]
    if report.get("note"):
        lines.append(report["note"])
    cols = [c for c in display if c not in ("key", "distance")]
    for g in groups:
        lines.append("")
        worst = max((p["distance"] for p in g["pairs"]), default=0)
        merged = f" (merged with groups {', '.join(map(str, g['merged_from']))})" if g.get("merged_from") else ""
        lines.append(f"group {g['group']}: {g['size']} rows, pair distances up to {worst}{merged}")
        key_w = max(3, *(len(r["key"]) for r in g["rows"]))
        for r in g["rows"]:
            cells = [r["key"].rjust(key_w), f"d={r['distance']}"]
            for c in cols:
                v = r.get(c)
                if v is not None:
                    cells.append(_clip(v, text_width if _width(str(v)) > 16 else 16))
            lines.append("  " + "  ".join(cells).rstrip())
    skipped = report.get("skipped") or []
    if skipped:
        unreadable = [s for s in skipped if s["reason"] == "unreadable"]
        lines.append("")
        lines.append(f"skipped: {len(skipped) - len(unreadable)} rows without features, "
                     f"{len(unreadable)} unreadable" + (
                         " (" + ", ".join(s["key"] for s in unreadable[:10]) + ("…" if len(unreadable) > 10 else "")
                         + ")" if unreadable else ""))
    return "\n".join(lines) + "\n"


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
        f"<p>max distance {report['max_distance']}</p>",
    ]
    for g in report["groups"]:
        parts.append(f"<h2>group {g['group']} ({g['size']} rows)</h2><table><tr><th>key</th><th>distance</th>"
                     + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>")
        for r in g["rows"]:
            parts.append(f"<tr><td>{esc(r['key'])}</td><td>{r['distance']}</td>"
                         + "".join(f"<td>{esc(str(r.get(c) or ''))}</td>" for c in cols) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)

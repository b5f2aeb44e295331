"""The report rendered for people and machines: json (the contract), csv, a terminal table, html."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from ..errors import ConfigError
from .html import to_html
from .labels import LABELS, rule_text
from .links import closest_pairs, pair_similarity, reading_order
from .table import to_table

FORMATS = ("table", "json", "csv", "html")

# A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def render(report: dict, fmt: str, display: tuple[str, ...] = (), *, width: int = 100, lang: str = "en",
           excerpt: tuple[str, ...] = ()) -> str:
    """``width``: the terminal's columns (table); ``lang``: html and csv; ``excerpt`` (text columns): html."""
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report, display, lang=lang)
    if fmt == "html":
        return to_html(report, display, lang=lang, excerpt=excerpt)
    if fmt == "table":
        return to_table(report, display, width=width)
    raise ValueError(f"unknown format {fmt!r} (use {', '.join(FORMATS)})")


def csv_cell(value) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading ``'``."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def check_output(path: str | None) -> None:
    """Refuse an --output file that cannot be written, before any work starts (exit 2). A symbolic
    link is judged by the file it points at (it is that file that gets written)."""
    if not path:
        return
    target = Path(os.path.realpath(path))
    via = f"it links to {target}, and " if os.path.islink(path) else ""
    parent = target.parent
    problem = ("it is a symbolic link that leads to itself" if target.is_symlink()
               else f"{via}it is a directory" if target.is_dir()
               else f"{via}directory {parent} does not exist" if not parent.is_dir()
               else f"{via}the file is not writable" if target.exists() and not os.access(target, os.W_OK)
               else f"{via}directory {parent} is not writable" if not os.access(parent, os.W_OK | os.X_OK)
               else None)
    if problem:
        raise ConfigError(f"cannot write --output {path}: {problem}")


CSV_FIXED = ("key", "group", "distance", "linked_to", "similarity", "rule", "deleted")


def to_csv(report: dict, display: tuple[str, ...] = (), lang: str = "en") -> str:
    """key, group, the date column and the display columns (headed by their plain labels), each
    row's strongest link with its similarity and the rule that accepted it, and ``deleted`` (the
    row is gone from the source; its other cells are then empty). Rows earliest filed first when
    the table has a date column. A cell that a spreadsheet would take for a formula starts with
    ``'``; NULL is an empty cell."""
    L = LABELS.get(lang, LABELS["en"])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    # with "\n" ending the rows, the csv module would leave a lone "\r" unquoted
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    date = report.get("date_column")
    labels = report.get("labels") or {}
    cols = list(dict.fromkeys(c for c in ([date] if date else []) + list(display) if c not in CSV_FIXED))
    w.writerow([csv_cell(c) for c in ["key", "group", *(labels.get(c, c) for c in cols),
                                      "linked_to", "similarity", "rule", "deleted"]])
    for g in report["groups"]:
        links = closest_pairs(g)
        for r in reading_order(g["rows"], date):
            p = links.get(r["key"])
            other = "" if p is None else p["b"] if p["a"] == r["key"] else p["a"]
            cells = [csv_cell(r["key"]), g["group"],
                     *(csv_cell(r[c]) if r.get(c) is not None else "" for c in cols),
                     csv_cell(other), "" if p is None else f"{pair_similarity(p):.3f}",
                     csv_cell(rule_text(p.get("rule"), L)) if p else "", L["deleted"] if r.get("deleted") else ""]
            (quoted if any("\r" in str(c) for c in cells) else w).writerow(cells)
    return buf.getvalue()


def rows_per_second(rows: int, seconds: float) -> str:
    """' (N rows/s)' for a run that read rows, so a slow night shows in its summary line."""
    return f" ({rows / seconds:,.0f} rows/s)" if rows and seconds > 0 else ""

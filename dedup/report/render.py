"""The report rendered for people and machines: json (the contract), csv, a terminal table, html."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from ..errors import ConfigError
from .cells import display_width as _width  # noqa: F401 (dedup.eval measures its tables with it)
from .cells import visible
from .html import to_html
from .links import closest_links
from .table import recipe_line, to_table  # noqa: F401 (recipe_line: for dedup.eval)

FORMATS = ("table", "json", "csv", "html")

# A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def render(report: dict, fmt: str, display: tuple[str, ...] = (), *, width: int = 100, lang: str = "en",
           excerpt: tuple[str, ...] = ()) -> str:
    """``width``: the terminal's columns (table); ``lang`` and ``excerpt`` (text columns): html."""
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report, display)
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


def to_csv(report: dict, display: tuple[str, ...] = ()) -> str:
    """key, group, the display columns, and each row's strongest link with its similarity; a cell
    that a spreadsheet would take for a formula starts with ``'``; NULL is an empty cell."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    # with "\n" ending the rows, the csv module would leave a lone "\r" unquoted
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    cols = [c for c in display if c not in ("key", "group", "distance", "linked_to", "similarity")]
    w.writerow([csv_cell(c) for c in ["key", "group", *cols, "linked_to", "similarity"]])
    for g in report["groups"]:
        links = closest_links(g)
        for r in g["rows"]:
            other, sim = links.get(r["key"], ("", None))
            cells = [csv_cell(r["key"]), g["group"],
                     *(csv_cell(r[c]) if r.get(c) is not None else "" for c in cols),
                     csv_cell(other), "" if sim is None else f"{sim:.3f}"]
            (quoted if any("\r" in str(c) for c in cells) else w).writerow(cells)
    return buf.getvalue()


def rows_per_second(rows: int, seconds: float) -> str:
    """' (N rows/s)' for a run that read rows, so a slow night shows in its summary line."""
    return f" ({rows / seconds:,.0f} rows/s)" if rows and seconds > 0 else ""

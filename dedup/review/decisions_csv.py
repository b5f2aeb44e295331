"""A table's decisions as CSV (a,b,verdict,decided_at,source,similarity,reviewer,note,action):
`dedup decisions export` writes it, `dedup decisions import` reads it back (UTF-8, or UTF-16 with
its byte order mark as Excel saves "Unicode text"; the first three columns are enough)."""

from __future__ import annotations

import codecs
import csv
import datetime as _dt
import io

from ..config.model import Config
from ..errors import ConfigError
from ..index.decisions import Decision
from ..report.opened import opened
from ..report.render import FORMULA_START, csv_cell

CSV_HEADER = ["a", "b", "verdict", "decided_at", "source", "similarity", "reviewer", "note", "action"]


def export_decisions(config: Config, table: str | None) -> tuple[str, int]:
    """The table's decisions as CSV text, oldest first, and how many there are."""
    with opened(config, table, with_source=False, read_only=True) as o:
        found = o.store.decisions(o.table.name)
    return decisions_csv(found), len(found)


def decisions_csv(found: list[Decision]) -> str:
    """``found`` as CSV text; a cell a spreadsheet would take for a formula is quoted with '."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for d in found:
        w.writerow([csv_cell(d.a), csv_cell(d.b), d.verdict, d.decided_at.isoformat(sep=" ") if d.decided_at else "",
                    d.source, "" if d.similarity is None else d.similarity, csv_cell(d.reviewer or ""),
                    csv_cell(d.note or ""), d.action or ""])
    return buf.getvalue()


def import_decisions(config: Config, table: str | None, path: str) -> tuple[int, object]:
    """Record the decisions of the CSV at ``path`` (replacing earlier ones on the same pairs) and
    regroup: how many, and the regrouping. A key that names no row of the last run refuses the whole file."""
    from ..clock import now
    from ..runs.decide import decide

    found = read_decisions_csv(path, now())
    return len(found), decide(config, config.table(table).name, found, check_keys=True)


def read_decisions_csv(path: str, when: _dt.datetime) -> list[Decision]:
    """The decisions of the file; ``when`` stands for a missing decided_at."""
    out: list[Decision] = []
    with open(path, "rb") as fh:
        text = _decoded(path, fh.read())
    try:
        first = text.split("\n", 1)[0]
        tabs = "\t" in first and "," not in first  # Excel's "Unicode text" is UTF-16 with tabs
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t" if tabs else ","))
    except csv.Error as e:
        raise ConfigError(f"{path}: not a CSV file: {e}") from None
    for n, row in enumerate(rows, 1):
        if not row or (n == 1 and [c.strip().lower() for c in row[:3]] == CSV_HEADER[:3]):
            continue
        cells = [c.strip() for c in row] + [""] * len(CSV_HEADER)
        a, b, reviewer, note = (c[1:] if c.startswith("'") and c[1:].startswith(FORMULA_START) else c
                                for c in (cells[0], cells[1], cells[6], cells[7]))
        try:
            at = _dt.datetime.fromisoformat(cells[3]) if cells[3] else when
            sim = float(cells[5]) if cells[5] else None
            out.append(Decision(a, b, cells[2].lower(), at, cells[4] or "import", sim, None, reviewer or None,
                                note or None, cells[8] or None))
        except ValueError as e:
            raise ConfigError(f"{path}: line {n}: {e}") from None
    return out


def _decoded(path: str, data: bytes) -> str:
    """The text of a decisions file: UTF-8 (a BOM or not), or UTF-16 with its BOM (as Excel saves
    "Unicode text"); anything else is refused in one line."""
    encoding = "utf-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        text = "\0"
    if "\0" in text:
        raise ConfigError(f"{path}: not UTF-8 text (nor UTF-16 with a byte order mark): save it as CSV UTF-8")
    return text

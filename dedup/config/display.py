"""``tables.<name>.display``, ``date_column`` and ``labels``: what a report shows of each row, the
column that says when a row was filed, and the plain words a clerk reads instead of column names.

Only the shapes are checked here; that the columns exist is checked against the source table
when it is reflected (dedup.db.source), with the table's columns listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Display:
    columns: tuple[str, ...] = ()
    date_column: str | None = None
    labels: dict[str, str] = field(default_factory=dict)


def default_display(fields) -> tuple[str, ...]:
    """The short and chars fields, then the first text field."""
    shorts = [f.name for f in fields if f.kind == "short"] + [f.name for f in fields if f.kind == "chars"]
    return tuple(shorts + [f.name for f in fields if f.kind == "text"][:1])


def parse_display(raw: dict, path: str, problems, fields) -> Display:
    """The table's display columns (default: default_display), date column and labels."""
    display_raw = raw.get("display")
    if display_raw is None:
        columns = default_display(fields)
    elif isinstance(display_raw, list) and all(isinstance(c, str) for c in display_raw):
        columns = tuple(display_raw)
    else:
        problems.add(f"{path}.display", "must be a list of column names")
        columns = ()
    date_column: Any = raw.get("date_column")
    if date_column is not None and (not isinstance(date_column, str) or not date_column):
        problems.add(f"{path}.date_column", "must be a column name")
        date_column = None
    labels_raw: Any = raw.get("labels")
    labels: dict[str, str] = {}
    if labels_raw is not None:
        if not isinstance(labels_raw, dict):
            problems.add(f"{path}.labels", "must be a mapping of column name to label")
        for column, label in (labels_raw if isinstance(labels_raw, dict) else {}).items():
            if not isinstance(label, (str, int, float)) or isinstance(label, bool) or not str(label).strip():
                problems.add(f"{path}.labels.{column}", "must be a label (text)")
            else:
                labels[str(column)] = str(label).strip()
    return Display(columns, date_column, labels)

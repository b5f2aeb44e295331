"""Watermark positions: where an incremental read resumes, kept by the store as JSON and given back exactly."""

from __future__ import annotations

import datetime as _dt


def watermark_position(value: object, key: object) -> dict:
    """Where an incremental read resumes: the last row's watermark value and raw key, as JSON. A
    value the column's type could not read (a SQLite DATETIME cell holding other text) is kept as
    that text, ``{"type": "str"}``, so it reads back exactly."""
    out = watermark_to_json(value) or {"type": "none", "value": None}
    out["key"] = key if isinstance(key, (int, str)) and not isinstance(key, bool) else str(key)
    return out


def watermark_to_json(value: object) -> dict | None:
    """A watermark value in a form the store keeps as JSON and gives back exactly."""
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        return {"type": "datetime", "value": value.isoformat()}
    if isinstance(value, _dt.date):
        return {"type": "date", "value": value.isoformat()}
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return {"type": "str", "value": str(value)}
    return {"type": type(value).__name__, "value": value}


def watermark_from_json(data: dict | None) -> object:
    """The value back; a date or time that does not read back as one stays text (and is compared
    as the database stores it), so a stored position never stops a run."""
    if not data:
        return None
    t, v = data["type"], data["value"]
    try:
        if t == "datetime":
            return _dt.datetime.fromisoformat(v)
        if t == "date":
            return _dt.date.fromisoformat(v)
    except (TypeError, ValueError):
        return v
    return v


def row_watermark_text(value: object) -> str | None:
    """A row's watermark as the store keeps it beside the row's fingerprint (only ever compared
    for equality, with the text the same column gives on a later read); None for NULL."""
    data = watermark_to_json(value)
    return None if data is None else f"{data['type']}:{data['value']}"[:255]

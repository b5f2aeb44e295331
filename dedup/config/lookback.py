"""``tables.<name>.watermark_lookback`` and ``reconcile_every``: how far back each incremental
run looks again for late rows, and how often it reconciles deletes.

A lookback is a duration (``"36h"``, ``"2d"``, ``"90m"``, ``"1w"``, ``"45s"``) for a date or
time watermark, or a whole number for a numeric one; ``0`` turns it off. Left out, it is
DEFAULT_TIME_LOOKBACK for a date/time watermark and DEFAULT_COUNT_LOOKBACK for a numeric one.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

DEFAULT_TIME_LOOKBACK = _dt.timedelta(days=1)
DEFAULT_COUNT_LOOKBACK = 0  # a numeric watermark (a version or sequence) rarely goes back
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")

Lookback = _dt.timedelta | int | float | None  # None: the default for the watermark's type


def parse_lookback(raw: dict, path: str, problems) -> Lookback:
    """``raw['watermark_lookback']`` as a timedelta (a duration) or a number (a count)."""
    value: Any = raw.get("watermark_lookback") if isinstance(raw, dict) else None
    if value is None:
        return None
    where = f"{path}.watermark_lookback"
    if isinstance(value, bool):
        problems.add(where, "must be a duration such as 36h or 2d, or a whole number")
        return None
    if isinstance(value, (int, float)):
        if value < 0:
            problems.add(where, "must not be negative")
            return None
        return value
    match = _DURATION.match(str(value))
    if match is None:
        if re.fullmatch(r"\s*\d+\s*", str(value)):
            return int(value)
        problems.add(where, f"{value!r} is not a duration such as 36h, 2d, 90m, 1w or 45s, nor a whole number")
        return None
    return parse_duration(value)


def parse_duration(text: str) -> _dt.timedelta | None:
    """A duration such as ``26h``, ``2d``, ``90m``, ``1w`` or ``45s``; None when ``text`` is not one."""
    match = _DURATION.match(str(text))
    return _dt.timedelta(seconds=float(match.group(1)) * _UNITS[match.group(2)]) if match else None


def parse_reconcile_every(raw: dict, path: str, problems) -> int:
    """``raw['reconcile_every']``: reconcile deletes every N-th incremental run (0: only when asked)."""
    value = raw.get("reconcile_every", 0) if isinstance(raw, dict) else 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        problems.add(f"{path}.reconcile_every", "must be a whole number, 0 or more (0: only with --reconcile)")
        return 0
    return value


def window_start(value: object, lookback: Lookback) -> object | None:
    """Where the lookback window starts for the stored watermark ``value``; None: no window (a
    lookback of 0, or a value the lookback cannot be taken from). Raises ValueError for a lookback
    of the wrong kind (a duration on a numeric watermark, a count on a date)."""
    if isinstance(value, (_dt.datetime, _dt.date)):
        lb = DEFAULT_TIME_LOOKBACK if lookback is None else lookback
        if not isinstance(lb, _dt.timedelta):
            if lb == 0:
                return None
            raise ValueError(f"a date/time watermark needs a duration such as 36h or 2d, not {lb!r}")
        if not lb:
            return None
        if not isinstance(value, _dt.datetime):  # a date: whole days, rounded up
            lb = _dt.timedelta(days=-(-lb // _dt.timedelta(days=1)))
        return value - lb
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        lb = DEFAULT_COUNT_LOOKBACK if lookback is None else lookback
        if isinstance(lb, _dt.timedelta):
            raise ValueError(f"a numeric watermark needs a whole number, not the duration {lb}")
        return value - lb if lb else None
    return None


def describe(lookback: Lookback) -> str:
    if lookback is None:
        return f"default ({DEFAULT_TIME_LOOKBACK} for dates and times, {DEFAULT_COUNT_LOOKBACK} for numbers)"
    return str(lookback)

"""SQLite date and time text in one comparable form, in SQL and in Python alike.

SQLite keeps a DATETIME as whatever text was written: SQLAlchemy's ``2024-01-06 09:30:34.000000``,
CURRENT_TIMESTAMP's ``2031-06-01 00:00:00``, an application's ISO ``2026-10-01T08:14:00``, a bare
date. Compared as text these disagree (``T`` sorts after a space; ``…:00`` before ``…:00.000000``),
so a keyset condition on the raw column loses rows or never ends. ``sortable`` rewrites the column
in SQL, and ``normal`` a Python value, to ``YYYY-MM-DD HH:MM:SS.ffffff`` (a DATE column: to
``YYYY-MM-DD``, as SQLAlchemy reads it): equal times give equal text and text order is time
order. Text that is no such date or time is left as it is (and compared as it is).
"""

from __future__ import annotations

import datetime as _dt
import re

import sqlalchemy as sa

WIDTH = 26  # len("YYYY-MM-DD HH:MM:SS.ffffff")
_D = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
_HM = "[T ][0-9][0-9]:[0-9][0-9]"
_S = ":[0-9][0-9]"
_TEXT = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ]([0-9]{2}:[0-9]{2})(:[0-9]{2})?(?:\.([0-9]+))?)?")


def sortable(column, date_only: bool):
    """The column's text in the comparable form, as a SQL expression (SQLite)."""
    c = sa.type_coerce(column, sa.String)
    if date_only:
        return sa.case((c.op("GLOB")(_D + "*"), sa.func.substr(c, 1, 10)), else_=c)
    spaced = sa.func.replace(c, "T", " ")
    fraction = sa.func.substr(c, 21)
    return sa.case(
        (c.op("GLOB")(_D), c + " 00:00:00.000000"),
        (c.op("GLOB")(_D + _HM), spaced + ":00.000000"),
        (c.op("GLOB")(_D + _HM + _S), spaced + ".000000"),
        (sa.and_(c.op("GLOB")(_D + _HM + _S + ".[0-9]*"), sa.not_(fraction.op("GLOB")("*[^0-9]*"))),
         sa.func.substr(spaced + "000000", 1, WIDTH)),
        else_=c)


def normal(value: object, date_only: bool) -> object:
    """A value (a date, a datetime, or text as stored) in the form ``sortable`` gives in SQL."""
    if isinstance(value, _dt.datetime):
        return value.date().isoformat() if date_only else value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, _dt.date):
        return value.isoformat() if date_only else f"{value.isoformat()} 00:00:00.000000"
    if not isinstance(value, str):
        return value
    if date_only:
        return value[:10] if _TEXT.match(value[:10]) else value
    if not (m := _TEXT.fullmatch(value)):
        return value
    day, hm, sec, frac = m.groups()
    if hm is None:
        return f"{day} 00:00:00.000000"
    return f"{day} {hm}{sec or ':00'}.{((frac or '') + '000000')[:6]}"


def day_prefix(value: object) -> str | None:
    """The date a comparable text starts with: every raw text at or after it starts at or after
    this date too, so ``column >= day`` bounds the column's index range (None: no such date)."""
    return value[:10] if isinstance(value, str) and _TEXT.match(value[:10]) else None


def next_day(day: str) -> str | None:
    """The date after ``day`` (YYYY-MM-DD) as text: a raw text at or after it is past every time of
    ``day`` in any form (None: no such date)."""
    try:
        return (_dt.date.fromisoformat(day) + _dt.timedelta(days=1)).isoformat()
    except (ValueError, OverflowError):
        return None

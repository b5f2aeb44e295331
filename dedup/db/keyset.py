"""Keyset conditions: rows strictly after a position in (sort value, key) order, written once.

The sort value and its bound come from dedup.db.watermark (already in the terms the database
compares); only the key order is added here.
"""

from __future__ import annotations

import datetime as _dt

import sqlalchemy as sa


def after(lhs, rhs, key, last_key, hint=None):
    """Rows whose (lhs, key) is strictly after (rhs, last_key); with ``last_key`` None, rows whose
    ``lhs`` is at or after ``rhs`` (a lookback window's start). ``hint``: a condition every such
    row meets that bounds an index range."""
    extra = [hint] if hint is not None else []
    if last_key is None:
        return sa.and_(lhs >= rhs, *extra)
    # lhs >= rhs is implied, but stated it bounds the index range: without it SQLite read a 1M-row
    # table's index from far before the position (0.12 s against 0.003 s a batch)
    return sa.and_(*extra, lhs >= rhs, sa.or_(lhs > rhs, sa.and_(lhs == rhs, key > last_key)))


def temporal(column) -> bool:
    """Whether the column's type reads as a date or a date and time."""
    try:
        return column.type.python_type in (_dt.datetime, _dt.date)
    except NotImplementedError:
        return False


def as_stored(column, value, dialect: str) -> tuple:
    """Column and value to compare when ``value`` is text its type cannot read (a MariaDB zero
    date, PostgreSQL's 'infinity'): MySQL compares the column with the raw text as it stores it;
    PostgreSQL reads the text in the column's own type, where 'infinity' is a timestamp (a text
    comparison would put '12000-01-01' before 2024)."""
    if not (temporal(column) and isinstance(value, str)):
        return column, value
    if dialect == "postgresql":
        return column, sa.cast(sa.literal(value, sa.String), column.type)
    return sa.type_coerce(column, sa.String), value

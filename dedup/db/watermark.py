"""The watermark: where an incremental read resumes, owned from end to end by one type.

A ``Watermark`` is bound to the source's watermark column and key column. It says how rows are
ordered (``order``), which rows lie after a position (``after``), what a row's position is
(``position``, kept by the store as JSON and read back exactly by ``watermark_from_json``), and
whether a stored position still fits the table (``checked``). Positions come in two forms:

* **stored**: the column's value as Python reads it (a datetime, a number, text), with the raw key;
* **as read**: the column as the database orders it, read beside each row while a read goes on,
  so each batch starts exactly after the last one (never a value rendered by Python).

On SQLite a date/time column holds text, in whatever form it was written: a read goes in the
order of that text (its index), and the stored position it starts after is compared in one
text form (dedup.db.datetext), so the time, not the text, decides which rows are new. The
furthest position of a read is its furthest time (``further``). Elsewhere the column is
compared in its own type.
"""

from __future__ import annotations

import datetime as _dt

import sqlalchemy as sa
from sqlalchemy.dialects import mysql

from ..errors import ConfigError
from . import datetext
from .keyset import after, as_stored, temporal

CONVERT_ERRORS = (ValueError, TypeError, ArithmeticError)  # a text its type cannot read
_KIND_OF_TYPE = {_dt.datetime: "datetime", _dt.date: "date", int: "number", float: "number", str: "text"}
_KIND_OF_VALUE = {"datetime": "datetime", "date": "date", "int": "number", "float": "number"}  # old positions
_SAID = {"datetime": "dates and times", "timestamp": "TIMESTAMP instants", "date": "dates", "number": "numbers",
         "text": "text", "other": "values of another type"}


class Watermark:
    """The watermark column of one source table (with its key column, which breaks ties)."""

    def __init__(self, column, key, dialect: sa.Dialect):
        self.column, self.key, self.dialect = column, key, dialect
        self.kind = column_kind(column, dialect.name)
        self.text_dates = dialect.name == "sqlite" and temporal(column)
        self.date_only = self.kind == "date"
        self.raw = sa.type_coerce(column, sa.String) if self.text_dates else column  # SQLite: its text, unconverted

    # -- conditions -----------------------------------------------------------------------------
    def order(self) -> list:
        return [self.raw, self.key]

    def after(self, value: object, last_key: object):
        """Rows strictly after (``value``, ``last_key``) in the read's order, ``value`` as read."""
        if self.text_dates:
            return after(self.raw, value, self.key, last_key)
        lhs, rhs = as_stored(self.column, value, self.dialect.name)
        return after(lhs, rhs, self.key, last_key)

    def after_position(self, position: dict, hint: bool = True):
        """Rows after a stored position ({"type", "value", "key", ...}; key None: from the value on),
        compared as the column's type compares (SQLite: as times, whatever text they are written in).
        ``hint``: with a condition on the raw text that starts the index range there (SQLite uses
        one lower bound: a read that goes on bounds its range by its own position instead)."""
        value, last_key = watermark_from_json(position), position.get("key")
        if not self.text_dates:
            return self.after(value, last_key)
        value = datetext.normal(value, self.date_only)
        past = after(datetext.sortable(self.column, self.date_only), value, self.key, last_key)
        day = datetext.day_prefix(value)
        if day is None:
            return past
        if (later := datetext.next_day(day)) is not None:  # text from the next day on is past: no rewriting
            past = sa.or_(self.raw >= later, past)
        return sa.and_(self.raw >= day, past) if hint else past

    # -- reading positions row by row -------------------------------------------------------------
    def as_read(self):
        """The expression a batch read row by row selects for positions: one no value can fail
        (SQLite: the text as stored; a date or time elsewhere: the database's text of it)."""
        if self.dialect.name == "sqlite":
            return sa.type_coerce(self.column, sa.String)
        return sa.cast(self.column, sa.String) if temporal(self.column) else self.column

    def typed(self, value: object) -> tuple[object, bool]:
        """A value read by ``as_read`` in the column's Python type, and whether it could be."""
        if value is None:
            return None, True
        process = self.column.type.dialect_impl(self.dialect).result_processor(self.dialect, None)
        if process is None and isinstance(value, str) and temporal(self.column):
            process = _dt.date.fromisoformat if self.date_only else _dt.datetime.fromisoformat
        try:
            value = process(value) if process is not None else value
        except CONVERT_ERRORS:
            return value, False
        return value, self.readable(value)

    def resume(self, value: object) -> object:
        """Where the next batch starts, from a position read by ``as_read``: as ``after`` takes it."""
        if self.text_dates:
            return value
        typed, ok = self.typed(value)
        return typed if ok else value

    def readable(self, value: object) -> bool:
        """Whether a value read from a row is one the column's type holds (pymysql gives a MariaDB
        zero date back as text): only such a value is ever a stored position."""
        return not (isinstance(value, str) and temporal(self.column))

    # -- stored positions -------------------------------------------------------------------------
    def position(self, value: object, key: object) -> dict:
        """The stored form of a row's position, with what it was read from (``checked``)."""
        return {**watermark_position(value, key), **self._read_from()}

    def furthest(self, last: tuple | None, rows: list[tuple[str, dict]]) -> tuple | None:
        """The furthest (value, key) of ``last`` and the rows' (rows read by key, in Python)."""
        wm, key = self.column.name, self.key.name
        for _k, row in rows:
            value = row.get(wm)
            if value is None or not self.readable(value):
                continue
            try:
                last = (value, row[key]) if last is None or (value, row[key]) > last else last
            except TypeError:  # values of two types in one column (SQLite): the first type's order counts
                continue
        return last

    @staticmethod
    def further(last: tuple | None, read: tuple | None) -> tuple | None:
        """The later of two (value, key) positions of a read by watermark, ``read`` read after
        ``last``: by value (SQLite text is read in the order of its text, not always of its time),
        and at equal values the one read later."""
        if read is None or last is None:
            return read or last
        try:
            return last if read[0] < last[0] else read
        except TypeError:  # values of two types (a naive and an aware time): the one read later
            return read

    def checked(self, stored: dict | None, table: str) -> dict | None:
        """A stored position, refused (ConfigError) when the key column, the watermark column or
        its type changed since it was stored; given back with what it is read from now, so the
        next stored position says so (positions stored before this check are taken as they are)."""
        if stored is None:
            return None
        again = f"run `dedup full --table {table}` to read the table again"
        for what, now in (("key", self.key.name), ("watermark", self.column.name)):
            was = stored.get(f"{what}_column")
            if was is not None and was != now:
                raise ConfigError(f"tables.{table}.{what}: the rows stored for {table!r} were read by "
                                  f"{what} column {was!r}, not {now!r}: {again}")
        was = stored.get("kind")
        now = self.kind if was is not None else "datetime" if self.kind == "timestamp" else self.kind
        was = was or _KIND_OF_VALUE.get(stored.get("type"))
        if was is not None and was != now:
            raise ConfigError(f"tables.{table}.watermark: {self.column.name!r} holds {_SAID.get(now, now)} now, "
                              f"but the stored watermark holds {_SAID.get(was, was)} (the column's type changed "
                              f"since the last run): {again}")
        return {**stored, **self._read_from()}

    def _read_from(self) -> dict:
        return {"key_column": self.key.name, "watermark_column": self.column.name, "kind": self.kind}


def column_kind(column, dialect: str) -> str:
    """What a watermark column holds: datetime, timestamp (MySQL's, kept in UTC), date, number,
    text or other."""
    if dialect in ("mysql", "mariadb") and isinstance(column.type, mysql.TIMESTAMP):
        return "timestamp"
    try:
        py = column.type.python_type
    except NotImplementedError:
        return "other"
    if py is not bool and (issubclass(py, (int, float)) or py.__name__ == "Decimal"):
        return "number"
    return _KIND_OF_TYPE.get(py, "other")


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

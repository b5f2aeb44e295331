"""The source table, read through SQLAlchemy: reflected, checked against the config, streamed by key.

Rows come in key order in batches by keyset pagination (``WHERE key > :last ORDER BY key LIMIT n``),
so memory stays flat whatever the table's size. Identifiers come from reflection and are quoted
by SQLAlchemy; no config value is ever formatted into SQL text. A batch that fails to decode is
re-read row by row, so one bad row is reported with its key and the others are still read.

Keys that are not declared unique may repeat: a batch that ends inside a run of equal positions
is completed before the next one starts, so no row is lost at a batch boundary. Rows whose key
is NULL are never read (``null_key_rows`` counts them). A text cell longer than the table's
``max_cell_chars`` is cut to it (``SourceBatch.truncated`` says where).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Iterator

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc

from ..config.model import TableConfig
from ..errors import ConfigError, SourceError
from ..text.normalize import key_to_text
from .engine import first_line, make_engine, reflect_table
from .masking import mask_secrets
from .watermark import CONVERT_ERRORS, Watermark

log = logging.getLogger(__name__)
# What a driver or SQLAlchemy's result processing raises on a value it cannot read or convert
# (UnicodeDecodeError is a ValueError; decimal errors and OverflowError are ArithmeticErrors).
READ_ERRORS = (sa_exc.DBAPIError, *CONVERT_ERRORS)


@dataclass
class SourceBatch:
    rows: list[tuple[str, dict]] = field(default_factory=list)  # (key, column -> value)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (key, why)
    unreadable_at: dict[str, object] = field(default_factory=dict)  # key -> its watermark as stored (text on SQLite)
    truncated: list[tuple[str, str, int]] = field(default_factory=list)  # (key, column, characters before the cut)
    last: tuple | None = None  # the order columns of the batch's last row: where the next one starts
    readable: tuple | None = None  # the furthest position whose values read back (None: none did)


def _key_text(key: object) -> str:
    """The key's text, or for a key that is no text (bytes that are not UTF-8) its Python form."""
    try:
        return key_to_text(key)
    except ValueError:
        return repr(key)


class Source:
    """One configured table of the source database."""

    def __init__(self, url: str, table: TableConfig, batch_size: int = 1000):
        self.url = url
        self.config = table
        self.batch_size = batch_size
        self.max_cell_chars = table.max_cell_chars
        self.unique_key = True  # set by _reflect: the key column is declared unique
        self.engine = make_engine(url, "source")
        self.dialect = self.engine.dialect.name
        self.table = self._reflect()
        self.key = self.table.c[table.key]
        self.watermark = Watermark(self.table.c[table.watermark], self.key, self.engine.dialect) \
            if table.watermark else None
        if self.watermark is not None and self.watermark.kind == "timestamp":
            self._utc_sessions()
        self.bounds = sa.true()  # within(): the key range this source reads (a Spark partition's)

    # -- opening -----------------------------------------------------------------------------
    def _reflect(self) -> sa.Table:
        name = self.config.name
        try:
            tbl = reflect_table(self.engine, name, self.url)
        except ConfigError as e:
            raise ConfigError(f"tables.{name}: {e}") from None
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"cannot read the source database {mask_secrets(self.url)}: {first_line(e)}") from None
        missing = []
        cfg = self.config
        checks = [("key", cfg.key)] + [(f"fields.{f.name}", f.name) for f in cfg.fields]
        if cfg.watermark:
            checks.append(("watermark", cfg.watermark))
        checks += [("display", c) for c in cfg.display]
        checks += [("date_column", c) for c in [cfg.date_column] if c]
        checks += [(f"labels.{c}", c) for c in cfg.labels]
        for path, col in checks:
            if col not in tbl.c:
                missing.append(f"tables.{name}.{path}: column {col!r} not in table {name!r}")
        if missing:
            have = ", ".join(tbl.c.keys())
            raise ConfigError("; ".join(dict.fromkeys(missing)) + f" (columns: {have})")
        key = tbl.c[cfg.key]
        unique = key.primary_key and len(tbl.primary_key.columns) == 1
        unique = unique or any(
            len(c.columns) == 1 and key.name in c.columns for c in tbl.constraints if isinstance(c, sa.UniqueConstraint)
        ) or any(ix.unique and [c.name for c in ix.columns] == [key.name] for ix in tbl.indexes)
        if not unique:
            log.warning("key column %r of %r is not declared unique; rows sharing a key are skipped as duplicate_key",
                        key.name, name)
        self.unique_key = unique
        return tbl

    def _utc_sessions(self) -> None:
        """MySQL reads and compares a TIMESTAMP in the session's time zone: the source's sessions
        use UTC, so a stored position means the same instant whatever zone a later run's server
        or client is set to (a zone change would otherwise move every row past it or before it)."""
        @event.listens_for(self.engine, "connect")
        def _utc(dbapi_conn, _record):
            cursor = dbapi_conn.cursor()
            cursor.execute("SET time_zone = '+00:00'")
            cursor.close()
        self.engine.dispose()  # the connection reflection used was opened in the server's zone

    def close(self) -> None:
        self.engine.dispose()

    # -- key ranges (dedup.runs.spark reads one a partition) -----------------------------------
    def split_keys(self, parts: int) -> list:
        """Up to ``parts - 1`` distinct key values, ascending in the database's key order, that cut
        the non-NULL keys into ranges of about equal rows (a run of equal keys stays in one range)."""
        n = self._count(self.key.is_not(None))
        query = sa.select(self.key).where(self.key.is_not(None)).order_by(self.key).limit(1)
        out: list = []
        try:
            with self.engine.connect() as conn:
                for p in range(1, max(parts, 1)):
                    value = conn.execute(query.offset(n * p // parts - 1)).scalar() if n * p // parts else None
                    if value is not None and (not out or value != out[-1]):
                        out.append(value)
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"reading {self.config.name!r} failed: {first_line(e)}") from None
        return out

    def within(self, lower: object = None, upper: object = None) -> "Source":
        """Read only the rows whose key is > ``lower`` and <= ``upper`` (None: unbounded)."""
        self.bounds = sa.and_(*([self.key > lower] if lower is not None else []),
                              *([self.key <= upper] if upper is not None else []), sa.true())
        return self

    def __enter__(self) -> "Source":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------
    def _columns(self) -> list[sa.Column]:
        return [self.table.c[c] for c in self.config.columns]

    def count(self, since: dict | None = None) -> int:
        """Rows in the table, or (``since``) rows past that watermark position."""
        return self._count(self._window(since, by_watermark=True)[1] if since is not None else sa.true())

    def null_key_rows(self, since: dict | None = None, by_watermark: bool = False) -> int:
        """Rows whose key is NULL (never read): in the whole table, or past ``since`` by watermark."""
        where = self.key.is_(None)
        if by_watermark:
            wm = self.table.c[self.config.watermark]
            where = sa.and_(where, wm.is_not(None))
            if since is not None:  # the key is NULL, so only the watermark can be past the position (or equal: read then)
                where = sa.and_(where, self.watermark.after_position({**since, "key": None}))
        return self._count(where)

    def count_keys(self) -> int:
        """Rows with a key, or distinct keys when the key is not declared unique."""
        if self.unique_key:
            return self._count(self.key.is_not(None))
        query = sa.select(sa.func.count(sa.distinct(self.key))).select_from(self.table)
        try:
            with self.engine.connect() as conn:
                return int(conn.execute(query).scalar_one())
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"cannot count rows of {self.config.name!r}: {first_line(e)}") from None

    def null_watermark_rows(self) -> int:
        """Rows whose watermark is NULL: an incremental run never reads them."""
        return self._count(self.table.c[self.config.watermark].is_(None))

    def _count(self, where) -> int:
        query = sa.select(sa.func.count()).select_from(self.table).where(where)
        try:
            with self.engine.connect() as conn:
                return int(conn.execute(query).scalar_one())
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"cannot count rows of {self.config.name!r}: {first_line(e)}") from None

    def key_counts(self, rows: list[dict]) -> dict[str, int]:
        """How many rows of the whole table have each of these rows' keys (as key text), for keys
        that may repeat; on SQLite the text form is matched too, so 1 and '1' count as one key."""
        raw = list({(type(r[self.key.name]), r[self.key.name]): r[self.key.name] for r in rows}.values())
        out: dict[str, int] = {}
        try:
            with self.engine.connect() as conn:
                for start in range(0, len(raw), 500):
                    chunk = raw[start:start + 500]
                    match = self.key.in_(chunk)
                    if self.engine.dialect.name == "sqlite":
                        match = sa.or_(match, sa.cast(self.key, sa.Text).in_([key_to_text(k) for k in chunk]))
                    for (k,) in conn.execute(sa.select(self.key).where(match)):
                        out[key_to_text(k)] = out.get(key_to_text(k), 0) + 1
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"reading {self.config.name!r} failed: {first_line(e)}") from None
        return out

    def batches(self, since: dict | None = None, by_watermark: bool = False) -> Iterator[SourceBatch]:
        """Every row, batch by batch: in key order, or (``by_watermark``) in (watermark, key) order
        starting after the stored position ``since`` (dedup.db.watermark; its key None: from its
        value on). Each row's position is read beside it in the terms the database compares, and
        the next batch starts after the last one's, so no row is read twice or lost at a boundary.

        Rows whose watermark is NULL are never read by watermark, nor rows whose key is NULL.
        """
        order, where = self._window(since, by_watermark)
        then = self._window(since, by_watermark, hint=False)[1]  # the condition of the batches after the first
        cols = self._columns()
        at = [c.label(f"_at{i}") for i, c in enumerate(order)]
        try:
            with self.engine.connect() as conn:
                while True:
                    query = sa.select(*cols, *at).where(where).order_by(*order).limit(self.batch_size)
                    try:
                        result = _dicts(conn.execute(query))
                        if len(result) == self.batch_size and not self.unique_key:
                            result = self._whole_run(conn, cols, at, where, result)
                        positions = [tuple(r.pop(a.name) for a in at) for r in result]
                        batch = SourceBatch()
                        for r in result:
                            self._take(batch, key_to_text(r[self.key.name]), r)
                        last = positions[-1] if positions else None
                        if by_watermark:
                            wm, key = self.watermark.column.name, self.key.name
                            batch.readable = next(((r[wm], r[key]) for r in reversed(result)
                                                   if self.watermark.readable(r[wm])), None)
                    except READ_ERRORS as e:
                        if isinstance(e, sa_exc.DBAPIError) and e.connection_invalidated:
                            raise
                        conn.rollback()
                        batch, last = self._row_by_row(conn, cols, order, where, e, by_watermark)
                    if last is None:
                        return
                    batch.last = last
                    yield batch
                    where = sa.and_(then, self.watermark.after(*last) if by_watermark else self.key > last[0])
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"reading {self.config.name!r} failed: {first_line(e)}") from None

    def _window(self, since: dict | None, by_watermark: bool, hint: bool = True) -> tuple[list, object]:
        """Read order and the condition every row read meets: by watermark, after the stored
        position ``since``, and never a row whose watermark is NULL."""
        base = sa.and_(self.key.is_not(None), self.bounds)
        if not by_watermark:
            return [self.key], base
        start = self.watermark.after_position(since, hint) if since is not None else sa.true()
        return self.watermark.order(), sa.and_(self.watermark.column.is_not(None), base, start)

    def keys(self, batch_size: int = 10_000) -> Iterator[list[str]]:
        """Every non-NULL key as text, batch by batch in key order: only the key column is read,
        by keyset pagination (``dedup incremental --reconcile``)."""
        last = None
        try:
            with self.engine.connect() as conn:
                while True:
                    where = self.key.is_not(None) if last is None else self.key > last
                    raw = conn.execute(sa.select(self.key).where(where).order_by(self.key).limit(batch_size)).scalars().all()
                    if not raw:
                        return
                    last = raw[-1]
                    yield [_key_text(k) for k in raw]
        except (sa_exc.SQLAlchemyError, *READ_ERRORS) as e:  # a key that cannot be read: no reconcile
            raise SourceError(f"reading the keys of {self.config.name!r} failed: {first_line(e)}") from None

    def _whole_run(self, conn, cols, at, where, result: list) -> list:
        """A full batch whose last position may continue past the limit (keys that repeat): its rows
        at that position are replaced by all of them, so the next batch starts after the whole run."""
        def position(r):
            return tuple(r[a.name] for a in at)
        last = position(result[-1])
        same = sa.and_(where, *(a.element == v for a, v in zip(at, last)))
        run = _dicts(conn.execute(sa.select(*cols, *at).where(same)))
        return [r for r in result if position(r) != last] + run

    def _take(self, batch: SourceBatch, key: str, row: dict) -> None:
        """Add a row to the batch, its text fields cut to ``max_cell_chars``; a row whose date or
        time watermark came back as text (a MariaDB zero date) is unreadable."""
        wm = self.config.watermark
        if wm is not None and not self.watermark.readable(row.get(wm)):
            batch.unreadable.append((key, f"{wm}: {row[wm]!r} is not a date or time that can be compared"))
            return
        cap = self.max_cell_chars
        for f in self.config.fields:
            value = row.get(f.name)
            if isinstance(value, (bytes, bytearray, memoryview)) and len(value) > cap:
                try:  # decoded here so that the cut falls between characters
                    value = bytes(value).decode("utf-8")
                except UnicodeDecodeError:
                    continue  # left whole: featurising reports the row as unreadable
            if isinstance(value, str) and len(value) > cap:
                row[f.name] = value[:cap]
                batch.truncated.append((key, f.name, len(value)))
        batch.rows.append((key, row))

    def _row_by_row(self, conn, cols, order, where, cause, by_watermark: bool) -> tuple[SourceBatch, tuple | None]:
        """Re-read one batch: its positions first, read so that no value can fail
        (Watermark.as_read), then the rows at each position alone."""
        log.debug("a batch failed (%s); reading it row by row", first_line(cause))
        wm = self.watermark
        raw = [wm.as_read(), self.key] if by_watermark else [self.key]
        extra = [wm.as_read()] if wm is not None else []  # an unreadable row's watermark as stored
        found = conn.execute(sa.select(*raw, *extra).where(where).order_by(*order).limit(self.batch_size)).all()
        found = list(dict.fromkeys(tuple(p) for p in found))  # a repeated key: its rows are read at once
        positions = list(dict.fromkeys(p[:len(raw)] for p in found))
        stored_wm = {p[len(raw) - 1]: p[-1] for p in found} if extra else {}
        batch = SourceBatch()
        for pos in positions:
            k = pos[-1]
            try:
                at = sa.and_(*(c == v for c, v in zip(raw, pos)))
                for row in conn.execute(sa.select(*cols).where(at)).mappings().all():
                    self._take(batch, key_to_text(k), dict(row))
            except READ_ERRORS as e:
                if isinstance(e, sa_exc.DBAPIError) and e.connection_invalidated:
                    raise
                conn.rollback()
                batch.unreadable.append((_key_text(k), first_line(e)))
                if k in stored_wm:
                    batch.unreadable_at[_key_text(k)] = stored_wm[k]
        if not positions or not by_watermark:
            return batch, (positions[-1] if positions else None)
        typed = [(wm.typed(v), k) for v, k in positions]
        batch.readable = next(((v, k) for (v, ok), k in reversed(typed) if ok), None)
        value, key = positions[-1]
        return batch, (wm.resume(value), key)

    def fetch(self, keys: list[str], columns: tuple[str, ...]) -> dict[str, dict]:
        """Values of ``columns`` for the rows with these keys (missing rows are left out, so with no
        columns this tells which keys the source still has)."""
        if not keys:
            return {}
        cols = [self.key] + [self.table.c[c] for c in columns if c != self.key.name]
        typed = [self._typed_key(k) for k in keys]
        out: dict[str, dict] = {}
        try:
            with self.engine.connect() as conn:
                for start in range(0, len(typed), 500):
                    chunk = typed[start:start + 500]
                    for r in conn.execute(sa.select(*cols).where(self.key.in_(chunk))).mappings():
                        out[key_to_text(r[self.key.name])] = dict(r)
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"reading {self.config.name!r} failed: {first_line(e)}") from None
        return out

    def _typed_key(self, key: str) -> object:
        try:
            py = self.key.type.python_type
        except NotImplementedError:
            return key
        if py is int:
            return int(key)
        return key


def _dicts(result) -> list[dict]:
    """A result's rows as plain dicts (column name -> value), zipped from its tuples: SQLAlchemy's
    row mappings turned into dicts cost about 1 CPU s more per 200,000 rows, in the process that
    feeds the featurising workers."""
    names = list(result.keys())
    return [dict(zip(names, row)) for row in result.all()]

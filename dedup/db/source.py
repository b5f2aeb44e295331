"""The source table, read through SQLAlchemy: reflected, checked against the config, streamed by key.

Rows come in key order in batches by keyset pagination (``WHERE key > :last ORDER BY key LIMIT n``),
so memory stays flat whatever the table's size. Identifiers come from reflection and are quoted
by SQLAlchemy; no config value is ever formatted into SQL text. A batch that fails to decode is
re-read row by row, so one bad row is reported with its key and the others are still read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Iterator

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..config.model import TableConfig
from ..errors import ConfigError, SourceError
from ..text.normalize import key_to_text
from .engine import first_line, make_engine
from .masking import mask_secrets
from .watermark import watermark_from_json

log = logging.getLogger(__name__)


@dataclass
class SourceBatch:
    rows: list[tuple[str, dict]] = field(default_factory=list)  # (key, column -> value)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (key, why)
    last: tuple | None = None  # the order columns of the batch's last row: where the next one starts


def _after(order: list, position: tuple | None):
    """Keyset condition: rows strictly after ``position`` in the (c1, c2, ...) order."""
    if position is None:
        return sa.true()
    if len(order) == 1:
        return order[0] > position[0]
    (c1, c2), (v1, v2) = order, position
    return sa.or_(c1 > v1, sa.and_(c1 == v1, c2 > v2))


class Source:
    """One configured table of the source database."""

    def __init__(self, url: str, table: TableConfig, batch_size: int = 1000):
        self.url = url
        self.config = table
        self.batch_size = batch_size
        self.engine = make_engine(url, "source")
        self.table = self._reflect()
        self.key = self.table.c[table.key]

    # -- opening -----------------------------------------------------------------------------
    def _reflect(self) -> sa.Table:
        name = self.config.name
        try:
            with self.engine.connect() as conn:
                tbl = sa.Table(name, sa.MetaData(), autoload_with=conn)
        except sa_exc.NoSuchTableError:
            raise ConfigError(
                f"tables.{name}: table {name!r} not found in the source database {mask_secrets(self.url)}"
            ) from None
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"cannot read the source database {mask_secrets(self.url)}: {first_line(e)}") from None
        missing = []
        cfg = self.config
        checks = [("key", cfg.key)] + [(f"fields.{f.name}", f.name) for f in cfg.fields]
        if cfg.watermark:
            checks.append(("watermark", cfg.watermark))
        checks += [("display", c) for c in cfg.display]
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
            log.warning("key column %r of %r is not declared unique; rows sharing a key may be skipped", key.name, name)
        return tbl

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Source":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------
    def _columns(self) -> list[sa.Column]:
        return [self.table.c[c] for c in self.config.columns]

    def count(self, since: dict | None = None) -> int:
        """Rows in the table, or (``since``) rows past that watermark position."""
        query = sa.select(sa.func.count()).select_from(self.table)
        if since is not None:
            query = query.where(self._window(since, by_watermark=True)[1])
        try:
            with self.engine.connect() as conn:
                return int(conn.execute(query).scalar_one())
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"cannot count rows of {self.config.name!r}: {first_line(e)}") from None

    def batches(self, since: dict | None = None, by_watermark: bool = False) -> Iterator[SourceBatch]:
        """Every row, batch by batch: in key order, or (``by_watermark``) in (watermark, key) order
        starting after the position ``since`` ({"value": ..., "key": ...} from watermark_position).

        Rows whose watermark is NULL are never read by watermark.
        """
        order, where = self._window(since, by_watermark)
        cols = self._columns()
        try:
            with self.engine.connect() as conn:
                while True:
                    query = sa.select(*cols).where(where).order_by(*order).limit(self.batch_size)
                    try:
                        result = conn.execute(query).mappings().all()
                        batch = SourceBatch(rows=[(key_to_text(r[self.key.name]), dict(r)) for r in result])
                        last = tuple(result[-1][c.name] for c in order) if result else None
                    except (sa_exc.DBAPIError, UnicodeDecodeError, ValueError) as e:
                        if isinstance(e, sa_exc.DBAPIError) and e.connection_invalidated:
                            raise
                        conn.rollback()
                        batch, last = self._row_by_row(conn, cols, order, where, e)
                    if last is None:
                        return
                    batch.last = last
                    yield batch
                    where = self._window(last, by_watermark, raw=True)[1]
        except sa_exc.SQLAlchemyError as e:
            raise SourceError(f"reading {self.config.name!r} failed: {first_line(e)}") from None

    def _window(self, position, by_watermark: bool, raw: bool = False) -> tuple[list, object]:
        """Read order and the condition for rows strictly after ``position``: a stored watermark
        position ({"value", "key", ...}), or with ``raw`` the order columns' values of a last row.

        By watermark, rows whose watermark is NULL are never in the window.
        """
        order, base = [self.key], sa.true()
        if by_watermark:
            wm = self.table.c[self.config.watermark]
            order, base = [wm, self.key], wm.is_not(None)
        if position is not None and not raw:
            position = (watermark_from_json(position), position["key"]) if by_watermark else (position["key"],)
        return order, sa.and_(base, _after(order, position))

    def _row_by_row(self, conn, cols, order, where, cause) -> tuple[SourceBatch, tuple | None]:
        """Re-read one batch: its order columns first (they decode), then each row alone."""
        log.debug("a batch failed (%s); reading it row by row", first_line(cause))
        positions = conn.execute(sa.select(*order).where(where).order_by(*order).limit(self.batch_size)).all()
        batch = SourceBatch()
        for pos in positions:
            k = pos[-1]
            try:
                row = conn.execute(sa.select(*cols).where(self.key == k)).mappings().one()
                batch.rows.append((key_to_text(k), dict(row)))
            except (sa_exc.DBAPIError, UnicodeDecodeError, ValueError) as e:
                if isinstance(e, sa_exc.DBAPIError) and e.connection_invalidated:
                    raise
                conn.rollback()
                batch.unreadable.append((key_to_text(k), first_line(e)))
        return batch, (tuple(positions[-1]) if positions else None)

    def fetch(self, keys: list[str], columns: tuple[str, ...]) -> dict[str, dict]:
        """Values of ``columns`` for the rows with these keys (missing rows are left out)."""
        if not keys or not columns:
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

"""The workbench's hold on one table: its store and source, opened once for the server's life and
used by one request at a time (a clerk's clicks, not a crowd's), and what each page reads.

Nothing here knows HTTP: the pages (dedup.web.app) ask for plain data, so the same reads serve
a test or a script.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import DedupError
from ..report.labels import date_text
from ..runs.explain import Scorer
from ..store import Store, open_store
from ..text.normalize import value_to_text


def date_column(tcfg: TableConfig) -> str | None:
    """The column that says when a row was filed: the configured one, else the watermark column."""
    return tcfg.date_column or tcfg.watermark


def label_of(tcfg: TableConfig, column: str) -> str:
    """A column's plain label (the config's ``labels``), else its name."""
    return tcfg.label(column)


class Workbench:
    """One configured table, its store and its source."""

    def __init__(self, config: Config, table: str | None = None, read_only: bool = False):
        self.config = config
        self.tcfg = config.table(table)
        self.read_only = read_only
        self._lock = threading.RLock()
        self._store: Store | None = None
        self._source: Source | None = None
        self._source_error: str | None = None
        self._cache: dict = {}

    @property
    def table(self) -> str:
        return self.tcfg.name

    @property
    def columns(self) -> list[str]:
        """The columns a page shows: the fields, the display columns, the date column; key apart."""
        t = self.tcfg
        cols = [*(f.name for f in t.fields), *t.display]
        dc = date_column(t)
        return [c for c in dict.fromkeys(cols + ([dc] if dc else [])) if c != t.key]

    @property
    def whole_columns(self) -> set[str]:
        """Columns compared as whole values (short fields: phones, ids, names)."""
        return {f.name for f in self.tcfg.fields if f.kind == "short"}

    @contextmanager
    def opened(self):
        """(store, source or None, scorer or None), one request at a time."""
        with self._lock:
            if self._store is None:
                self._store = open_store(self.config.store_url, read_only=self.read_only)
            if self._source is None and self._source_error is None:
                try:
                    self._source = Source(self.config.source_url, self.tcfg, self.config.batch_size)
                except DedupError as e:
                    self._source_error = str(e)
            yield self._store, self._source, Scorer.of(self.config, self.tcfg, self._store)

    def values(self, source: Source | None, keys: list[str]) -> dict[str, dict[str, str | None]]:
        """key -> column -> text, for the rows the source still has."""
        if source is None or not keys:
            return {}
        try:
            found = source.fetch(keys, tuple(self.columns))
        except (DedupError, ValueError, TypeError):
            return {}
        dc = date_column(self.tcfg)
        return {k: {c: date_text(v.get(c)) or None if c == dc else value_to_text(v.get(c)) for c in self.columns}
                for k, v in found.items()}

    def cached(self, name: str, stamp, make):
        """``make()`` once per ``stamp`` (the table's last run and decision count): pages read the
        same summaries until something changes."""
        hit = self._cache.get(name)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = make()
        self._cache[name] = (stamp, value)
        return value

    def stamp(self, store: Store):
        runs = store.runs(self.table, 1)
        return (runs[0].id if runs else None, runs[0].status if runs else None, len(store.decisions(self.table)))

    def close(self) -> None:
        with self._lock:
            if self._source is not None:
                self._source.close()
            if self._store is not None:
                self._store.close()
            self._store = self._source = None

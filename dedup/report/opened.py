"""A table's results opened for reading as a person checks them: its store, its source (for the
display columns) and the Scorer that scores its links as the runs did (dedup.runs.explain).

Report, explain, review and the decisions CSV all read through this one opening, so each closes
what it opened whatever happens."""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Iterator

from ..config.model import Config, TableConfig
from ..errors import ConfigError
from ..store import Store


@dataclass(frozen=True)
class Opened:
    """What ``opened`` yields; ``source`` None without the source, ``scorer`` None when nothing is
    stored under the table's current settings."""

    config: Config
    table: TableConfig
    store: Store
    source: Any
    scorer: Any

    def stored_scorer(self):
        """The scorer, or the one-line refusal when there is nothing to score from."""
        if self.scorer is None:
            raise ConfigError(f"nothing stored for {self.table.name!r} under these settings: run `dedup full` first")
        return self.scorer


@contextmanager
def opened(config: Config, table: str | None, *, with_source: bool = True, read_only: bool = False) -> Iterator[Opened]:
    """The store (read-only when asked), the source (unless ``with_source`` is false) and the scorer
    of ``table``, closed on leaving the block."""
    from ..db.source import Source
    from ..runs.explain import Scorer
    from ..store import open_store

    tcfg = config.table(table)
    store = open_store(config.store_url, read_only=read_only)
    try:
        with Source(config.source_url, tcfg, config.batch_size) if with_source else nullcontext() as source:
            yield Opened(config, tcfg, store, source, Scorer.of(config, tcfg, store))
    finally:
        store.close()

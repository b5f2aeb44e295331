"""The store interface: the few operations the pipeline needs, whatever holds the fingerprints.

Stores are chosen by URL (``open_store``); the algorithm never imports a database driver.
An operation a store does not support raises; nothing passes silently.
"""

from __future__ import annotations

from typing import Protocol

from ..groups import Group
from .model import RunRecord, Skipped, TableSnapshot, TableState


class Store(Protocol):
    def replace_table(self, snapshot: TableSnapshot) -> None:
        """Atomically replace everything stored for ``snapshot.table`` (a full run's result)."""

    def record_failed_run(self, run: RunRecord) -> None:
        """Keep a failed run in the history; its results are not written."""

    def fingerprints(self, table: str) -> dict[str, int]:
        """Row key -> unsigned fingerprint."""

    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        """Block name -> [(fingerprint, row key)] for the named blocks that exist."""

    def groups(self, table: str) -> list[Group]:
        """The table's groups with members (lowest key first), distances and pairs."""

    def skipped(self, table: str) -> list[Skipped]:
        ...

    def state(self, table: str) -> TableState | None:
        """Version stamp and watermark of the table's last run, None if never run."""

    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        """Most recent runs first."""

    def close(self) -> None:
        ...

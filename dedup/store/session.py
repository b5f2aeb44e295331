"""The writes of one run on one table: ``with store.session(table, run) as s:``.

Entering records the run as running (unless it already has an id); ``s.finish(summary)`` records
it ok; an error (Ctrl-C and SIGTERM included) that leaves the block unfinished records it failed
with the error's text, then goes on as it was.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..errors import DedupError
from ..index.decisions import Decision
from .model import RunRecord

if TYPE_CHECKING:
    from .protocol import Store

log = logging.getLogger(__name__)


class StoreSession:
    def __init__(self, store: Store, table: str, run: RunRecord):
        self.store, self.table, self.run = store, table, run
        self.run_id = -1  # the run's id, once recorded
        self.finished = False

    def __enter__(self) -> StoreSession:
        self.run_id = self.store.start_run(self.run) if self.run.id is None else self.run.id
        return self

    def __exit__(self, kind, error, _tb) -> None:
        if error is not None and not self.finished:
            self._record_failed(error)

    def decisions(self, keys: list[str] | None = None, pending: bool = False) -> list[Decision]:
        return self.store.decisions(self.table, keys, pending)

    def mark_applied(self, pairs: list[tuple[str, str]]) -> None:
        self.store.mark_decisions_applied(self.table, pairs, self.run_id)

    def finish(self, summary: dict, status: str = "ok") -> None:
        self.store.finish_run(self.run_id, status, summary)
        self.finished = True

    def _record_failed(self, error: BaseException) -> None:
        """Best effort: a store that is gone leaves the run 'running' (status shows it stale)."""
        why = str(error) if isinstance(error, Exception) else f"interrupted ({type(error).__name__})"
        try:
            self.store.finish_run(self.run_id, "failed", {"error": why})
        except DedupError:
            log.debug("could not record the failed run", exc_info=True)

"""A run of a table: source and store opened, the table's lock held, the run recorded.

Two runs never work on one table at once: the lock is a lease the run renews while it lives
(dedup.runs.lease), taken over when it expires, or at once when its owner provably ran in this
boot and pid namespace and its process is gone.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Iterator

from ..clock import now
from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import DedupError, LockedError
from ..store import RunRecord, Store, open_store
from . import lease
from .lease import Lease, is_dead_local_run, new_owner

log = logging.getLogger(__name__)


@contextmanager
def table_run(config: Config, table: TableConfig, kind: str) -> Iterator[tuple[Source, Store, RunRecord]]:
    """Open source and store, hold the table's lock, and record the run (failed if an error escapes)."""
    with Source(config.source_url, table, config.batch_size) as source:
        store = open_store(config.store_url, bucket_size=config.bucket_size)
        owner = new_owner()
        try:
            _take_lock(store, table.name, owner)
            log.debug("%s: lock taken by %s", table.name, owner)
            try:
                with Lease(store, table.name, owner):  # renewed until the run has been recorded
                    run = RunRecord(table.name, kind, now())
                    store.start_run(run)
                    try:
                        yield source, store, run
                    except BaseException as e:  # recorded (Ctrl-C and SIGTERM too), then raised as it was
                        _finish_failed(store, run, e)
                        raise
            finally:
                store.release_lock(table.name, owner)
        finally:
            store.close()


def _take_lock(store: Store, table: str, owner: str) -> None:
    """The table's lock; one left by a run of this boot and pid namespace whose process is gone is
    taken over at once, any other when its lease has expired (the store's acquire_lock)."""
    try:
        store.acquire_lock(table, owner, lease.LEASE_SECONDS)
    except LockedError as e:
        if not is_dead_local_run(e.owner):
            raise
        log.warning("taking over the lock of %s, a run on this machine that is no longer running", e.owner)
        store.acquire_lock(table, owner, lease.LEASE_SECONDS, steal_from=e.owner)


def _finish_failed(store: Store, run: RunRecord, error: BaseException) -> None:
    why = str(error) if isinstance(error, Exception) else f"interrupted ({type(error).__name__})"
    try:
        store.finish_run(run.id, "failed", {"error": why})
    except DedupError:
        log.debug("could not record the failed run", exc_info=True)


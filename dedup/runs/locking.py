"""A run of a table: source and store opened, the table's lock held, the run recorded.

Two runs never work on one table at once; a lock left by a killed run on this machine is taken
over when its process is gone, and any lock expires after LOCK_TTL_SECONDS.
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
import socket
import uuid
from contextlib import contextmanager
from typing import Iterator

from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import DedupError, LockedError
from ..store import RunRecord, Store, open_store

log = logging.getLogger(__name__)
LOCK_TTL_SECONDS = 6 * 3600  # a lock left by a killed run is taken over after this


@contextmanager
def table_run(config: Config, table: TableConfig, kind: str) -> Iterator[tuple[Source, Store, RunRecord]]:
    """Open source and store, hold the table's lock, and record the run (failed if an error escapes)."""
    with Source(config.source_url, table, config.batch_size) as source:
        store = open_store(config.store_url, bucket_size=config.bucket_size)
        owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        try:
            _take_lock(store, table.name, owner)
            log.debug("%s: lock taken by %s", table.name, owner)
            try:
                run = RunRecord(table.name, kind, utcnow())
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
    """The table's lock; one left by a run on this machine whose process is gone is taken over."""
    try:
        store.acquire_lock(table, owner, LOCK_TTL_SECONDS)
    except LockedError as e:
        if not _is_dead_local_run(e.owner):
            raise
        log.warning("taking over the lock of %s, a run on this machine that is no longer running", e.owner)
        store.acquire_lock(table, owner, LOCK_TTL_SECONDS, steal_from=e.owner)


def _is_dead_local_run(owner: str | None) -> bool:
    host, _, rest = (owner or "").partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, owned by someone else
        return False
    return False


def _finish_failed(store: Store, run: RunRecord, error: BaseException) -> None:
    why = str(error) if isinstance(error, Exception) else f"interrupted ({type(error).__name__})"
    try:
        store.finish_run(run.id, "failed", {"error": why})
    except DedupError:
        log.debug("could not record the failed run", exc_info=True)


def utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)

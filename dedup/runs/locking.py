"""A run of a table: source and store opened, the table's lock held, the run recorded.

Two runs never work on one table at once: the lock is a lease the run renews while it lives
(dedup.runs.lease), taken over when it expires, or at once when its owner provably ran in this
boot and pid namespace and its process is gone.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager as ContextManager
from contextlib import contextmanager, nullcontext
from typing import Callable, Iterator

from ..clock import now
from ..config.model import Config, TableConfig
from ..db.source import Source
from ..errors import LockedError
from ..store import RunRecord, Store, open_store
from . import lease
from .lease import Lease, is_dead_local_run, new_owner

log = logging.getLogger(__name__)


@contextmanager
def table_run(config: Config, table: TableConfig, kind: str, *, source: Source | None = None,
              store: Store | None = None) -> Iterator[tuple[Source, Store, RunRecord]]:
    """Open source and store, hold the table's lock, and record the run (failed if an error escapes).

    ``source``, ``store``: objects the caller opened (and closes), used instead of the config's URLs."""
    with _opened(source, lambda: Source(config.source_url, table, config.batch_size)) as source, \
            _opened(store, lambda: open_store(config.store_url, bucket_size=config.bucket_size)) as store:
        owner = new_owner()
        _take_lock(store, table.name, owner)
        log.debug("%s: lock taken by %s", table.name, owner)
        try:
            with Lease(store, table.name, owner), \
                    store.session(table.name, RunRecord(table.name, kind, now())) as session:
                # the lease is renewed until the run has been recorded; the session records it failed
                # if an error escapes (Ctrl-C and SIGTERM too), then it is raised as it was
                yield source, store, session.run
        finally:
            store.release_lock(table.name, owner)


def _opened(given, open_new: Callable[[], ContextManager]) -> ContextManager:
    """A caller's object as it is (the caller closes it), else a new one, closed after."""
    return nullcontext(given) if given is not None else open_new()


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



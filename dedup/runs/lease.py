"""Who holds a table's lock, and proof that the holder still runs: a lease it keeps renewing.

A pid and a hostname do not prove a run dead: a run in a container on the same host (another
pid namespace) has a pid this machine cannot see, and its lock was taken from it while it worked.
So a run holds the lock for LEASE_SECONDS at a time and a thread renews it every RENEW_SECONDS
while the run lives; a lock is taken over when its lease has expired, or at once only when its
owner provably ran here (same boot, same pid namespace: the owner's ``scope``) and is gone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import threading
import uuid

from ..errors import LockedError

log = logging.getLogger(__name__)
# A run that stops renewing (killed elsewhere, machine gone) frees its table after LEASE_SECONDS. Long
# enough that renewals kept out by a long write (a SQLite store's write transaction holds every
# other writer off: 150 s for a 2M-row full run) and clocks some minutes apart never lose a live
# run's lease; a dead run of this machine's boot and pid namespace is taken over at once anyway.
LEASE_SECONDS = 600
RENEW_SECONDS = 30


def scope() -> str:
    """This boot of this machine and this pid namespace, as 12 hex digits ("" where unknown)."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as fh:
            boot = fh.read().strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""
    return hashlib.sha256(f"{boot} {namespace}".encode()).hexdigest()[:12]


def new_owner(pid: int | None = None) -> str:
    """``host:pid:token:scope``, the name a run holds a lock under."""
    return f"{socket.gethostname()}:{os.getpid() if pid is None else pid}:{uuid.uuid4().hex[:8]}:{scope()}"


def is_dead_local_run(owner: str | None) -> bool:
    """Whether ``owner`` is a run of this boot and pid namespace whose process is gone. Owners
    from elsewhere, or named the older way (``host:pid:token``, no scope), wait for their lease."""
    parts = (owner or "").split(":")
    if len(parts) != 4 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    here = scope()
    if not here or parts[3] != here:
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, owned by someone else
        return False
    return False


class Lease:
    """The lock of ``table`` held by ``owner``, renewed by a thread until ``stop()``. A renewal
    that finds the lock taken (this process was stopped for longer than the lease) is logged and
    kept in ``lost``."""

    def __init__(self, store, table: str, owner: str):
        self.store, self.table, self.owner = store, table, owner
        self.lost: str | None = None
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._renew, name=f"dedup-lease-{table}", daemon=True)

    def __enter__(self) -> "Lease":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(60)

    def _renew(self) -> None:
        while not self._stopped.wait(RENEW_SECONDS):
            try:
                self.store.renew_lock(self.table, self.owner, LEASE_SECONDS)
            except LockedError as e:
                self.lost = e.owner
                log.error("%s: the lock was taken over by %s while this run was not renewing it", self.table, e.owner)
                return
            except Exception:  # noqa: BLE001 - the store busy or away: the next renewal tries again
                log.debug("%s: renewing the lock failed", self.table, exc_info=True)

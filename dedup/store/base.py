"""What the SQL and the MongoDB store share, written once: a store's life (``with``), its
sessions, the checks a write's arguments pass before anything is written, and the bookkeeping of
decisions, skipped rows and group ids. A store supplies the ``_``-named steps that touch its
database; the public operations of the Store protocol (dedup.store.protocol) are here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, cast

import numpy as np

from ..errors import StoreError
from ..index.decisions import Decision
from ..index.keys import key_sort
from .gathered import GatheredRows
from .model import RunRecord, Skipped, TableChanges, TableSnapshot, checked_sketches, checked_terms, unique
from .protocol import ReviewStore, RunLog, Staging, Store, StoreReads, StoreWrites, TableLock
from .session import StoreSession

__all__ = ["StoreBase", "Store", "RunLog", "TableLock", "StoreReads", "ReviewStore", "StoreWrites", "Staging",
           "checked_snapshot", "checked_changes"]


class StoreBase:
    """Mixed in last: a store's own mixins may replace these defaults (the MongoDB lock's renew_lock)."""

    url: str
    whole_blocks = False  # stage_blocks may get a block's entries in many calls

    # -- life ----------------------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError

    def session(self, table: str, run: RunRecord) -> StoreSession:
        """``with store.session(table, run) as s:``: the run recorded, its writes, failed if an error escapes."""
        return StoreSession(cast(Store, self), table, run)

    def concurrent_writer(self) -> Callable[[], Store] | None:
        """None: this store cannot be written by a forked child beside its parent (SqlStore can)."""
        return None

    # -- locks ---------------------------------------------------------------------------------
    def renew_lock(self, table: str, owner: str, ttl_seconds: float) -> None:
        """Taking the lock again extends it, where taking it does nothing else first."""
        self.acquire_lock(table, owner, ttl_seconds)

    # -- reads ---------------------------------------------------------------------------------
    def max_group_id(self, table: str) -> int:
        """The largest of the id recorded with the state and the largest stored group's: ids never
        come back, even after the group with the largest one went."""
        stored, live = self._group_id_tops(table)
        return max(int(stored or 0), int(live or 0))

    def skipped(self, table: str) -> list[Skipped]:
        return sorted(self._skipped_rows(table), key=lambda s: key_sort(s.key))

    # -- decisions -----------------------------------------------------------------------------
    def decisions(self, table: str, keys: list[str] | None = None, pending: bool = False) -> list[Decision]:
        """Oldest first, undated ones last; one per pair (a key list may find a pair twice)."""
        found = {d.pair: d for d in self._read_decisions(table, keys, pending)}
        return sorted(found.values(), key=lambda x: (x.decided_at is None, x.decided_at, x.pair))

    def put_decisions(self, table: str, decisions: list[Decision]) -> None:
        """The last of several decisions on one pair is the one kept."""
        self._put_decisions(table, list({x.pair: x for x in decisions}.values()))

    def mark_decisions_applied(self, table: str, pairs: list[tuple[str, str]], run_id: int) -> None:
        self._mark_applied(table, list(dict.fromkeys(pairs)), int(run_id))

    def delete_decisions(self, table: str, pairs: list[tuple[str, str]]) -> None:
        self._delete_decisions(table, list(dict.fromkeys(pairs)))

    # -- writes: arguments checked before anything is written ------------------------------------
    def replace_table(self, snapshot: TableSnapshot, later: Callable[[], dict] | None = None) -> None:
        sketches = checked_snapshot(snapshot, groups=later is None)
        self._replace_table(snapshot, sketches, later)

    def apply_changes(self, changes: TableChanges) -> None:
        self._apply_changes(changes, checked_changes(changes))

    def stage_rows(self, table: str, run_id: int, keys: list[str], fingerprints, sketches=None,
                   row_watermarks: list[str | None] | None = None, skipped: Sequence[Skipped] = (),
                   again: bool = False) -> None:
        fps = np.asarray(fingerprints, dtype=np.uint64)
        if len(fps) != len(keys):
            raise StoreError(f"table {table!r}: {len(keys)} keys but {len(fps)} fingerprints")
        sketches = checked_sketches(table, len(keys), sketches)
        self._stage_rows(table, run_id, list(keys), fps, sketches, row_watermarks, list(skipped), again)

    def replace_table_staged(self, snapshot: TableSnapshot) -> None:
        if len(snapshot.keys) or len(snapshot.blocks):
            raise StoreError(f"table {snapshot.table!r}: a staged snapshot carries no rows; nothing was written")
        checked_snapshot(snapshot)
        self._replace_table_staged(snapshot)


    # -- the steps each store supplies (its own database's reads and writes) ---------------------
    def acquire_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None = None) -> None:
        raise NotImplementedError

    def _group_id_tops(self, table: str) -> tuple[int | None, int | None]:
        """(the largest group id recorded with the table's state, the largest stored group's)."""
        raise NotImplementedError

    def _skipped_rows(self, table: str) -> list[Skipped]:
        raise NotImplementedError

    def _read_decisions(self, table: str, keys: list[str] | None, pending: bool) -> list[Decision]:
        """In any order; a pair may come twice (found by either key)."""
        raise NotImplementedError

    def _put_decisions(self, table: str, decisions: list[Decision]) -> None:
        """One decision a pair, each replacing a stored one on its pair."""
        raise NotImplementedError

    def _mark_applied(self, table: str, pairs: list[tuple[str, str]], run_id: int) -> None:
        raise NotImplementedError

    def _delete_decisions(self, table: str, pairs: list[tuple[str, str]]) -> None:
        raise NotImplementedError

    def _replace_table(self, snapshot: TableSnapshot, sketches: np.ndarray | GatheredRows | None,
                       later: Callable[[], dict] | None) -> None:
        """``snapshot`` checked; ``sketches`` as checked_sketches returned them."""
        raise NotImplementedError

    def _apply_changes(self, changes: TableChanges, sketches: np.ndarray | GatheredRows | None) -> None:
        raise NotImplementedError

    def _stage_rows(self, table: str, run_id: int, keys: list[str], fingerprints: np.ndarray,
                    sketches: np.ndarray | GatheredRows | None, row_watermarks: list[str | None] | None,
                    skipped: list[Skipped], again: bool) -> None:
        raise NotImplementedError

    def _replace_table_staged(self, snapshot: TableSnapshot) -> None:
        raise NotImplementedError


def checked_snapshot(snap: TableSnapshot, groups: bool = True) -> np.ndarray | GatheredRows | None:
    """A full run's result refused before anything is written (fingerprints not aligned with the
    keys, a key, skipped key or group id given twice, malformed sketches or terms); returns the
    sketches as checked_sketches does. ``groups``: False where they come later (store_writer)."""
    t, n = snap.table, len(snap.keys)
    if n != len(snap.fingerprints):
        raise StoreError(f"table {t!r}: {n} keys but {len(snap.fingerprints)} fingerprints")
    unique(t, "row key", snap.keys)
    unique(t, "skipped row key", [s.key for s in snap.skipped])
    if groups:
        unique(t, "group id", [g.id for g in snap.groups])
    checked_terms(t, snap.terms)
    return checked_sketches(t, n, snap.sketches)


def checked_changes(ch: TableChanges) -> np.ndarray | GatheredRows | None:
    """An incremental run's changes refused before anything is written; returns the added sketches."""
    t = ch.table
    if len(ch.add_keys) != len(ch.add_fingerprints):
        raise StoreError(f"table {t!r}: {len(ch.add_keys)} keys but {len(ch.add_fingerprints)} fingerprints to add")
    unique(t, "added row key", ch.add_keys)
    return checked_sketches(t, len(ch.add_keys), ch.add_sketches)

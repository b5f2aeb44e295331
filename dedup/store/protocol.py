"""The store interface: the operations the pipeline needs, whatever holds the fingerprints.

``Store`` is the whole interface; its parts (RunLog, TableLock, StoreReads, ReviewStore,
StoreWrites, Staging) name what a caller needs when it needs less. dedup.store.base.StoreBase
writes what the two stores share once.

Stores are chosen by URL (``open_store``); the algorithm never imports a database driver.
An operation a store does not support raises; nothing passes silently. Keys are row keys as
strings; fingerprints are unsigned 64-bit Python ints (stores holding signed 64-bit integers
convert with dedup.store.model.to_signed/to_unsigned). Sketch words and term hashes are unsigned
64-bit too, stored the same way.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Callable, Protocol

import numpy as np

from ..index.decisions import Action, Decision, GroupNote
from ..index.groups import Group
from .model import BlockEntries, GroupChange, RunRecord, Skipped, TableChanges, TableSnapshot, TableState


class RunLog(Protocol):
    """The runs of each table, numbered across the store."""

    def start_run(self, run: RunRecord) -> int:
        """Record a run as running; returns its id (increasing across the store)."""

    def finish_run(self, run_id: int, status: str, summary: dict) -> None:
        """Mark a run ok or failed, with its summary."""

    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        """Most recent runs first."""


class TableLock(Protocol):
    """One run per table at a time (dedup.runs.locking)."""

    def acquire_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None = None) -> None:
        """Take the table's lock, or raise LockedError(owner=holder) if another owner holds an unexpired
        one. ``steal_from``: take it also when exactly that owner holds it (a run known to be dead)."""

    def renew_lock(self, table: str, owner: str, ttl_seconds: float) -> None:
        """Extend ``owner``'s lock (dedup.runs.lease), as acquire_lock does, but with nothing else a
        new holder does first (the MongoDB store's replay of a cut-short run's journal, which must
        not run beside the holder's own writes)."""

    def release_lock(self, table: str, owner: str) -> None:
        """Give the lock back (only if ``owner`` holds it)."""

    def lock_holder(self, table: str) -> tuple[str, _dt.datetime] | None:
        """Who holds the table's lock and until when (naive UTC), expired or not; None when no one
        (for `dedup status`: a read, it takes nothing)."""



class StoreReads(Protocol):
    """What runs, reports and the workbench read."""

    def state(self, table: str) -> TableState | None:
        """Version stamp and watermark of the table's last run, None if no run finished."""

    def fingerprints(self, table: str, keys: list[str] | None = None) -> dict[str, int]:
        """Row key -> fingerprint, for all rows or only these keys (missing ones left out)."""

    def row_watermarks(self, table: str, keys: list[str]) -> dict[str, str | None]:
        """Row key -> the watermark text the row was fingerprinted at (None: unknown), for the
        stored ones of ``keys``; looked up in chunks."""

    def keys(self, table: str) -> set[str]:
        """Every row key the table holds: fingerprinted rows and skipped ones."""

    def count_keys(self, table: str) -> int:
        """How many rows the table holds: fingerprinted rows and skipped ones (a cheap count)."""

    def sketches(self, table: str, keys: list[str]) -> dict[str, tuple[int, ...]]:
        """Row key -> the row's sketch words (unsigned ints, as many as it was stored with: rows of
        one table may differ in width), for those of ``keys`` stored with a sketch. Looked up in
        chunks: the cost follows ``len(keys)``, not the size of the table."""

    def term_counts(self, table: str, hashes: Sequence[int] | np.ndarray) -> dict[int, int]:
        """Term hash (unsigned int) -> document count, for those of ``hashes`` the last full run stored.
        Looked up in chunks: the cost follows ``len(hashes)``, not the size of the term set."""

    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        """Block name -> [(fingerprint, row key)] for the named blocks that exist."""

    def groups(self, table: str, ids: list[int] | None = None) -> list[Group]:
        """Groups (all, or these ids) by id, members lowest key first, with distances and pairs."""

    def group_ids_of(self, table: str, keys: list[str]) -> dict[str, int]:
        """Row key -> id of the group it belongs to, for the keys that are in a group."""

    def max_group_id(self, table: str) -> int:
        """The largest group id ever stored for the table (0 if none)."""

    def run_changes(self, table: str, run_id: int) -> list[GroupChange]:
        """What run ``run_id`` did to each group id it changed, by id (none for a run that changed
        nothing, or one recorded before the store kept a run history)."""

    def skipped(self, table: str) -> list[Skipped]:
        """The table's skipped rows, lowest key first."""


class ReviewStore(Protocol):
    """Reviewers' decisions, actions and notes (a full run keeps them)."""

    def decisions(self, table: str, keys: list[str] | None = None, pending: bool = False) -> list[Decision]:
        """The table's decisions, oldest first (those naming one of ``keys``; with ``pending`` only
        those no run has applied to the stored groups yet)."""

    def put_decisions(self, table: str, decisions: list[Decision]) -> None:
        """Record decisions, each replacing an earlier one on the same pair."""

    def mark_decisions_applied(self, table: str, pairs: list[tuple[str, str]], run_id: int) -> None:
        """Say that run ``run_id`` regrouped with these decisions (pairs lower key first)."""

    def delete_decisions(self, table: str, pairs: list[tuple[str, str]]) -> None:
        ...

    def put_action(self, table: str, action: Action) -> None:
        """Record a reviewer's action (its decisions are put apart, carrying its id)."""

    def actions(self, table: str, limit: int = 50, reviewer: str | None = None, undone: bool = True) -> list[Action]:
        """The table's actions, newest first (``reviewer``'s only; without the undone unless ``undone``)."""

    def mark_action_undone(self, table: str, action_id: str, at: _dt.datetime, by: str | None) -> None:
        ...

    def put_group_note(self, table: str, note: GroupNote) -> None:
        ...

    def group_notes(self, table: str, group_id: int | None = None) -> list[GroupNote]:
        """Notes on a group (every group's when None), oldest first."""



class StoreWrites(Protocol):
    """A run's results: a full run's replace everything, an incremental run's are applied."""

    def replace_table(self, snapshot: TableSnapshot, later: Callable[[], dict] | None = None) -> None:
        """Replace everything stored for ``snapshot.table`` with a full run's result, its sketches
        and term counts included (``terms`` None: the table has no term counts afterwards).
        ``later`` (dedup.runs.store_writer): called once the rows are written, it returns the
        snapshot's ``groups`` and ``changes``, still being found while the rows were written."""

    def apply_changes(self, changes: TableChanges) -> None:
        """Apply an incremental run's changes (see TableChanges for the order); term counts stay."""



class Staging(Protocol):
    """A full run whose rows are written by many processes (dedup.runs.spark)."""

    # The executors write the rows (never the driver, which would have to hold them all) into the
    # run's staging area; the driver then swaps the staging in with the groups, history, terms and
    # state in one step. A run that fails before the swap leaves the previous results as they were.

    whole_blocks: bool  # stage_blocks must get every entry of a block in one call (MongoDB's block documents)

    def begin_staging(self, table: str, run_id: int) -> None:
        """Empty the staging of the table's earlier runs that never swapped theirs in (crashed or
        failed) and of this run, and prepare this run's."""

    def stage_rows(self, table: str, run_id: int, keys: list[str], fingerprints, sketches=None,
                   row_watermarks: list[str | None] | None = None, skipped: Sequence[Skipped] = (),
                   again: bool = False) -> None:
        """Stage fingerprint rows (as TableSnapshot has them) and skipped rows of run ``run_id``.
        Callable from any process given the store's URL; ``again``: these rows may have been
        staged before (a retried task), replace them."""

    def stage_blocks(self, table: str, run_id: int, entries: BlockEntries, again: bool = False) -> None:
        """Stage block entries of run ``run_id`` (``again``: as for stage_rows)."""

    def replace_table_staged(self, snapshot: TableSnapshot) -> None:
        """replace_table, with the rows and block entries run ``snapshot.run_id`` staged: the
        snapshot carries no per-row data (its ``skipped`` are added to the staged ones)."""


class Store(RunLog, TableLock, StoreReads, ReviewStore, StoreWrites, Staging, Protocol):
    """The whole interface, and its life: ``with open_store(url) as store:`` closes it."""

    def __enter__(self) -> Store:
        ...

    def __exit__(self, *exc) -> None:
        ...

    def close(self) -> None:
        ...

    def session(self, table: str, run: RunRecord):
        """The writes of one run on one table (dedup.store.session.StoreSession)."""

    def concurrent_writer(self) -> Callable[[], Store] | None:
        """A function opening this store anew in a forked child that writes beside this process
        (dedup.runs.store_writer), or None where that cannot work."""

"""What the pipeline hands a store and gets back: plain data, no database types."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

import numpy as np

from ..groups import Group


@dataclass(frozen=True)
class Skipped:
    """A row that has no fingerprint: ``no_features`` (nothing to hash) or ``unreadable``."""

    key: str
    reason: str
    detail: str = ""


@dataclass
class RunRecord:
    table: str
    kind: str  # "full" or "incremental"
    started_at: _dt.datetime
    finished_at: _dt.datetime | None = None
    status: str = "running"  # running (or crashed), ok, failed
    summary: dict = field(default_factory=dict)
    id: int | None = None


@dataclass
class TableSnapshot:
    """Everything one full run produced for one table; a store replaces the table's contents with it.

    Groups carry created_run/updated_run = run_id.
    """

    table: str
    run_id: int
    keys: list[str]
    fingerprints: np.ndarray  # uint64, aligned with keys
    groups: list[Group]
    skipped: list[Skipped]
    version: dict  # what produced the fingerprints (includes max_distance)
    watermark: dict | None  # {"type", "value", "key"} of the last row read, or None


@dataclass
class TableChanges:
    """One incremental run's changes to a table, applied by a store in this order:

    1. ``remove_keys``: their fingerprints, block entries (looked for in ``remove_block_names``)
       and skipped records go;
    2. ``add_keys``/``add_fingerprints``: fingerprints and block entries are added;
    3. ``skipped`` rows are recorded;
    4. groups in ``delete_groups`` go, groups in ``upsert_groups`` are written whole (members,
       distances, pairs, runs, merged_from) replacing any stored group of the same id;
    5. last, the table's version stamp and watermark.

    Every step is idempotent, so a store without transactions that is interrupted part way is
    repaired by running the same changes again.
    """

    table: str
    run_id: int
    remove_keys: list[str]
    remove_block_names: list[str]
    add_keys: list[str]
    add_fingerprints: np.ndarray
    skipped: list[Skipped]
    delete_groups: list[int]
    upsert_groups: list[Group]
    version: dict
    watermark: dict | None


@dataclass
class TableState:
    table: str
    version: dict
    watermark: dict | None
    updated_at: _dt.datetime | None

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
    status: str = "running"
    summary: dict = field(default_factory=dict)


@dataclass
class TableSnapshot:
    """Everything one full run produced for one table; a store replaces the table's contents with it."""

    table: str
    keys: list[str]
    fingerprints: np.ndarray  # uint64, aligned with keys
    groups: list[Group]
    skipped: list[Skipped]
    version: dict  # what produced the fingerprints
    watermark: dict | None
    run: RunRecord


@dataclass
class TableState:
    table: str
    version: dict
    watermark: dict | None
    updated_at: _dt.datetime | None

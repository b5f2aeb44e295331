"""What a full and an incremental run found, built by keyword; ``summary()`` is their RunSummary
record (dedup.runs.summary), the one the CLI prints and the store keeps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..index.groups import Group
from ..store import Skipped
from ..store.gathered import GatheredRows
from ..text.terms import TermModel
from .summary import FULL, INCREMENTAL, ChangeCounts, RunSummary


@dataclass(kw_only=True)
class FullResult:
    """What a full run found, as it was stored."""

    table: str
    keys: list[str] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))
    # word 0 = fingerprint; a full run's rows gathered from its distinct sketches when read (np.asarray
    # makes the matrix: 0.35 KB a demo row more, the run's highest moment at its end; issue 26)
    sketches: np.ndarray | GatheredRows = field(default_factory=lambda: np.empty((0, 1), np.uint64))
    terms: TermModel | None = None  # the IDF counts used (learned by a full run)
    groups: list[Group] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    rows_read: int = 0
    watermark: dict | None = None
    seconds: float = 0.0
    truncated: int = 0  # text cells cut to source.max_cell_chars
    null_keys: int = 0  # rows not read: their key is NULL
    run_id: int | None = None
    changes: dict = field(default_factory=dict)  # lineage.counts: groups new, grown, merged... since the stored ones
    truncated_rows: list[str] = field(default_factory=list)  # keys of rows with a cell cut (the first 100)
    stages: dict[str, float] = field(default_factory=dict)  # wall-clock seconds per stage (dedup.runs.clock)
    stages_cpu: dict[str, float] = field(default_factory=dict)  # the main process's CPU seconds per stage
    fingerprinted: int | None = None  # rows fingerprinted, when ``keys`` does not hold them (dedup.runs.spark)
    started: str | None = None  # when the run started, ISO 8601 UTC (set as it is recorded)
    sizes: dict | None = None  # the groups' size profile (dedup.runs.sizes)
    warnings: list[str] = field(default_factory=list)  # group sizes that look wrong (dedup.runs.sizes)

    @property
    def rows_in_groups(self) -> int:
        return sum(g.size for g in self.groups)

    def summary(self) -> dict:
        reasons = [s.reason for s in self.skipped]
        return RunSummary(
            kind=FULL, table=self.table, run=self.run_id, rows=self.rows_read,
            fingerprinted=len(self.keys) if self.fingerprinted is None else self.fingerprinted,
            groups=len(self.groups), rows_in_groups=self.rows_in_groups,
            skipped_no_features=reasons.count("no_features"), unreadable=reasons.count("unreadable"),
            duplicate_keys=reasons.count("duplicate_key"), null_keys=self.null_keys, bad_keys=reasons.count("bad_key"),
            truncated=self.truncated, truncated_rows=self.truncated_rows, changes=ChangeCounts(**self.changes),
            seconds=self.seconds, started=self.started, sizes=self.sizes, warnings=self.warnings).as_dict()


@dataclass(kw_only=True)
class GroupUpdate:
    """What folding rows into the stored groups did to them (dedup.runs.changes.plan_changes)."""

    new_groups: list[int] = field(default_factory=list)
    grown_groups: list[int] = field(default_factory=list)  # groups that gained members (they may have lost some too)
    shrunk_groups: list[int] = field(default_factory=list)  # groups that only lost members and live on
    merges: dict[int, list[int]] = field(default_factory=dict)  # surviving id -> ids merged into it
    dissolved: list[int] = field(default_factory=list)  # groups left with fewer than two rows
    split: list[int] = field(default_factory=list)  # groups whose rows now lie in several groups
    rows_leaving: int = 0  # rows that were in a group and are in none now
    rows_joining: int = 0  # rows of this run that are in a group now
    fingerprinted: int = 0
    changed: int = 0  # rows that were already stored and were re-fingerprinted
    deleted: int = 0  # stored rows whose key the source no longer holds, removed by this run
    skipped: int = 0
    unreadable: int = 0
    sizes: dict | None = None  # the groups' size profile after the run (dedup.runs.sizes)
    warnings: list[str] = field(default_factory=list)  # group sizes that look wrong (dedup.runs.sizes)


@dataclass(kw_only=True)
class IncrementalResult(GroupUpdate):
    """What an incremental run (or a regrouping: dedup.runs.decide) did: its GroupUpdate and what
    it read."""

    table: str
    run_id: int | None = None
    rows_read: int = 0
    truncated: int = 0  # text cells cut to source.max_cell_chars
    truncated_rows: list[str] = field(default_factory=list)  # keys of rows with a cell cut (the first 100)
    null_watermark: int = 0  # rows an incremental run never reads: their watermark is NULL
    unchanged: int = 0  # rows read again in the lookback window and left alone (already done)
    lookback_from: str | None = None  # the watermark the lookback window started at (None: no window)
    reconciled: bool = False  # the key column was read to find deleted rows
    unseen_rows: int = 0  # at least this many source rows are not in the store (late beyond the lookback)
    seconds: float = 0.0
    started: str | None = None  # when the run started, ISO 8601 UTC

    def summary(self) -> dict:
        return RunSummary(
            kind=INCREMENTAL, table=self.table, run=self.run_id, rows=self.rows_read, fingerprinted=self.fingerprinted,
            changed=self.changed, changes=ChangeCounts(
                new_groups=len(self.new_groups), grown_groups=len(self.grown_groups), shrunk_groups=len(self.shrunk_groups),
                merged_groups=sum(len(v) for v in self.merges.values()), dissolved_groups=len(self.dissolved),
                split_groups=len(self.split), rows_left_groups=self.rows_leaving),
            rows_joining_groups=self.rows_joining, skipped=self.skipped, unreadable=self.unreadable,
            truncated=self.truncated, truncated_rows=self.truncated_rows, null_watermark=self.null_watermark,
            unchanged=self.unchanged, lookback_from=self.lookback_from, reconciled=self.reconciled, deleted=self.deleted,
            unseen_rows=self.unseen_rows, merges=[{"into": k, "from": v} for k, v in sorted(self.merges.items())],
            seconds=self.seconds, started=self.started, sizes=self.sizes, warnings=self.warnings).as_dict()

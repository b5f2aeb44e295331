"""A run's summary, its keys defined once: what `dedup full --json` and `dedup incremental --json`
print, what the store keeps as the run's record, and what `dedup runs` and `report --run` read back.

Outside tools read these keys (the run JSON of the design reference): a field renamed here is a
contract broken. A full run and an incremental run share most keys; each also has its own (a
field's ``only``), left out of the other's summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

FULL, INCREMENTAL = "full", "incremental"


@dataclass(kw_only=True)
class ChangeCounts:
    """What a run did to the stored groups (dedup.runs.lineage): the columns of `dedup runs`."""

    new_groups: int = 0
    grown_groups: int = 0
    merged_groups: int = 0
    split_groups: int = 0
    shrunk_groups: int = 0
    dissolved_groups: int = 0
    rows_left_groups: int = 0

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


CHANGE_COUNTS = tuple(f.name for f in fields(ChangeCounts))


def _only(kind: str, default=None, factory=None):
    meta = {"only": kind}
    return field(default_factory=factory, metadata=meta) if factory else field(default=default, metadata=meta)


@dataclass(kw_only=True)
class RunSummary:
    """One run's summary; ``as_dict`` is the record (the keys of ``kind``'s runs, in this order)."""

    kind: str  # FULL or INCREMENTAL: which kind's keys the record has
    table: str
    run: int | None
    rows: int  # rows read
    fingerprinted: int
    groups: int = _only(FULL, 0)
    rows_in_groups: int = _only(FULL, 0)
    changed: int = _only(INCREMENTAL, 0)  # stored rows re-fingerprinted
    changes: ChangeCounts = field(default_factory=ChangeCounts)
    rows_joining_groups: int = _only(INCREMENTAL, 0)
    skipped_no_features: int = _only(FULL, 0)
    skipped: int = _only(INCREMENTAL, 0)
    unreadable: int = 0
    duplicate_keys: int = _only(FULL, 0)
    null_keys: int = _only(FULL, 0)
    bad_keys: int = _only(FULL, 0)
    truncated: int = 0
    truncated_rows: list[str] = field(default_factory=list)
    null_watermark: int = _only(INCREMENTAL, 0)
    unchanged: int = _only(INCREMENTAL, 0)
    lookback_from: str | None = _only(INCREMENTAL)
    reconciled: bool = _only(INCREMENTAL, False)
    deleted: int = _only(INCREMENTAL, 0)
    unseen_rows: int = _only(INCREMENTAL, 0)
    merges: list[dict] = _only(INCREMENTAL, factory=list)  # {"into": id, "from": [ids]}
    seconds: float = 0.0
    started: str | None = None  # ISO 8601 UTC
    sizes: dict | None = None  # dedup.runs.sizes
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        out: dict = {}
        for f in fields(self):
            if f.name == "kind" or f.metadata.get("only", self.kind) != self.kind:
                continue
            value = getattr(self, f.name)
            if f.name == "changes":
                out.update(value.as_dict())
            else:
                out[f.name] = round(value, 3) if f.name == "seconds" else value
        return out

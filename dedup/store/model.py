"""What the pipeline hands a store and gets back: plain data, no database types."""

from __future__ import annotations

import datetime as _dt
import struct
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ..errors import StoreError
from ..index.groups import Group
from .gathered import GatheredRows

if TYPE_CHECKING:
    from .entries import PackedEntries

BLOB_ROWS = 4096  # rows whose sketch words sketch_blobs turns into bytes at a time
WORD_BYTES = 8  # a sketch word is stored as 8 little-endian bytes (SQL ``signature``, MongoDB ``sig``)


@dataclass(frozen=True)
class Skipped:
    """A row that has no fingerprint: ``no_features`` (nothing to hash), ``unreadable`` (a value could
    not be read or converted), ``duplicate_key`` (rows sharing a key) or ``null_key`` (rows whose key
    is NULL, recorded once under the key ``(NULL)``)."""

    key: str
    reason: str
    detail: str = ""
    watermark: str | None = field(default=None, compare=False)  # the row's watermark text, when it was read


@dataclass
class RunRecord:
    table: str
    kind: str  # "full" or "incremental"
    started_at: _dt.datetime
    finished_at: _dt.datetime | None = None
    status: str = "running"  # running (or crashed), ok, failed
    summary: dict = field(default_factory=dict)
    id: int | None = None


CHANGE_KINDS = ("new", "grown", "merged", "split", "shrunk", "gone")


@dataclass
class GroupChange:
    """What one run did to one group id (dedup.runs.lineage works it out; stores keep it as given).

    ``kinds`` (in CHANGE_KINDS order): ``new`` (the id is fresh; ``split_from`` names the group it
    was split off, if any), ``grown`` (gained rows), ``merged`` (absorbed the groups
    ``merged_from``), ``split`` (its rows now lie in several groups, the others ``split_into``),
    ``shrunk`` (only lost rows), ``gone`` (the id no longer exists: merged into ``merged_into``,
    or left with fewer than two rows). ``added``: rows that were in no group before the run;
    ``removed``: rows that were in the group before and are not now (a gone group: all it had).
    """

    group: int
    kinds: list[str]
    size: int = 0  # rows after the run (0: gone)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    merged_from: list[int] = field(default_factory=list)
    merged_into: int | None = None
    split_into: list[int] = field(default_factory=list)
    split_from: int | None = None

    def detail(self) -> dict:
        """The fields besides group and kinds, JSON-shaped (how stores keep them)."""
        return {"size": self.size, "added": self.added, "removed": self.removed, "merged_from": self.merged_from,
                "merged_into": self.merged_into, "split_into": self.split_into, "split_from": self.split_from}

    @classmethod
    def of(cls, group: int, kinds: list[str], detail: dict) -> "GroupChange":
        return cls(int(group), list(kinds), int(detail.get("size") or 0), list(detail.get("added") or []),
                   list(detail.get("removed") or []), [int(i) for i in detail.get("merged_from") or []],
                   detail.get("merged_into"), [int(i) for i in detail.get("split_into") or []],
                   detail.get("split_from"))


@dataclass
class TermCounts:
    """Document counts of terms (by their 64-bit hash) learned by a full run, for IDF weights.
    A full run replaces a table's term counts; incremental runs only read them."""

    hashes: np.ndarray  # uint64, distinct
    counts: np.ndarray  # int64, aligned, each >= 1


@dataclass
class BlockEntries:
    """Block entries, one per (block, row): entry i files row ``keys[i]``, whose fingerprint is
    ``fingerprints[i]``, under the block named ``names[i]``. The pipeline names the blocks; a store
    keeps what it is given and never works a name out itself."""

    names: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))  # uint64, aligned

    def __post_init__(self) -> None:
        self.fingerprints = np.asarray(self.fingerprints, dtype=np.uint64).reshape(-1)
        if not len(self.names) == len(self.keys) == len(self.fingerprints):
            raise StoreError(f"block entries: {len(self.names)} names, {len(self.keys)} keys and "
                             f"{len(self.fingerprints)} fingerprints; nothing was written")

    @classmethod
    def of_rows(cls, keys: list[str], fps, names: list[list[str]]) -> "BlockEntries":
        """The entries of rows given with their block names: row i, ``keys[i]`` with fingerprint
        ``fps[i]``, is filed under each of ``names[i]``."""
        fps = np.asarray(fps, dtype=np.uint64).reshape(-1)
        counts = [len(n) for n in names]
        return cls([n for row in names for n in row], [k for k, c in zip(keys, counts) for _ in range(c)],
                   np.repeat(fps, counts))

    def __len__(self) -> int:
        return len(self.names)

    def by_name(self) -> dict[str, list[tuple[str, int]]]:
        """Block name -> [(row key, fingerprint as the signed 64-bit int with the same bits)]."""
        out: dict[str, list[tuple[str, int]]] = {}
        for name, key, fp in zip(self.names, self.keys, self.fingerprints.view(np.int64).tolist()):
            out.setdefault(name, []).append((key, fp))
        return out


@dataclass
class TableSnapshot:
    """Everything one full run produced for one table; a store replaces the table's contents with it.

    Groups carry their ids, created_run and updated_run as dedup.runs.lineage matched them to the
    groups stored before; ``changes`` is what the run did to each group id (the run history, which
    a full run adds to and never replaces).
    """

    table: str
    run_id: int
    keys: list[str]
    fingerprints: np.ndarray  # uint64, aligned with keys
    groups: list[Group]
    skipped: list[Skipped]
    version: dict  # what produced the fingerprints (includes max_distance)
    watermark: dict | None  # {"type", "value", "key"} of the last row read, or None
    sketches: np.ndarray | GatheredRows | None = None  # (len(keys), W) uint64: the sketch words after the fingerprint, any width
    terms: TermCounts | None = None
    blocks: BlockEntries | PackedEntries = field(default_factory=BlockEntries)  # every row's block entries
    changes: list[GroupChange] = field(default_factory=list)
    row_watermarks: list[str | None] | None = None  # aligned with keys: each row's watermark text (None: none)


@dataclass
class TableChanges:
    """One incremental run's changes to a table, applied by a store in this order:

    1. ``remove_keys``: their fingerprints (sketches with them) and skipped records go, and so do
       the block entries ``remove_blocks`` (the old entries of those rows) and ``add_blocks``
       (so that a repeat never doubles them);
    2. ``add_keys``/``add_fingerprints`` (with ``add_sketches``, if any): fingerprints and sketches
       are added, and the entries of ``add_blocks``;
    3. ``skipped`` rows are recorded;
    4. groups in ``delete_groups`` go, groups in ``upsert_groups`` are written whole (members,
       distances, pairs, runs, merged_from) replacing any stored group of the same id;
    5. ``changes`` are recorded as the run's history (replacing any of the same run and group);
    6. last, the table's version stamp and watermark (a store without transactions writes the
       rows' watermarks ``add_row_watermarks`` just before it, so a row whose run was cut short
       never looks already done to the next run's lookback; the MongoDB store writes the added
       and skipped rows' documents of steps 2 and 3 there, whole, with their watermarks).

    Term counts are left as they are: only a full run (TableSnapshot) changes them.

    Every step is idempotent, so a store without transactions that is interrupted part way is
    repaired by running the same changes again (the MongoDB store keeps them in a journal until
    all are applied, and the next run to take the table's lock applies them again:
    dedup.store.mongo_journal).
    """

    table: str
    run_id: int
    remove_keys: list[str]
    remove_blocks: BlockEntries
    add_keys: list[str]
    add_fingerprints: np.ndarray
    skipped: list[Skipped]
    delete_groups: list[int]
    upsert_groups: list[Group]
    version: dict
    watermark: dict | None
    add_sketches: np.ndarray | None = None  # (len(add_keys), W) uint64: the sketch words after the fingerprint, any width
    add_blocks: BlockEntries = field(default_factory=BlockEntries)
    changes: list[GroupChange] = field(default_factory=list)
    add_row_watermarks: list[str | None] | None = None  # aligned with add_keys (see TableSnapshot)


@dataclass
class TableState:
    table: str
    version: dict
    watermark: dict | None
    updated_at: _dt.datetime | None


STAGING = "~staging:"  # the table name a run's staged rows are kept under starts so (dedup.runs.spark)


def iso_utc(at: _dt.datetime | None) -> str | None:
    """An instant as ISO 8601 UTC to the second (``2026-11-26T02:30:00Z``), for the run lines and JSON a
    DBA reads; stores keep naive datetimes that are UTC."""
    return None if at is None else naive_utc(at).replace(microsecond=0).isoformat() + "Z"


def naive_utc(at: _dt.datetime) -> _dt.datetime:
    """An instant as the naive UTC datetime stores keep (an aware one converted, a naive one as it is)."""
    return at.astimezone(_dt.timezone.utc).replace(tzinfo=None) if at.tzinfo is not None else at


def staging_name(table: str, run_id: int) -> str:
    """The name under which a full run's rows are staged (written by many processes) until the
    run replaces the table's results with them in one step: scoped by the run, so the rows of a
    crashed run are never taken for the next run's."""
    return f"{STAGING}{int(run_id)}:{table}"


def unique(table: str, what: str, items) -> None:
    """A StoreError naming the first item given twice."""
    seen: set = set()
    for item in items:
        if item in seen:
            raise StoreError(f"table {table!r}: {what} {item!r} given twice; nothing was written")
        seen.add(item)


def checked_sketches(table: str, n_rows: int, sketches) -> np.ndarray | GatheredRows | None:
    """``sketches`` as a (n_rows, W) uint64 array of any width W, None for none (None, W = 0 or no
    rows: nothing to store); a StoreError if it is not one row of words per row."""
    if sketches is None:
        return None
    arr = sketches if isinstance(sketches, GatheredRows) else np.asarray(sketches)  # GatheredRows: read a slice at a time
    if arr.size == 0 and n_rows == 0:
        return None
    if arr.ndim != 2 or arr.shape[0] != n_rows:
        raise StoreError(f"table {table!r}: sketches of shape {arr.shape} for {n_rows} rows "
                         f"(expected ({n_rows}, words)); nothing was written")
    if arr.shape[1] == 0:
        return None
    return arr if arr.dtype == np.uint64 else np.asarray(arr).astype(np.uint64)


def sketch_blobs(sketches: np.ndarray | GatheredRows | None, n_rows: int) -> Iterator[bytes | None]:
    """Each row's sketch words as little-endian uint64 bytes (one ``tobytes`` for BLOB_ROWS rows at
    a time: all at once held the table's sketches twice more while they were written), or None
    per row for no sketches; ``sketches`` as checked_sketches returns it."""
    if sketches is None:
        yield from repeat(None, n_rows)
        return
    width = sketches.shape[1] * WORD_BYTES
    for lo in range(0, len(sketches), BLOB_ROWS):
        blob = np.ascontiguousarray(sketches[lo:lo + BLOB_ROWS], dtype="<u8").tobytes()
        yield from (blob[start:start + width] for start in range(0, len(blob), width))


def blob_words(blob: bytes) -> tuple[int, ...]:
    """The unsigned sketch words of a blob sketch_blobs made."""
    if len(blob) % WORD_BYTES:
        raise StoreError(f"a stored sketch of {len(blob)} bytes is not whole 64-bit words")
    return struct.unpack(f"<{len(blob) // WORD_BYTES}Q", blob)


def checked_terms(table: str, terms: TermCounts | None) -> tuple[np.ndarray, np.ndarray]:
    """(hashes uint64, counts int64) of ``terms`` (empty for None); a StoreError if they are not
    aligned, a hash is given twice or a count is out of 1..2**31-1."""
    if terms is None:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    hashes = np.asarray(terms.hashes)
    hashes = hashes.astype(np.uint64) if hashes.dtype != np.uint64 else hashes
    counts = np.asarray(terms.counts).astype(np.int64)
    if hashes.ndim != 1 or counts.shape != hashes.shape:
        raise StoreError(f"table {table!r}: {hashes.shape} term hashes but {counts.shape} counts; nothing was written")
    if len(np.unique(hashes)) != len(hashes):
        raise StoreError(f"table {table!r}: a term hash is given twice; nothing was written")
    if len(counts) and (counts.min() < 1 or counts.max() > (1 << 31) - 1):
        raise StoreError(f"table {table!r}: term document counts must be 1 to 2**31-1; nothing was written")
    return hashes, counts


def signed_hashes(hashes) -> list[int]:
    """Distinct unsigned 64-bit hashes (a sequence of ints or an array) as signed ints with the same bits."""
    if isinstance(hashes, np.ndarray):
        arr = hashes.astype(np.uint64) if hashes.dtype != np.uint64 else hashes
        values = arr.ravel().view(np.int64).tolist()
    else:
        values = [v - (1 << 64) if v >= 1 << 63 else v for v in map(int, hashes)]
    return list(dict.fromkeys(values))


def to_signed(value: int) -> int:
    """The signed 64-bit integer with the same bits (BSON and SQL BIGINT have no unsigned type)."""
    value = int(value)
    return value - (1 << 64) if value >= 1 << 63 else value


def to_unsigned(value: int) -> int:
    value = int(value)
    return value + (1 << 64) if value < 0 else value

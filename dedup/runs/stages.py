"""The stage every run shares before the recipe takes over: read and featurise rows.

``read_rows`` streams the source and featurises in worker processes. Rows a key cannot name are
set aside while reading: every row of a key that more than one row has (``duplicate_key``: which of them would the key report, and which
would a later change replace?) and the rows whose key is NULL (``null_key``, one record under the
key ``(NULL)``). A full run, an incremental run and `dedup eval` all call it and then
the recipe's ``sketch``, ``pairs`` and ``groups``, so none of them can drift from the others.
"""

from __future__ import annotations

import hashlib
import logging
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..db.source import Source
from ..db.watermark import row_watermark_text
from ..index.fingerprint import HashedFeatures
from ..store import Skipped
from .parallel import Featurizing
from .recipe import Recipe
from .spill import FeatureSpill

log = logging.getLogger(__name__)
Progress = Callable[[int], None]  # called with the number of rows just read
NULL_KEY = "(NULL)"  # the key under which the rows whose key is NULL are reported
TRUNCATED_LISTED = 100  # a run's summary lists at most this many keys of rows with a cell cut
MAX_KEY_CHARS = 255  # the longest key a store keeps (the SQL store's key columns are VARCHAR(255))


def key_problem(key: str) -> str | None:
    """Why a store cannot keep this key, or None."""
    if len(key) > MAX_KEY_CHARS:
        return f"the key has {len(key):,} characters; a store keeps keys of at most {MAX_KEY_CHARS}"
    if "\x00" in key:
        return "the key contains a NUL character, which a store cannot keep"
    return None


def recorded_key(key: str) -> str:
    """The key under which a row with a key_problem is reported: NULs escaped, cut to fit, and a
    hash of the whole key, so two such keys never share a record."""
    if key_problem(key) is None:
        return key
    digest = hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    text = key.replace("\x00", "\\x00")
    return (text if len(text) <= MAX_KEY_CHARS - 14 else text[:MAX_KEY_CHARS - 15] + "…") + "#" + digest


@dataclass(kw_only=True)
class Rows:
    """What one read gave: the rows with features (``keys``, ``features``), the rows set aside, how
    many rows were read, and where the read ended in (watermark, key) order (None: no watermark)."""

    keys: list[str]
    features: HashedFeatures
    skipped: list[Skipped]
    rows_read: int
    watermark: dict | None
    truncated: int = 0  # text cells cut to source.max_cell_chars
    null_watermark: int = 0  # by watermark: rows never read because their watermark is NULL
    null_keys: int = 0  # rows never read because their key is NULL
    row_watermarks: dict[str, str | None] = field(default_factory=dict)  # key -> its watermark text (rows with features)
    unchanged: int = 0  # rows read again (lookback) and left alone: their watermark is the one they were fingerprinted at
    truncated_rows: list[str] = field(default_factory=list)  # keys of the rows with a cell cut (the first TRUNCATED_LISTED)


Select = Callable[[list[tuple[str, dict]]], list[tuple[str, dict]]]  # the rows of a batch to process


class KeyCheck:
    """The keys met in one read; a key text met twice (the SQLite values 1 and '1' of one key
    column too) is a duplicate."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}  # key text -> type of the first value read with it
        self.repeats: dict[str, list[str]] = {}  # duplicate key text -> the types of all its values
        self.counts: dict[str, int] = {}  # duplicate key text -> rows in the table (when asked)

    def see(self, key: str, value: object = None) -> None:
        kind = type(value).__name__ if value is not None else ""
        if key in self.first:
            self.repeats.setdefault(key, [self.first[key]]).append(kind)
        else:
            self.first[key] = kind

    def table_counts(self, counts: dict[str, int]) -> None:
        """How many rows of the whole table have these keys (an incremental run reads only some)."""
        for key, n in counts.items():
            if n > 1:
                self.counts[key] = n
                self.repeats.setdefault(key, [])

    def duplicates(self) -> dict[str, str]:
        """Duplicate key -> the detail reported with it."""
        out = {}
        for key, kinds in self.repeats.items():
            n = max(len(kinds), self.counts.get(key, 0))
            types = sorted({k for k in kinds if k})
            alike = f" (values of types {', '.join(types)} that read alike)" if len(types) > 1 else ""
            out[key] = f"{n} rows have this key{alike}: none of them is fingerprinted"
        return out


def read_rows(source: Source, recipe: Recipe, progress: Progress | None = None, since: dict | None = None,
              by_watermark: bool = False, workers: int = 1, select: Select | None = None,
              null_since: dict | None = None, spill: FeatureSpill | None = None,
              featurizing: Featurizing | None = None) -> Rows:
    """Read rows (every row, or with ``by_watermark`` those past ``since``) and featurise them in
    ``workers`` processes; rows without features, unreadable ones and those their key cannot name
    (it repeats, or is NULL) or a store cannot keep (``bad_key``: too long, or holding a NUL) are
    set aside. ``select``: of each batch, only the rows it returns are processed (the others count
    as ``unchanged``). ``null_since``: count the rows whose key is NULL past this position instead
    of ``since`` (an incremental run: past the stored watermark, not from the start of its lookback
    window). ``spill``: the features go there, batch by batch, and ``Rows.features`` is empty.
    ``featurizing``: the caller's workers (it closes them: they sketch after the read), else ours."""
    read = _Read(source, progress, select, spill)
    with nullcontext(featurizing) if featurizing is not None else Featurizing(recipe.featurizer, workers) as featurizing:
        for batch in source.batches(since=since, by_watermark=by_watermark):
            read.advance(batch, by_watermark)
            bad = read.bad_keys(batch)
            if select is not None:
                read.reselect(batch)
            read.note(batch, by_watermark)
            read.take(featurizing.submit(batch.rows, len(batch.rows) + len(batch.unreadable) + bad))
        read.take(featurizing.drain())
    return read.finish(since, null_since, by_watermark)


class _Read:
    """One read_rows in progress: the rows featurised and set aside so far, and where it is."""

    def __init__(self, source: Source, progress: Progress | None, select: Select | None,
                 spill: FeatureSpill | None = None):
        self.source, self.progress, self.select, self.spill = source, progress, select, spill
        self.wm_col, self.key_col = source.config.watermark, source.config.key
        self.keys: list[str] = []
        self.skipped: list[Skipped] = []
        self.parts: list[HashedFeatures] = []
        self.truncated: list[tuple[str, str, int]] = []
        self.seen = KeyCheck()
        self.read = self.unchanged = 0
        self.last: tuple | None = None
        self.row_wms: dict[str, str | None] = {}

    def take(self, outputs) -> None:
        """Keep what the featurising workers sent back."""
        wms = self.row_wms
        for (batch_keys, feats, batch_skipped), n in outputs:
            self.keys.extend(batch_keys)
            if wms:  # keyed by these key objects: the read's own copies freed, not held beside them (54 bytes a row)
                for k in batch_keys:
                    wms[k] = wms.pop(k)
            if self.spill is not None:
                self.spill.add(feats)
            else:
                self.parts.append(feats)
            self.skipped.extend(batch_skipped)
            self.read += n
            if self.progress is not None:
                self.progress(n)

    def advance(self, batch, by_watermark: bool) -> None:
        """The furthest position read: in (watermark, key) order, the furthest that reads back."""
        if by_watermark:
            self.last = self.source.watermark.further(self.last, batch.readable)
        elif self.wm_col is not None:
            self.last = self.source.watermark.furthest(self.last, batch.rows)

    def bad_keys(self, batch) -> int:
        """Set aside the batch's rows whose key a store cannot keep; how many there were."""
        bad = [(key, row, why) for key, row in batch.rows if (why := key_problem(key))]
        if not bad:
            return 0
        batch.rows = [(key, row) for key, row in batch.rows if key_problem(key) is None]
        if self.select is not None:  # as in reselect, by the key the row is recorded under
            redo = {k for k, _r in self.select([(recorded_key(k), r) for k, r, _w in bad])}
            self.unchanged += len(bad) - len(redo)
            bad = [b for b in bad if recorded_key(b[0]) in redo]
        wm_col = self.wm_col
        self.skipped.extend(Skipped(key, "bad_key", why, row_watermark_text(row.get(wm_col)) if wm_col else None)
                            for key, row, why in bad)
        return len(bad)

    def reselect(self, batch) -> None:
        """Leave alone the rows read again and unchanged (unreadable ones too)."""
        before = len(batch.rows) + len(batch.unreadable)
        batch.rows = self.select(batch.rows)
        redo = {k for k, _r in self.select([(k, {self.wm_col: batch.unreadable_at.get(k)}) for k, _w in batch.unreadable])}
        batch.unreadable = [(k, why) for k, why in batch.unreadable if k in redo]
        left = before - len(batch.rows) - len(batch.unreadable)
        self.unchanged += left
        processed = {k for k, _r in batch.rows}
        batch.truncated = [t for t in batch.truncated if t[0] in processed]  # cut again, already said
        if self.progress is not None and left:
            self.progress(left)

    def note(self, batch, by_watermark: bool) -> None:
        """The batch's keys (for duplicates), row watermarks, cut cells and unreadable rows."""
        for key, row in batch.rows:
            self.seen.see(key, row[self.key_col])
            if self.wm_col is not None:
                self.row_wms[key] = row_watermark_text(row.get(self.wm_col))
        for key, _why in batch.unreadable:
            self.seen.see(key)
        if by_watermark and not self.source.unique_key and batch.rows:
            self.seen.table_counts(self.source.key_counts([row for _key, row in batch.rows]))
        self.truncated.extend(batch.truncated)
        self.skipped.extend(Skipped(k, "unreadable", why, row_watermark_text(batch.unreadable_at.get(k)))
                            for k, why in batch.unreadable)

    def finish(self, since: dict | None, null_since: dict | None, by_watermark: bool) -> Rows:
        """The Rows: the keys no single row has set aside, each skipped row recorded once."""
        source = self.source
        keys, features, skipped = self.keys, HashedFeatures.concat(self.parts), self.skipped
        self.parts, keep = [], None
        set_aside = [Skipped(k, "duplicate_key", why) for k, why in self.seen.duplicates().items()]
        nulls = source.null_key_rows(null_since or since, by_watermark)
        if nulls:
            also = f"; so is the row whose key is the text {NULL_KEY!r}" if NULL_KEY in self.seen.first else ""
            set_aside = [s for s in set_aside if s.key != NULL_KEY]  # one record a key
            set_aside.append(Skipped(NULL_KEY, "null_key", f"{nulls} rows have a NULL key ({self.key_col}): "
                                     f"they cannot be reported or followed and are not read{also}"))
        if set_aside:
            drop = {s.key for s in set_aside}
            keys, keep = _without(keys, drop)
            features = features.rows(keep) if self.spill is None else features
            skipped = [s for s in skipped if s.key not in drop] + set_aside
            log.warning("%s: %d keys name no single row (%s)", source.config.name, len(set_aside),
                        ", ".join(f"{s.key}: {s.reason}" for s in set_aside[:5]) + (", ..." if len(set_aside) > 5 else ""))
        if self.row_wms:  # a skipped row read whole keeps its watermark too: the lookback then leaves it alone
            skipped = [replace(s, watermark=self.row_wms.get(s.key, s.watermark))
                       if s.reason in ("no_features", "unreadable") else s for s in skipped]
        skipped = list({recorded_key(s.key): replace(s, key=recorded_key(s.key)) for s in skipped}.values())
        if self.spill is not None:
            self.spill.finish(keep)
        _log_truncated(source, self.truncated)
        null_wm = source.null_watermark_rows() if by_watermark else 0
        if null_wm:
            log.warning("%s: %d rows have a NULL %s and are never read by an incremental run (a full run reads them)",
                        source.config.name, null_wm, self.wm_col)
        return Rows(keys=keys, features=features, skipped=skipped, rows_read=self.read,
                    watermark=source.watermark.position(*self.last) if self.last is not None else since,
                    truncated=len(self.truncated), null_watermark=null_wm, null_keys=nulls, row_watermarks=self.row_wms,
                    unchanged=self.unchanged,
                    truncated_rows=list(dict.fromkeys(k for k, _c, _n in self.truncated))[:TRUNCATED_LISTED])


def _without(keys: list[str], drop: set[str]) -> tuple[list[str], np.ndarray]:
    """The keys without those in ``drop``, and which rows they keep (bool per key)."""
    keep = np.fromiter((k not in drop for k in keys), dtype=bool, count=len(keys))
    return [k for k, ok in zip(keys, keep) if ok], keep


def _log_truncated(source: Source, cells: list[tuple[str, str, int]]) -> None:
    for key, column, length in cells[:10]:
        log.warning("%s: row %s: %s has %d characters, cut to the first %d (source.max_cell_chars)",
                    source.config.name, key, column, length, source.max_cell_chars)
    if len(cells) > 10:
        log.warning("%s: %d more cells cut to %d characters", source.config.name, len(cells) - 10,
                    source.max_cell_chars)

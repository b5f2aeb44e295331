"""The Spark run's key ranges: each task reads and sketches one; the driver keeps what is small.

A task reads its range with the local run's reader (dedup.runs.stages.read_rows) and sketches it
with the table's Recipe. What comes back to the driver is a PartInfo a range: counts, the
furthest watermark and the rows set aside, never a row's key or sketch; ``merged`` turns them
into what one read of the whole table would have reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..config.model import Config
from ..db.source import Source
from ..index.keys import key_sort
from ..store import Skipped
from ..text.rarity import ContentModel
from ..text.terms import TermModel
from .recipe import Recipe
from .stages import NULL_KEY, TRUNCATED_LISTED, Rows, read_rows


@dataclass
class Part:
    """One key range's rows, as a task read them (they stay in the executors)."""

    index: int
    rows: Rows
    sketches: np.ndarray | None = None


@dataclass
class PartInfo:
    """What the driver collects of a part: no per-row data but the rows set aside (few)."""

    index: int
    keys: int  # rows with features
    skipped: list[Skipped]
    rows_read: int
    watermark: dict | None
    truncated: int
    null_keys: int
    truncated_rows: list[str]
    width: int  # words of the part's sketches


@dataclass
class Merged:
    """The parts as one read of the table: ``rows`` holds no keys (``fingerprinted`` counts them);
    ``drop``: keys never fingerprinted (read by two parts, or the NULL key's record); ``twice``:
    the keys read by two parts; ``extra``: the records of skipped rows the driver writes (the NULL
    keys once, the keys read twice), the executors staging the parts' own."""

    rows: Rows
    fingerprinted: int
    drop: set[str]
    twice: set[str]
    extra: list[Skipped]


def read_part(config: Config, table: str, index: int, bounds: tuple) -> Part:
    """A task: read one key range with the keyset reader and featurise it (dedup.runs.stages)."""
    recipe = Recipe.of(config, table)
    with Source(config.source_url, recipe.table, config.batch_size) as source:
        source.within(*bounds)
        rows = read_rows(source, recipe)
    return Part(index, rows)


def sketched(config: Config, table: str, part: Part, terms: TermModel | None,
             content: tuple[ContentModel | None, ContentModel | None] = (None, None)) -> Part:
    """A task: the part's sketches (Recipe.sketch, with the table's term counts under IDF and the
    common content features and identity values it learned), its features dropped (nothing after
    needs them)."""
    sketches = Recipe.of(config, table).with_content(*content).sketch(part.rows.features, terms)
    return replace(part, rows=replace(part.rows, features=None), sketches=sketches)


def info_of(part: Part) -> PartInfo:
    r = part.rows
    return PartInfo(part.index, len(r.keys), r.skipped, r.rows_read, r.watermark, r.truncated, r.null_keys,
                    r.truncated_rows, part.sketches.shape[1])


def merged_terms(models: list[TermModel]) -> TermModel:
    """The document counts of the whole table from those of its parts (TermModel.learn of all rows)."""
    hashes = np.concatenate([m.hashes for m in models]) if models else np.empty(0, np.uint64)
    counts = np.concatenate([m.counts for m in models]) if models else np.empty(0, np.int64)
    uniq, where = np.unique(hashes, return_inverse=True)
    return TermModel(sum(m.documents for m in models), uniq, np.bincount(where, counts, len(uniq)).astype(np.int64))


def merged(infos: list[PartInfo], repeats: dict[str, int]) -> Merged:
    """The parts' infos (any order) as one read gives them; ``repeats``: key -> rows, for the keys
    that several parts read, and for NULL_KEY if a row has that key text.

    Every part counted the table's NULL keys: they are recorded once. A key text that two parts
    read (SQLite's 1 and '1' sort apart) is set aside as a duplicate, as one read would."""
    infos = sorted(infos, key=lambda i: i.index)
    skipped = [s for i in infos for s in i.skipped if s.reason != "null_key"]
    nulls = [s for i in infos for s in i.skipped if s.reason == "null_key"]
    extra: list[Skipped] = []
    if nulls:
        extra.append(max(nulls, key=lambda s: len(s.detail or "")))
    twice = {k for k, n in repeats.items() if n > 1}
    if twice:
        extra = [s for s in extra if s.key not in twice]
        skipped = [s for s in skipped if s.key not in twice]
        extra += [Skipped(k, "duplicate_key", f"{repeats[k]} rows have this key: none of them is fingerprinted")
                  for k in sorted(twice, key=key_sort)]
    drop = twice | ({NULL_KEY} if nulls else set())
    dropped = sum(n for k, n in repeats.items() if k in drop)
    rows = Rows(keys=[], features=None, skipped=skipped + extra, rows_read=sum(i.rows_read for i in infos),
                watermark=_furthest_mark([i.watermark for i in infos if i.watermark is not None]),
                truncated=sum(i.truncated for i in infos), null_keys=infos[0].null_keys if infos else 0,
                truncated_rows=[k for i in infos for k in i.truncated_rows][:TRUNCATED_LISTED])
    return Merged(rows, sum(i.keys for i in infos) - dropped, drop, twice, extra)


def repeated_keys(parts) -> dict[str, int]:
    """Key -> rows, of the keys that several parts read (and NULL_KEY's), from an RDD of Parts:
    a shuffle of the keys, so that the driver gets only these few."""
    from operator import add

    counted = parts.flatMap(lambda p: p.rows.keys).map(lambda k: (k, 1)).reduceByKey(add)
    return dict(counted.filter(lambda kn: kn[1] > 1 or kn[0] == NULL_KEY).collect())


def staged_skipped(part: Part, twice: set[str]) -> list[Skipped]:
    """The part's own skipped rows, as ``merged`` keeps them (the driver writes the others)."""
    return [s for s in part.rows.skipped if s.reason != "null_key" and s.key not in twice]


def _furthest_mark(marks: list[dict]) -> dict | None:
    """The furthest (watermark, key) position of the parts' (each the furthest of its range)."""
    from ..db.watermark import watermark_from_json

    best = None
    for m in marks:
        try:
            if best is None or (watermark_from_json(m), m["key"]) > (watermark_from_json(best), best["key"]):
                best = m
        except TypeError:  # values of two types in one column (SQLite): the first type's order counts
            continue
    return best


def kept(part: Part, drop: set[str]) -> tuple[list[str], np.ndarray, list[int]]:
    """The part's keys and sketches without the dropped keys, and the kept rows' positions."""
    keys = part.rows.keys
    if not drop.intersection(keys):
        return keys, part.sketches, list(range(len(keys)))
    at = [i for i, k in enumerate(keys) if k not in drop]
    return [keys[i] for i in at], part.sketches[at], at


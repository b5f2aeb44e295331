"""The stages every run shares: read and featurise rows, then sketch them.

``read_rows`` streams the source and featurises in worker processes; ``sketch_rows`` weighs and
SimHashes what was read. A full run, an incremental run and `dedup eval` all call these two and
then the recipe's ``pairs``/``groups``, so none of them can drift from the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..db.source import Source
from ..db.watermark import watermark_position
from ..index.fingerprint import HashedFeatures
from ..store import Skipped
from .parallel import Featurizing
from .recipe import Recipe

Progress = Callable[[int], None]  # called with the number of rows just read


@dataclass
class Rows:
    """What one read gave: the rows with features (``keys``, ``features``), the rows set aside, how
    many rows were read, and where the read ended in (watermark, key) order (None: no watermark)."""

    keys: list[str]
    features: HashedFeatures
    skipped: list[Skipped]
    rows_read: int
    watermark: dict | None


def read_rows(source: Source, recipe: Recipe, progress: Progress | None = None, since: dict | None = None,
              by_watermark: bool = False, workers: int = 1) -> Rows:
    """Read rows (every row, or with ``by_watermark`` those past ``since``) and featurise them in
    ``workers`` processes; rows without features or unreadable ones are set aside."""
    wm_col, key_col = source.config.watermark, source.config.key
    keys: list[str] = []
    skipped: list[Skipped] = []
    parts: list[HashedFeatures] = []
    read = 0
    last: tuple | None = None

    def take(outputs) -> None:
        nonlocal read
        for (batch_keys, feats, batch_skipped), n in outputs:
            keys.extend(batch_keys)
            parts.append(feats)
            skipped.extend(batch_skipped)
            read += n
            if progress is not None:
                progress(n)

    with Featurizing(recipe.featurizer, workers) as featurizing:
        for batch in source.batches(since=since, by_watermark=by_watermark):
            if by_watermark:  # batches come in (watermark, key) order: the last row is the furthest
                last = batch.last
            elif wm_col is not None:
                for _key, row in batch.rows:
                    if row.get(wm_col) is not None:
                        pos = (row[wm_col], row[key_col])
                        last = pos if last is None or pos > last else last
            skipped.extend(Skipped(k, "unreadable", why) for k, why in batch.unreadable)
            take(featurizing.submit(batch.rows, len(batch.rows) + len(batch.unreadable)))
        take(featurizing.drain())
    return Rows(keys, HashedFeatures.concat(parts), skipped, read,
                watermark_position(*last) if last is not None else since)


def sketch_rows(rows: Rows, recipe: Recipe, terms=None) -> np.ndarray:
    """The rows' sketches, (rows, words) uint64, fingerprint first (IDF-weighted with ``terms``)."""
    return recipe.sketch(rows.features, terms)

"""What an incremental run does besides reading rows past the watermark: the lookback window
(late rows and edits whose watermark went back), deletes (reconcile) and the check for rows it
can no longer see.

* **Lookback.** The read starts ``watermark_lookback`` before the stored watermark
  (dedup.config.lookback); of the rows it reads, only those whose watermark text is not the one the
  store keeps beside their fingerprint are processed, so a late row or a backdated edit is found
  and a row already done is never done twice.
* **Reconcile.** Only the key column is read (keyset pagination); stored keys it does not hold any
  more are the deleted rows, removed by the same plan as changed rows.
* **Unseen rows.** Rows (distinct keys) of the source minus the rows the store holds, after the
  run: a lower bound of the rows no incremental run will read (late by more than the lookback, or
  with a NULL watermark), since deleted rows not yet reconciled are still counted by the store.
"""

from __future__ import annotations

import logging
from typing import Callable

from ..config.lookback import describe, window_start
from ..db.source import Source
from ..db.watermark import row_watermark_text, watermark_from_json, watermark_to_json
from ..errors import ConfigError
from ..index.keys import key_sort
from ..store import Store
from .stages import NULL_KEY

log = logging.getLogger(__name__)


def read_from(source: Source, since: dict | None) -> tuple[dict | None, object]:
    """Where the read starts: the lookback window's start ({type, value, key: None}: from that
    watermark on) or ``since`` itself, and the window's start value (None: no window)."""
    if since is None:
        return None, None
    cfg = source.config
    try:
        start = window_start(watermark_from_json(since), cfg.watermark_lookback)
    except ValueError as e:
        raise ConfigError(f"tables.{cfg.name}.watermark_lookback: {e}") from None
    if start is None:
        return since, None
    log.debug("%s: reading again from %s %s (watermark_lookback %s)", cfg.name, cfg.watermark, start,
              describe(cfg.watermark_lookback))
    return {**watermark_to_json(start), "key": None}, start


def changed_rows(store: Store, table: str, wm_col: str) -> Callable[[list], list]:
    """A batch's rows that are not stored with the watermark they have now (new, late or edited)."""
    def select(rows: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        stored = store.row_watermarks(table, [k for k, _ in rows])
        return [(k, r) for k, r in rows
                if stored.get(k) is None or stored[k] != row_watermark_text(r.get(wm_col))]
    return select


def later(position: dict | None, stored: dict | None) -> dict | None:
    """The later of a read's end position and the stored one: a read that found nothing past
    the stored watermark (only rows of the lookback window) never moves it back."""
    if stored is None:
        return position
    if position is None or position.get("key") is None:  # nothing read: the read's start came back
        return stored
    try:
        ahead = (watermark_from_json(position), position["key"]) > (watermark_from_json(stored), stored["key"])
    except TypeError:  # values that do not compare (a watermark kept as text): the stored one stays
        return stored
    return position if ahead else stored


def should_reconcile(store: Store, table: str, every: int) -> bool:
    """True when ``every`` > 0 and this is the every-th incremental run since the last full run
    or reconcile (counting the runs that finished ok)."""
    if every <= 0:
        return False
    since = 0
    for run in store.runs(table, limit=every + 20):  # this run (running) and failed ones are not counted
        if run.status != "ok":
            continue
        if run.kind == "full" or run.summary.get("reconciled"):
            break
        since += 1
    return since >= every - 1


def vanished(source: Source, store: Store, table: str) -> list[str]:
    """Stored keys the source does not hold any more (its key column read alone, by keyset)."""
    gone = store.keys(table)  # one set in memory: the source's keys are struck off it batch by batch
    for keys in source.keys():
        gone.difference_update(keys)
    gone.discard(NULL_KEY)
    return sorted(gone, key=key_sort)


def unseen_rows(source: Source, store: Store, table: str) -> int:
    """At least this many source rows are in no run's view: distinct keys of the source minus
    the keys the store holds (0 when the store holds as many or more)."""
    return max(0, source.count_keys() - store.count_keys(table))

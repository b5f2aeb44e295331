"""`dedup eval --decisions`: the stored decisions as partial truth, and the threshold they suggest
with its estimated precision and recall (dedup.eval.partial)."""

from __future__ import annotations

from ..config.model import Config
from ..report.opened import opened


def eval_decisions(config: Config, table: str | None) -> dict:
    """decision_quality of the table's stored decisions under the scorer of its stored run."""
    from ..eval.partial import decision_quality

    with opened(config, table, with_source=False, read_only=True) as o:
        return decision_quality(o.stored_scorer(), o.store.decisions(o.table.name))

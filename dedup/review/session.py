"""`dedup review`: the pairs to go through (a group's weakest links, or a calibration sample), the
loop over them, and the regrouping with the answers once it ends."""

from __future__ import annotations

from typing import Callable

from ..config.model import Config
from ..report.opened import Opened, opened
from .loop import ReviewTally, review_loop
from .pairs import pair_view


def pairs_to_review(o: Opened, *, group: int | None = None, calibrate: bool = False, per_bin: int = 5,
                    seed: int = 0, limit: int | None = None) -> list[tuple[str, str, float | None]]:
    """The stored groups' undecided links, weakest first (of ``group`` only when given); with
    ``calibrate`` instead a sample across the similarity range near the threshold."""
    from ..runs.calibrate import candidates, sample
    from ..runs.review_pairs import group_pairs

    if calibrate:
        scorer = o.stored_scorer()
        decided = {d.pair for d in o.store.decisions(o.table.name)}
        pairs = sample(candidates(scorer), scorer.threshold, per_bin, seed, decided)
    else:
        pairs = group_pairs(o.store, o.scorer, o.table.name, group)
    return pairs[:limit] if limit else pairs


def run_review(config: Config, table: str | None, *, show: Callable[[dict], str], ask: Callable[[], str],
               echo: Callable[[str], None], reviewer: str | None = None, calibrate: bool = False,
               **choose) -> tuple[ReviewTally | None, object]:
    """Review the chosen pairs (``choose``: pairs_to_review's options), each answer stored at once;
    then regroup with them (as `dedup decide` does). (None, None) when there is nothing to review;
    else the tally and the regrouping (an IncrementalResult, or None when nothing was decided)."""
    from ..runs.decide import apply_pending

    with opened(config, table) as o:
        pairs = pairs_to_review(o, calibrate=calibrate, **choose)
        if not pairs:
            return None, None
        tally = review_loop(pairs, lambda a, b: show(pair_view(o.store, o.table, o.source, o.scorer, a, b)), ask, echo,
                            lambda d: o.store.put_decisions(o.table.name, [d]), "calibrate" if calibrate else "review",
                            reviewer)
        name = o.table.name
    return tally, (apply_pending(config, name) if tally.decisions else None)

"""The review loop: show each pair, ask same / different / skip / quit, record each answer at once
as a decision (dedup.runs.decide applies them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..index.decisions import DIFFERENT, SAME, Decision
from ..clock import now


@dataclass
class ReviewTally:
    same: int = 0
    different: int = 0
    skipped: int = 0
    decisions: list[Decision] = field(default_factory=list)

    def line(self) -> str:
        return (f"recorded {self.same + self.different} decisions ({self.same} same, {self.different} different), "
                f"skipped {self.skipped}")


ANSWERS = {"s": SAME, "same": SAME, "d": DIFFERENT, "different": DIFFERENT, "k": "skip", "skip": "skip",
           "": "skip", "q": "quit", "quit": "quit"}


def review_loop(pairs: list[tuple[str, str, float | None]], show: Callable[[str, str], str],
                ask: Callable[[], str], echo: Callable[[str], None], record: Callable[[Decision], None],
                source: str = "review", reviewer: str | None = None) -> ReviewTally:
    """Show each pair, ask same / different / skip / quit, and record each answer as it is given
    (with the ``reviewer``'s name)."""
    tally = ReviewTally()
    for n, (a, b, sim) in enumerate(pairs, 1):
        echo(f"\n[{n}/{len(pairs)}] " + show(a, b))
        while True:
            answer = ANSWERS.get(ask().strip().lower())
            if answer is not None:
                break
            echo("answer s (same), d (different), k (skip) or q (quit)")
        if answer == "quit":
            break
        if answer == "skip":
            tally.skipped += 1
            continue
        d = Decision(a, b, answer, now(), source, sim, reviewer=reviewer)
        record(d)
        tally.decisions.append(d)
        if answer == SAME:
            tally.same += 1
        else:
            tally.different += 1
    return tally

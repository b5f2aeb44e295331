"""A reviewer's decisions on pairs of rows: "same" joins their groups, "different" cuts their link.

A decision names two row keys (stored lower key first) and a verdict. Grouping takes the pairs
the recipe found, drops those decided different and adds those decided same (when both rows
have a fingerprint), then links as usual: a group held together only by a cut link splits,
one held by other pairs stays whole.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from .groups import Pair
from .keys import key_sort

SAME, DIFFERENT = "same", "different"
VERDICTS = (SAME, DIFFERENT)


@dataclass(frozen=True)
class Decision:
    a: str
    b: str
    verdict: str  # "same" or "different"
    decided_at: _dt.datetime | None = None
    source: str = "decide"  # decide, review, calibrate, import
    similarity: float | None = None  # the pair's similarity when it was decided (calibration)
    applied_run: int | None = None  # the run whose groups took it into account; None: not yet
    reviewer: str | None = None  # who decided (None: recorded before reviewers were kept, or unknown)
    note: str | None = None  # the reviewer's words on it
    action: str | None = None  # the id of the action (dedup.runs.actions) that made it, shared by its pairs

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"a decision is one of {', '.join(VERDICTS)}, not {self.verdict!r}")
        if self.a == self.b:
            raise ValueError(f"a decision needs two different rows, got {self.a!r} twice")
        if key_sort(self.b) < key_sort(self.a):
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    @property
    def pair(self) -> tuple[str, str]:
        return self.a, self.b


@dataclass(frozen=True)
class Action:
    """One reviewer's act (mark a pair, take a row out, split, merge, forget): the decisions it
    made carry its ``id``; ``replaced`` holds the decisions they replaced, so that undo restores them.
    Ids sort in time order (they begin with the time to the microsecond)."""
    id: str
    kind: str  # mark, take_out, split, merge, forget, import
    at: _dt.datetime
    reviewer: str | None = None
    keys: tuple[str, ...] = ()  # the rows it named
    groups: tuple[int, ...] = ()  # the groups it named (merge, split, take_out)
    pairs: tuple[tuple[str, str], ...] = ()  # the pairs it decided (lower key first)
    note: str | None = None
    replaced: tuple[Decision, ...] = ()  # decisions on its pairs before it (put back by undo)
    undone_at: _dt.datetime | None = None
    undone_by: str | None = None


@dataclass(frozen=True)
class GroupNote:
    """A reviewer's note on a group, kept under the group's id (ids are stable across runs)."""
    group: int
    text: str
    reviewer: str | None
    at: _dt.datetime


def ordered(a: str, b: str) -> tuple[str, str]:
    return (a, b) if key_sort(a) <= key_sort(b) else (b, a)


def verdicts(decisions) -> dict[tuple[str, str], str]:
    """(lower key, higher key) -> verdict."""
    return {d.pair: d.verdict for d in decisions}


def decided_keys(decisions) -> set[str]:
    return {k for d in decisions for k in d.pair}


def apply_decisions(pairs: list[Pair], decisions, fp: dict[str, int]) -> list[Pair]:
    """``pairs`` without those decided different, with a pair for each "same" decision whose two
    rows are in ``fp`` (key -> fingerprint; the pair's distance is their fingerprints')."""
    if not decisions:
        return pairs
    said = verdicts(decisions)
    out = [p for p in pairs if said.get(ordered(p.a, p.b)) != DIFFERENT]
    for (a, b), v in said.items():
        if v == SAME and a in fp and b in fp:
            out.append(Pair(a, b, (fp[a] ^ fp[b]).bit_count()))
    return out

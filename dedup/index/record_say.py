"""A record field's say: the bits an agreement on it tells (dedup.index.records.RecordScheme.say).

``distinct`` (the default): log2 of its distinct values (agreeing on a 2-valued field says one bit,
on an id number many); but each typo of a field of few values (a state, a given name) is a distinct
value of its own, so the count grows with the table: a state of 8 values said 8.7 bits in a
20,000-row table of copies. ``chance``: log2 of 1 / the chance that two rows agree on it, filled^2 /
sum of squared value counts, a rate that rare typos barely move; alone it took too much say from
given names (common ones are often shared) and households sharing a phone and an address passed as
one person. ``mean``: the mean of the two. ``distinct`` stays the default (bench/results/persons-s37.md:
``mean`` +0.0004 mean F1 on 16 tuning sets but -0.0026 on the training persons of 20,000 rows, and
no gain on held-out persons with copies).
"""

from __future__ import annotations

import math

import numpy as np

SAYS = ("distinct", "chance", "mean")


def bits(learned: dict, say: str) -> np.ndarray:
    """Per field the bits an agreement tells, at least one, from the full run's learned counts."""
    by_count = np.array([math.log2(max(2, d)) for d in learned["distinct"]])
    if say == "distinct":
        return by_count
    by_chance = np.array([math.log2(max(2.0, n * n / s)) if s else 1.0
                          for n, s in zip(learned["filled"], learned["squares"])])
    return by_chance if say == "chance" else (by_chance + by_count) / 2

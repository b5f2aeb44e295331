"""Which of the recipe's rules accepted a pair, and at what bar: what a report or `explain` shows
beside a link's similarity ("content with an identity field equal, 0.45" rather than "0.75").

A text table's pair is accepted on its contents alone (``content``), on a lower bar because an
identity field is equal (``content_identity``; ``content_rare_identity``, lower still, when that
value is rare), on its distinctive details alike when its whole contents are under the bars
(``distinct``: places, numbers, what the table does not share), on its numbers alike (``numbers``:
dates, days, households, the same incident's numbers), or, for short contents, on the short bars
(``short``, ``short_identity``): dedup.index.bands.TextVerifier.RULES names them all. A record table's on its weighted field score (``record``); the
simhash recipe's on its sketch similarity (``simhash``) or field similarity (``fields``). A pair
that no rule accepts (joined by a reviewer's decision, or scored under other settings) has none.
Each matching method says which of its rules fired (dedup.methods: ``accepting_rules``).
"""

from __future__ import annotations

import numpy as np


def pair_rules(recipe, a: np.ndarray, b: np.ndarray, scores: np.ndarray) -> list[tuple[str | None, float | None]]:
    """(rule, its threshold) for aligned sketches ``a``, ``b`` whose scores are ``scores``."""
    return recipe.method.accepting_rules(a, b, scores)

"""Which of the recipe's rules accepted a pair, and at what bar: what a report or `explain` shows
beside a link's similarity ("content with an identity field equal, 0.45" rather than "0.75").

A text table's pair is accepted on its contents alone (``content``), on a lower bar because an
identity field is equal (``content_identity``), or, for short contents, on the short bars
(``short``, ``short_identity``); a record table's on its weighted field score (``record``); the
simhash recipe's on its sketch similarity (``simhash``) or field similarity (``fields``). A pair
that no rule accepts (joined by a reviewer's decision, or scored under other settings) has none.
"""

from __future__ import annotations

import numpy as np

from ..index.bands import TextVerifier

RULES = ("content", "content_identity", "short", "short_identity", "record", "fields", "simhash")


def pair_rules(recipe, a: np.ndarray, b: np.ndarray, scores: np.ndarray) -> list[tuple[str | None, float | None]]:
    """(rule, its threshold) for aligned sketches ``a``, ``b`` whose scores are ``scores``."""
    v = recipe.verifier
    if v is None or not len(a):
        return [(None, None)] * len(a)
    s = np.nan_to_num(np.asarray(scores, dtype=float), nan=-1.0)
    if isinstance(v, TextVerifier):
        sa, sb = recipe.signatures(a), recipe.signatures(b)
        same = v.same_person(sa, sb)
        short = np.minimum(sa[:, 0], sb[:, 0]) < v.short_chars
        out = []
        for n in range(len(a)):
            bars = (("short", v.short_threshold), ("short_identity", v.short_identity_threshold)) if short[n] \
                else (("content", v.threshold), ("content_identity", v.identity_threshold))
            alone, with_identity = bars
            rule = alone if s[n] >= alone[1] else with_identity if same[n] and s[n] >= with_identity[1] else None
            out.append((rule[0], float(rule[1])) if rule and s[n] > 0 else (None, None))
        return out
    threshold = float(getattr(v, "threshold"))
    name = "record" if recipe.scheme is not None else "fields" if recipe.table.by_field else "simhash"
    return [(name, threshold) if x >= threshold else (None, None) for x in s]

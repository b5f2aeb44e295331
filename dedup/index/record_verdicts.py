"""A record pair's verdict, field by field (dedup.index.records has the measure in its module doc).

Each field scores 1 when equal, its bigram Dice estimate when the field is distinctive enough for a
typo to still score (``RecordScheme.similar``), else 0; a field held crosswise or cut to an initial
scores at least its floor (dedup.index.record_fields). The weighted mean cuts each field's weight by its
redundancy with the fields that already agreed, and a distinctive field that clearly differs may weigh
more than once (``against``). Kept apart from the keys so that each module holds one job; the pair
shapes (lengths, first characters) are read once a chunk of pairs and shared by the helpers.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from .record_fields import against, distinctive, excused, floors, shapes_of, shared
from .record_redundancy import joint

if TYPE_CHECKING:
    from .records import RecordScheme

U64 = np.uint64


def _scored(scheme: RecordScheme, a, b, ha, hb, f: int, similar: bool, crossed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Field ``f``: (filled in both, its score there): 1 when equal, else its bigram Dice estimate
    when the field is ``similar``, else 0; at least its floor (``crossed``: swaps, initials)."""
    s = (ha[:, f] == hb[:, f]).astype(float)
    if similar:
        j = (scheme.field_values(a, f) == scheme.field_values(b, f)).mean(axis=1)
        s = np.maximum(s, 2 * j / (1 + j))
    return (ha[:, f] != 0) & (hb[:, f] != 0), np.maximum(s, crossed[:, f])


def _cut(scheme: RecordScheme, f: int, red: np.ndarray, told: list, pairs: dict, n: int) -> np.ndarray:
    """How much of field ``f``'s weight each pair loses to what the earlier agreeing fields told."""
    cut = np.zeros(n)
    for g, same in told:
        if red[f, g] > 0:
            cut = np.maximum(cut, np.where(same, red[f, g], 0.0))
    for (g, x), (h, y) in combinations(told, 2):
        lift = pairs.get((min(g, h), max(g, h)))
        if lift is not None and lift[f] > 0:
            cut = np.maximum(cut, np.where(x & y, scheme.linked * lift[f], 0.0))
    return cut


def weighed(scheme: RecordScheme, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, weights) of aligned rows ``a`` and ``b``: the weighted mean field score (NaN when no
    field is filled in both) and each field's weight in it (0 where either row lacks the field)."""
    a, b = np.atleast_2d(np.asarray(a, U64)), np.atleast_2d(np.asarray(b, U64))
    weights, similar = scheme.weights(), scheme.similar()
    red = scheme.linked * scheme.redundancy() if scheme.linked else None
    ha, hb = scheme.hashes(a), scheme.hashes(b)
    shapes = shapes_of(ha, hb)
    crossed = floors(ha, hb, scheme.fields, scheme.swaps, scheme.initial, scheme.initial_score, shapes)
    n, fields = len(a), scheme.fields
    num, den, used, scored = np.zeros(n), np.zeros(n), np.zeros((n, fields)), np.zeros((n, fields))
    filled = np.zeros((n, fields), bool)
    told: list[tuple[int, np.ndarray]] = []  # earlier fields and where they agree exactly
    pairs = joint(scheme.learned or {}, fields) if red is not None and scheme.joint else {}
    for f in sorted(range(fields), key=lambda f: (-weights[f], f)):
        both, s = _scored(scheme, a, b, ha, hb, f, similar[f], crossed)
        s = np.where(both, s, 0.0)
        w = np.full(n, weights[f])
        if red is not None:
            w = w * (1 - _cut(scheme, f, red, told, pairs, n))
            told.append((f, both & (ha[:, f] == hb[:, f])))
        num += w * s
        den += w * both
        used[:, f], scored[:, f], filled[:, f] = w * both, s, both
    on = scheme.against != 1.0 and scheme.against_below > 0  # off: the sums without it, bit for bit
    why = excused(ha, hb, scheme.initial, scheme.against_near, distinctive(weights, scheme.against_top), shapes) \
        if on or scheme.guard >= 0 else None
    if on:
        more = used * (against(scored, used, weights, scheme.against_below, scheme.against, scheme.against_top,
                               scheme.against_needs, scheme.against_agree, why, scheme.against_agree_at) - 1)
        num, den, used = num + (more * scored).sum(axis=1), den + more.sum(axis=1), used + more
    if scheme.guard >= 0:  # s46: a pair of nothing personal in common scores 0 (record_fields.shared)
        num = num * shared(scored, filled, weights, scheme.against_top, scheme.guard, why)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan), used


def field_scores(scheme: RecordScheme, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(pairs, fields): each field's score as ``weighed`` counts it, NaN where either row lacks the field."""
    a, b = np.atleast_2d(np.asarray(a, U64)), np.atleast_2d(np.asarray(b, U64))
    ha, hb, similar = scheme.hashes(a), scheme.hashes(b), scheme.similar()
    out = np.full((len(a), scheme.fields), np.nan)
    crossed = floors(ha, hb, scheme.fields, scheme.swaps, scheme.initial, scheme.initial_score)  # swaps, initials
    for f in range(scheme.fields):
        both, s = _scored(scheme, a, b, ha, hb, f, similar[f], crossed)
        out[:, f] = np.where(both, s, np.nan)
    return out

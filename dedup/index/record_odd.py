"""The odd one out (issue 22, session 46): a row unlike every other row of a group to be.

A false group over 5 rows on the held-out persons is one person's copies and one family member
at the same address, joined by a single link through a damaged copy (a birth date lost a digit,
no given name, no id): the pair agrees on what both rows hold, so no pair rule sees it. What does
show is the group: the family member's birth date or id is unlike that of *every* other row, and
those rows agree among themselves. ``odd_one`` answers that for a row and the rows it would be
grouped with; the star clustering (dedup.index.clusters) asks it only where the row's one link
into the group is a single pair. It reads the rows' sketches and the frozen learned weights only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .cluster_odd import STRIPPED
from .record_fields import distinctive
from .record_verdicts import field_scores

if TYPE_CHECKING:
    from .records import RecordScheme


def asked(scheme: RecordScheme, x: np.ndarray, others: np.ndarray, way: int) -> bool:
    """The group check as the clustering asks it (dedup.index.cluster_odd's Odd, on sketches): the
    lone link's pair (STRIPPED, ``x`` and ``others[0]``), else ``odd_one`` where ``way`` is on. One
    place for `dedup full` (Records.odd_out) and the quality sweeps."""
    if way == STRIPPED:
        return stripped_pair(scheme, x, others[0])
    return bool(way & scheme.odd_ways) and odd_one(scheme, x, others)


def odd_one(scheme: RecordScheme, x: np.ndarray, others: np.ndarray) -> bool:
    """Whether row ``x`` (a sketch) scores under ``against_below`` on ``odd_unlike`` distinctive
    fields (the ``against_top`` of most say) with every row of ``others`` that has the field (one
    at least, ``x`` having it too), on one of them with two rows at least that score ``odd`` or more
    with each other on it. A copy with one damaged field is unlike on that one; a family member on
    its own birth date and id, or given name."""
    n = len(others)
    if scheme.odd < 0 or n < 2:
        return False
    top = np.flatnonzero(distinctive(scheme.weights(), scheme.against_top))
    mine = field_scores(scheme, np.repeat(np.atleast_2d(x), n, axis=0), others)[:, top]
    a, b = np.triu_indices(n, 1)
    among = field_scores(scheme, others[a], others[b])[:, top]
    unlike, agreed = 0, False
    for t in range(len(top)):
        filled = ~np.isnan(mine[:, t])
        if not filled.any() or not (mine[filled, t] < scheme.against_below).all() \
                or _crosswise(scheme, x, others, int(top[t]), top):
            continue
        unlike += 1
        agreed = agreed or (filled.sum() >= 2 and bool((among[filled[a] & filled[b], t] >= scheme.odd).all()))
    return unlike >= scheme.odd_unlike and agreed


def _crosswise(scheme: RecordScheme, x: np.ndarray, others: np.ndarray, f: int, top: np.ndarray) -> bool:
    """Whether ``x``'s field ``f`` equals another distinctive field of some row of ``others``: a given
    name and surname swapped in one copy but not in another (the signature's MinHash is salted per
    field, so only equal values are seen crosswise)."""
    mine = scheme.hashes(np.atleast_2d(x))[0, f]
    theirs = scheme.hashes(others)[:, [int(g) for g in top if g != f]]
    return bool(mine) and bool((theirs == mine).any())


def stripped_pair(scheme: RecordScheme, x: np.ndarray, y: np.ndarray) -> bool:
    """Whether the lone link ``x``-``y`` (sketches) is no way in (session 47): one row misses at least
    ``strip`` distinctive fields and the two agree (scoring ``strip_at`` or more) on fewer than
    ``strip_agree`` of them (``strip_held``: or than all those both hold, when fewer), and
    (``strip_unlike`` >= 0) some field both hold scores under ``strip_unlike``; ``strip_key``:
    one distinctive key field agreeing will do (an id, a birth date: not the household's surname). A copy
    stripped of given name and birth date links to a family member on surname and address; a
    household shares one distinctive field (its surname), a copy holds one more (its id); a
    family member of another street address or birth date is unlike on it, a copy's typo seldom."""
    if scheme.strip <= 0:
        return False
    top = np.flatnonzero(distinctive(scheme.weights(), scheme.against_top))
    both = np.vstack([np.atleast_2d(x), np.atleast_2d(y)])
    if int((scheme.hashes(both)[:, top] == 0).sum(axis=1).max()) < scheme.strip:
        return False
    every = field_scores(scheme, both[:1], both[1:])[0]
    if scheme.strip_unlike >= 0 and not (every[~np.isnan(every)] < scheme.strip_unlike).any():
        return False
    agree = np.nan_to_num(every, nan=-1.0) >= scheme.strip_at
    if scheme.strip_key and agree[[f for f in scheme.key_fields() if f in set(top.tolist())]].any():
        return False
    need = min(scheme.strip_agree, int((~np.isnan(every[top])).sum())) if scheme.strip_held else scheme.strip_agree
    return int(agree[top].sum()) < need

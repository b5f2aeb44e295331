"""How single fields of a record pair count beyond their score (dedup.index.records): two fields
held crosswise count as equal (``crossed``, given name and surname entered the wrong way round),
and evidence against (issue 22, session 42): a distinctive field filled in both rows and clearly
different counts more than once (``against``).

A false group over 5 rows on the persons with corrupted copies is a person's copies gathered
around a family member: same surname and whole address, their own given name, birth date and id.
The weighted mean lets the agreeing address fields outvote the one or two personal fields that
differ (the pair scores 0.68-0.75 against a bar of 0.675), because a field's weight is the same
for and against. Here a field among the ``top`` of most say (the id, the birth date, a name: what
a household does not share), filled in both rows and scoring under ``below`` (a family member's
birth date shares few digit bigrams; a copy's typo keeps most), weighs ``factor`` times in the
pair's mean, score and weight both, when at least ``needs`` such fields are unlike in that pair
and at most ``agree`` distinctive fields are equal (the household's surname).
It reads the two rows and the frozen learned weights only, so a pair's verdict is the same in a
full and an incremental run. Chosen by bench/quality/records/sweep_against.py on TUNING sets
(bench/results/persons-s42.md).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np


def crossed(ha: np.ndarray, hb: np.ndarray, fields: int) -> np.ndarray:
    """(pairs, fields) 1.0 where field f holds, crosswise, what another field g holds in the
    other row and g what f holds (given name and surname entered the wrong way round), else 0."""
    out = np.zeros(ha.shape)
    for f, g in combinations(range(fields), 2):
        swapped = (ha[:, f] == hb[:, g]) & (ha[:, g] == hb[:, f]) & (ha[:, f] != ha[:, g]) & (ha[:, f] != 0) \
            & (ha[:, g] != 0)
        out[:, f] = np.maximum(out[:, f], swapped)
        out[:, g] = np.maximum(out[:, g], swapped)
    return out


def distinctive(weights: np.ndarray, top: int) -> np.ndarray:
    """(fields,) bool: the ``top`` fields of most say (the lower index first on a tie)."""
    order = sorted(range(len(weights)), key=lambda f: (-float(weights[f]), f))
    out = np.zeros(len(weights), bool)
    out[order[:top]] = True
    return out


def against(scored: np.ndarray, used: np.ndarray, weights: np.ndarray, below: float, factor: float,
            top: int, needs: int, agree: int) -> np.ndarray:
    """(pairs, fields): how many times each field's weight counts in each pair: ``factor`` where it
    is distinctive, filled in both (``used`` > 0) and scores under ``below``, in pairs with at least
    ``needs`` such fields and at most ``agree`` distinctive fields equal (a family shares its
    surname; a copy whose given name was cut to its initial still has its birth date or id); 1
    elsewhere."""
    mine = distinctive(weights, top)[None, :] & (used > 0)
    unlike = mine & (scored < below)
    hit = unlike & ((unlike.sum(axis=1) >= needs) & ((mine & (scored >= 1.0)).sum(axis=1) <= agree))[:, None]
    return np.where(hit, factor, 1.0)

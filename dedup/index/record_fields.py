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
A value of at most ``initial`` characters that starts with the other value's first character (a
given name cut to its initial: ``v`` vs ``vosdroull``) is not evidence against (``initials``, from
the length and first character the signature keeps since s43: bigram MinHash scores an initial
about 0, as it does a sibling's name), and may score at least ``initial_score`` (``floors``); so
may (``against_near``) a name of the same first letter and about the same length (``excused``).
It reads the two rows and the frozen learned weights only, so a pair's verdict is the same in a
full and an incremental run. Chosen by bench/quality/records/sweep_against.py on TUNING sets
(bench/results/persons-s42.md).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

U64 = np.uint64
HASH_BITS, LEN_BITS = 42, 6  # a record value's word (dedup.text.records): hash, length, then 16 bits of its first character


def shape(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lengths, first characters) of word-0 values (0, 0 where empty): what a value hash keeps
    of a value's shape besides equality."""
    words = np.asarray(words, U64)
    return ((words >> U64(HASH_BITS)) & U64((1 << LEN_BITS) - 1)).astype(np.int64), \
        (words >> U64(HASH_BITS + LEN_BITS)).astype(np.int64)


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


Shapes = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]  # (shape(ha), shape(hb))


def shapes_of(ha: np.ndarray, hb: np.ndarray) -> Shapes:
    """Both sides' ``shape``, made once for the helpers below that a pair chunk calls in turn."""
    return shape(ha), shape(hb)


def initials(ha: np.ndarray, hb: np.ndarray, longest: int, shapes: Shapes | None = None) -> np.ndarray:
    """(pairs, fields) bool: filled in both, unequal, the shorter at most ``longest`` characters and
    both starting with the same character: one may be the other's initial or short form."""
    (la, fa), (lb, fb) = shapes or shapes_of(ha, hb)
    return (ha != 0) & (hb != 0) & (ha != hb) & (np.minimum(la, lb) <= longest) & (fa == fb)


def excused(ha: np.ndarray, hb: np.ndarray, longest: int, near: int, only: np.ndarray | None = None,
            shapes: Shapes | None = None) -> np.ndarray | None:
    """(pairs, fields) bool, or None when both are off: the values not evidence against, an
    initial (``initials``), or (``near`` >= 0) two values of one first character, not a digit, whose
    lengths differ by at most ``near`` (a typo past the first letter: ``rail`` vs ``raik``, which
    8 MinHash values may estimate at 0; a date's or an id's first digit tells nothing), also
    crosswise (given name and surname swapped, one of them with a typo, lost or cut to its initial:
    one row's given name like the other's surname excuses both fields); near names among the
    fields ``only`` (bool, the distinctive ones: the rest are never evidence against) or all."""
    if not longest and near < 0:
        return None
    shapes = shapes or shapes_of(ha, hb)
    out = initials(ha, hb, longest, shapes)
    if near >= 0:
        (la, fa), (lb, fb) = shapes

        def alike(f: int, g: int) -> np.ndarray:
            return (ha[:, f] != 0) & (hb[:, g] != 0) & (fa[:, f] == fb[:, g]) & (np.abs(la[:, f] - lb[:, g]) <= near) \
                & ~((fa[:, f] >= 48) & (fa[:, f] <= 57))
        fields = np.flatnonzero(only).tolist() if only is not None else list(range(ha.shape[1]))
        for f in fields:
            out[:, f] |= alike(f, f)
        for f, g in combinations(fields, 2):  # crosswise: given name and surname swapped, one lost or cut
            either = alike(f, g) | alike(g, f)
            out[:, f] |= either
            out[:, g] |= either
    return out


def floors(ha: np.ndarray, hb: np.ndarray, fields: int, swaps: bool, longest: int, score: float,
           shapes: Shapes | None = None) -> np.ndarray:
    """(pairs, fields) the least each field scores: 1 where held crosswise (``swaps``), ``score``
    where one value may be the other's initial (``longest`` > 0), else 0."""
    out = crossed(ha, hb, fields) if swaps else np.zeros(ha.shape)
    if longest and score > 0:
        out = np.maximum(out, score * initials(ha, hb, longest, shapes))
    return out


def distinctive(weights: np.ndarray, top: int) -> np.ndarray:
    """(fields,) bool: the ``top`` fields of most say (the lower index first on a tie)."""
    order = sorted(range(len(weights)), key=lambda f: (-float(weights[f]), f))
    out = np.zeros(len(weights), bool)
    out[order[:top]] = True
    return out


def against(scored: np.ndarray, used: np.ndarray, weights: np.ndarray, below: float, factor: float,
            top: int, needs: int, agree: int, excused: np.ndarray | None = None, agree_at: float = 1.0) -> np.ndarray:
    """(pairs, fields): how many times each field's weight counts in each pair: ``factor`` where it
    is distinctive, filled in both (``used`` > 0) and scores under ``below``, in pairs with at least
    ``needs`` such fields and at most ``agree`` distinctive fields equal (a family shares its
    surname; a copy whose given name was cut to its initial still has its birth date or id) and not
    ``excused`` (an initial); 1 elsewhere. A field agrees when it scores ``agree_at`` or more (1:
    equal; 0.8 counts a birth date or an id with one typo too, which a family member's seldom has)."""
    mine = distinctive(weights, top)[None, :] & (used > 0)
    unlike = mine & (scored < below) & (True if excused is None else ~excused)
    hit = unlike & ((unlike.sum(axis=1) >= needs) & ((mine & (scored >= agree_at)).sum(axis=1) <= agree))[:, None]
    return np.where(hit, factor, 1.0)


def shared(scored: np.ndarray, filled: np.ndarray, weights: np.ndarray, top: int, at: float,
           excused: np.ndarray | None = None) -> np.ndarray:
    """(pairs,) bool: some distinctive field (the ``top`` of most say: an id, a birth date, a name) is
    filled in both rows and scores at least ``at`` or is ``excused`` (an initial, a near name). A pair
    that agrees on address fields only (one row a bare address, a family member) lacks it: the
    street-number keys the floor may take meet such pairs (bench/results/persons4-s46.md)."""
    mine = distinctive(weights, top)[None, :] & filled
    near = scored >= at
    if excused is not None:
        near = near | excused
    return (mine & near).any(axis=1)

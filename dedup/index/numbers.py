"""Two rows' number tokens compared exactly: the stored words of dedup.text.numbers (a count, then
the smallest hashes of a row's digit runs with their units, two a word), as rule ``numbers`` of
dedup.index.bands.TextVerifier reads them.
"""

from __future__ import annotations

import numpy as np


PLACE_BIT = 0x8000_0000  # set in a place name's 32-bit hash, clear in a number token's (dedup.text.numbers)
ORG_BIT = 0x4000_0000  # with PLACE_BIT: an organisation's name, not a place's (s45)
_LOW = np.uint64(0xFFFF_FFFF)  # a count word's number tokens (its high half: the place names)
_U32 = np.uint64(32)


def number_counts(words: np.ndarray) -> np.ndarray:
    """Each row's count of number tokens, from the count word of its ``number_words`` (the word's
    high half counts its place names)."""
    return words[:, 0] & _LOW


def shared_numbers(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(shared, least): for two aligned (pairs, 1 + keep / 2) blocks of ``number_words``, how many
    kept number tokens the two rows have in common and the smaller of their (kept) number counts
    (place names left out)."""
    va, vb = _values(a), _values(b)
    keep = va.shape[1]
    shared = (_among(va, vb) & (va != 0) & (va < PLACE_BIT)).sum(axis=1)  # 0: an empty slot; over PLACE_BIT: a place
    counts = np.minimum(number_counts(a), number_counts(b))
    least = np.minimum(counts, keep).astype(np.int64)
    return shared, least


def places_unlike(a: np.ndarray, b: np.ndarray, unless_numbers: bool = False,
                  where: np.ndarray | None = None, numberless: bool = False) -> np.ndarray:
    """For two aligned blocks of ``number_words``: whether both rows name a place (a kept value
    over PLACE_BIT) and none of a's is among b's; ``unless_numbers``: and both name numbers, some
    number of the one naming fewer not the other's (a refile mistyping its place name keeps its
    numbers; without numbers a place name alone is no evidence against: a joint letter's typo).
    ``where``: only these pairs can be (the others False); with the count words' place counts,
    the hashes are compared for the few pairs left. Organisation names (ORG_BIT set) count only
    where the two rows do not both name places: then the places decide, as before (s45).
    ``numberless``: with ``unless_numbers``, two rows naming no number at all and judged on their
    organisation names count on the names alone (form letters naming only their company); a place
    name alone still does not (a joint letter's copy mistyping its community: s46, forms8-s46.md)."""
    maybe = (a[:, 0] >> _U32 > 0) & (b[:, 0] >> _U32 > 0) & (True if where is None else where)
    out = np.zeros(len(a), bool)
    rows = np.flatnonzero(maybe)
    if len(rows):
        out[rows] = _places_unlike(a[rows], b[rows], unless_numbers, numberless)
    return out


def shared_places(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For two aligned blocks of ``number_words``: whether some place (or organisation) name of a's
    is among b's (0 slots are never names; s47's guard, dedup.index.unkeyed)."""
    va, vb = _values(a), _values(b)
    return ((va >= PLACE_BIT) & _among(va, vb)).any(axis=1)


def _places_unlike(a: np.ndarray, b: np.ndarray, unless_numbers: bool, numberless: bool = False) -> np.ndarray:
    va, vb = _values(a), _values(b)
    org_a, org_b = va >= PLACE_BIT | ORG_BIT, vb >= PLACE_BIT | ORG_BIT
    place_a, place_b = (va >= PLACE_BIT) & ~org_a, (vb >= PLACE_BIT) & ~org_b
    found = _among(va, vb)
    shared, shared_org = (place_a & found).any(axis=1), (org_a & found).any(axis=1)
    places = place_a.any(axis=1) & place_b.any(axis=1)  # both name places: the places decide (as before s45)
    out = np.where(places, ~shared, org_a.any(axis=1) & org_b.any(axis=1) & ~shared_org)
    if unless_numbers:
        alike, least = shared_numbers(a, b)
        none = numberless & ~places & (number_counts(a) == 0) & (number_counts(b) == 0)  # organisations' only
        out &= ((least > 0) & (alike < least)) | none
    return out


def _values(words: np.ndarray) -> np.ndarray:
    """(pairs, keep) uint32: the kept values of aligned ``number_words`` (the count word left out)."""
    return np.ascontiguousarray(words[:, 1:]).view(np.uint32)


def _among(va: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """(pairs, keep) bool: whether each value of a row of ``va`` is among the same row's ``vb``."""
    found = np.empty(va.shape, bool)
    for k in range(va.shape[1]):
        found[:, k] = (vb == va[:, k:k + 1]).any(axis=1)
    return found

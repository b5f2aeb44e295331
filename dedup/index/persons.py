"""Which candidate pairs of a text table are the same person by their identity fields (TextVerifier.persons).

An identity field equal lowers the content bar a pair must reach (rules ``content_identity``,
``content_rare_identity``, ``short_identity``). Issue 22, session 44 (bench/results/topic3-s44.md):
bands of 2 values make a namesake's other incident a candidate, the name equal and the phone or email
another, and those bars kept it. ``guard`` says when such an equal name stops counting: ``""`` never
(before session 44); ``"most"`` when as many fields present in both differ as are equal (a refile keeping
name and address with a new phone still counts); ``"rare"`` the same, for the rare-value bar only (session
44's choice on the tuning sets: bench/quality/topic_s42_sweep.py); ``"any"`` when any field present
in both differs; ``"most_numbers"`` as ``"most"`` unless the two rows' numbers are alike (rule
``numbers``' condition: a refile keeps its incident's numbers, a namesake names their own).
Session 45 (bench/results/namesakes-s45.md): namesakes' long letters at rule ``content_identity`` (J 0.45-0.6,
the name equal, the phone other) are told from a refile under a new phone by the incident the verifier
sees: ``"rare_places"`` is ``"rare"``, and every identity bar guarded as ``"most"`` where the two rows name
places, none the same (a refile keeps its place; ``incidents_apart``); ``"rare_apart"`` also where both
name at least ``APART_LEAST`` numbers and share under half of the fewer. The sweep chose ``"rare_places"``.
"""

from __future__ import annotations

import numpy as np

from .numbers import places_unlike

GENERIC = np.uint64(1 << 63)  # an identity word's bit: the full run saw its value in more than identity_rare_rows rows
GUARDS = ("", "rare", "most", "any", "most_numbers", "rare_places", "rare_apart")
APART_LEAST = 2  # ``"rare_apart"``: both rows naming at least this many numbers ...
APART_SHARE = 0.5  # ... and sharing less than this share of the fewer: another incident


def incidents_apart(verifier, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """Where the guard ``verifier.namesakes`` counts a pair's two incidents apart (None: it asks nothing of them):
    ``"most_numbers"``, the numbers not alike; ``"rare_places"``, places named, none the same; ``"rare_apart"``,
    that or the numbers unlike. From the two rows alone, so a decision is the same in a full or incremental run."""
    guard, at = verifier.namesakes, verifier.numbers_at
    if guard == "most_numbers":
        return ~verifier.numbers_agree(*verifier.numbers_alike(a, b))
    if guard not in ("rare_places", "rare_apart"):
        return None
    if not at:
        return np.zeros(len(a), dtype=bool)
    apart = places_unlike(a[:, at:], b[:, at:])
    if guard == "rare_apart":
        share, least = verifier.numbers_alike(a, b)
        apart |= (least >= APART_LEAST) & (share < APART_SHARE - 1e-9)
    return apart


def persons(a: np.ndarray, b: np.ndarray, identity: int, counted: bool, guard: str = "",
            apart: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(same, rare) of signature rows ``a``, ``b`` (identity words 1..``identity``): any identity column
    equal (and present); one equal with a rare value (no GENERIC bit; all False unless ``counted``),
    each without the pairs ``guard`` calls namesakes (``apart``: ``incidents_apart``). A column at a time."""
    same, rare = np.zeros(len(a), dtype=bool), np.zeros(len(a), dtype=bool)
    equal_n, differ_n = np.zeros(len(a), np.int64), np.zeros(len(a), np.int64)
    for c in range(1, 1 + identity):
        both = (a[:, c] != 0) & (b[:, c] != 0)
        equal = both & (a[:, c] == b[:, c])
        same |= equal
        if counted:
            rare |= equal & ((a[:, c] & GENERIC) == 0)
        if guard:
            equal_n += equal
            differ_n += both & ~equal
    if guard:
        namesake = differ_n > 0 if guard == "any" else differ_n >= equal_n
        rare &= ~namesake if guard != "most_numbers" else ~(namesake & apart)
        if guard != "rare":
            same &= ~(namesake & apart) if apart is not None else ~namesake
    return same, rare

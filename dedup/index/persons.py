"""Which candidate pairs of a text table are the same person by their identity fields (TextVerifier.persons).

An identity field equal lowers the content bar a pair must reach (rules ``content_identity``,
``content_rare_identity``, ``short_identity``). Issue 22, session 44 (bench/results/topic3-s44.md):
bands of 2 values make a namesake's other incident a candidate, the name equal and the phone or email
another, and those bars kept it. ``guard`` says when such an equal name stops counting: ``""`` never
(before session 44); ``"most"`` when as many fields present in both differ as are equal (a refile keeping
name and address with a new phone still counts); ``"rare"`` the same, for the rare-value bar only (the
default, chosen on the tuning sets: bench/quality/topic_s42_sweep.py); ``"any"`` when any field present
in both differs; ``"most_numbers"`` as ``"most"`` unless the two rows' numbers are alike (rule
``numbers``' condition, ``exempt``: a refile keeps its incident's numbers, a namesake names their own).
"""

from __future__ import annotations

import numpy as np

GENERIC = np.uint64(1 << 63)  # an identity word's bit: the full run saw its value in more than identity_rare_rows rows
GUARDS = ("", "rare", "most", "any", "most_numbers")


def persons(a: np.ndarray, b: np.ndarray, identity: int, counted: bool, guard: str = "",
            exempt: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(same, rare) of signature rows ``a``, ``b`` (identity words 1..``identity``): any identity column
    equal (and present); one equal with a rare value (no GENERIC bit; all False unless ``counted``),
    each without the pairs ``guard`` calls namesakes. A column at a time, in one pass."""
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
        namesake &= ~exempt if exempt is not None else True
        rare &= ~namesake
        if guard != "rare":
            same &= ~namesake
    return same, rare

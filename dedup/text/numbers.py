"""A row's numbers as exact evidence: each digit run with the character after it (its unit: 12天,
300户, 5号, 6月), hashed, the smallest ``keep`` of them stored whole beside the signature.

Two complaints on one topic share its template; what tells one incident from another is its place
and its numbers (dates, days, households, yuan, building). A refile of one incident, by the same
person or a neighbour in their own words, repeats its numbers; a new incident at the same place
names other dates and numbers. The numbers are the row's own, not learned from the table, so two
rows are compared the same way in a full run and in any incremental run (rule ``numbers`` of
dedup.index.bands.TextVerifier, compared by dedup.index.numbers).
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np
from cityhash import CityHash64

from .normalize import nfkc

_NUMBER = re.compile(r"(\d+)(\D?)")
KEEP = 16  # number tokens kept a row (uint32, two a word); a row with more keeps its smallest hashes
NUMBERS_VERSION = 1


def number_tokens(text: str) -> set[str]:
    """The distinct digit runs of NFKC ``text``, each with the character after it (its unit)."""
    return {d + u for d, u in _NUMBER.findall(nfkc(text))}


def number_words(cells: Sequence[Sequence[str]], keep: int = KEEP) -> np.ndarray:
    """(rows, 1 + keep / 2) uint64: how many distinct number tokens each row's cells have, then
    the smallest ``keep`` of their 32-bit hashes (never 0) ascending, two a word, 0-padded."""
    out = np.zeros((len(cells), 1 + keep // 2), np.uint64)
    values = np.zeros((len(cells), keep), np.uint32)
    for r, parts in enumerate(cells):
        tokens = set().union(*map(number_tokens, parts)) if parts else set()
        if not tokens:
            continue
        hashed = sorted({(CityHash64(t.encode("utf-8")) & 0xFFFF_FFFF) | 1 for t in tokens})[:keep]
        out[r, 0] = len(tokens)
        values[r, :len(hashed)] = hashed
    out[:, 1:] = values.view(np.uint64)
    return out


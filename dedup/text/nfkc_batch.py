"""The NFKC of a batch's long text cells at once, put in ``normalize.nfkc``'s memo (issue 26, session 48).

``normalize.nfkc_of`` replaces each run of the characters NFKC changes by a regular expression
with a Python callback a run (some 14 runs a news row, a third of its cost), then normalises.
Here the batch's cells are one UTF-32 array and every BMP character whose NFKC is one character
(the full-width forms, the ideographic space: nearly all that Chinese text holds) is replaced by
an array look-up; the rest is left to ``unicodedata.normalize``. Replacing any character by its
own NFKC leaves a text's NFKD as it was (NFKD(NFKC(c)) = NFKD(c)), hence its NFKC: the memo holds
``unicodedata.normalize("NFKC", cell)`` exactly (``tests/test_batch_terms.py``).
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Iterable

import numpy as np

from . import normalize

LONG = 24  # shorter cells (names, phones) go through nfkc_of alone, as before


@functools.cache
def _single() -> np.ndarray:
    """uint32 code point -> its NFKC where that is one BMP character, else itself (the BMP)."""
    out = np.arange(0x10000, dtype=np.uint32)
    for c, normal in normalize.compat_table().items():
        if len(normal) == 1:
            out[c] = ord(normal)
    return out


def remember(cells: Iterable[object]) -> None:
    """Put the NFKC of the long non-ASCII string ``cells`` not yet remembered in the memo."""
    todo = [v for v in normalize.not_remembered(list(dict.fromkeys(c for c in cells if type(c) is str and len(c) >= LONG)))
            if not v.isascii()]
    if not todo:
        return
    try:
        codes = np.frombuffer("".join(todo).encode("utf-32-le"), np.uint32)
    except UnicodeEncodeError:  # a lone surrogate: nfkc_of, cell by cell, when asked
        return
    bmp = codes < 0x10000
    text = np.where(bmp, _single()[np.where(bmp, codes, 0)], codes).tobytes().decode("utf-32-le")
    ends = np.cumsum([len(v) for v in todo]).tolist()
    normalize.remember_nfkc(todo, [unicodedata.normalize("NFKC", text[start:end]) for start, end in zip([0] + ends, ends)])

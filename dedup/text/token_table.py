"""Each distinct token of a process numbered once, with its hash and whether the terms leave it out.

Per row, ``Segmenter.terms`` built a set of the row's tokens to find the new ones, filtered the
list through a set of the dropped ones, and dedup.text.batch then looked each kept term up once
more for its CityHash64: three or four look-ups a token, a third of featurising beside the cut
itself (issue 26, bench/results/featurise2-s48.md). Here a token is looked up once, for its number;
its hash and its verdict are read from arrays by those numbers, for a whole batch at once.
"""

from __future__ import annotations

from array import array
from typing import Callable

import numpy as np
from cityhash import CityHash64


class TokenTable(dict):
    """token -> its number; ``hashes`` and ``dropped`` by number. Never emptied while in use:
    ``Segmenter.numbered`` hands out a new one between batches once this one is full."""

    LIMIT = 1 << 20  # tokens remembered (some 150 MB at most with their strings)

    def __init__(self, judge: Callable[[str], bool]) -> None:
        super().__init__()
        self.judge = judge
        self._hashes = array("Q")
        self._dropped = bytearray()

    def __missing__(self, token: str) -> int:
        number = self[token] = len(self._dropped)
        self._hashes.append(CityHash64(token.encode("utf-8")))
        self._dropped.append(self.judge(token))
        return number

    def numbers(self, tokens: list[str]) -> np.ndarray:
        """The tokens' numbers (the new ones numbered and judged now)."""
        return np.fromiter(map(self.__getitem__, tokens), np.int64, len(tokens))

    def hashes(self, numbers: np.ndarray) -> np.ndarray:
        """uint64 CityHash64 of the numbered tokens' UTF-8."""
        if not len(numbers):
            return np.empty(0, np.uint64)
        return np.frombuffer(self._hashes, np.uint64)[numbers]  # a copy: the table may grow after

    def dropped(self, numbers: np.ndarray) -> np.ndarray:
        """bool: whether ``Segmenter.terms`` leaves each numbered token out."""
        if not len(numbers):
            return np.empty(0, bool)
        return np.frombuffer(self._dropped, np.uint8)[numbers].astype(bool)

"""The digit runs of a batch of texts, found with numpy (issue 26, session 46).

``content.split_scripts`` took each row's digit runs with ``\\d+`` over its text, a scan of every
character in Python's regular-expression engine. Here the batch's texts are one array of code
points and the BMP table of ``\\d`` (dedup.text.scripts) marks the digits; the work after that is
on the digits alone: a run is digits side by side within one text. A text holding a character
beyond the BMP (where the table says nothing) is scanned by the expression itself.
``tests/test_batch_scans.py`` compares the two.
"""

from __future__ import annotations

import numpy as np

from . import shingles
from .scripts import BMP, code_points, marks


def digit_runs(texts: list[str]) -> list[list[str]]:
    """``shingles.digit_runs`` of each text."""
    found = _points(texts)
    if found is None:
        return [shingles.digit_runs(t) for t in texts]
    bmp, ends, astral = found
    runs = _cut(texts, *_runs(bmp, ends))
    for i in astral:
        runs[i] = shingles.digit_runs(texts[i])
    return runs


def _points(texts: list[str]) -> tuple[np.ndarray, np.ndarray, set[int]] | None:
    """(the texts' code points end to end, the BMP's last for those beyond it; where each text
    ends; the texts with a character beyond the BMP); None for a lone surrogate."""
    found = code_points(texts)
    if found is None:
        return None
    points, lens = found
    ends = np.cumsum(lens)
    if not len(points) or int(points.max()) < BMP:
        return points, ends, set()
    beyond = np.searchsorted(ends, np.flatnonzero(points >= BMP), side="right")
    return np.minimum(points, BMP - 1), ends, set(beyond.tolist())


def _runs(bmp: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start, end, text) of each run of digits within one text, in order."""
    digit = np.flatnonzero(marks(r"\d")[bmp])  # few: the work after this is on them alone
    text_of = np.searchsorted(ends, digit, side="right")
    run = np.ones(len(digit), bool)  # where a run begins: not right after a digit of the same text
    run[1:] = (digit[1:] != digit[:-1] + 1) | (text_of[1:] != text_of[:-1])
    run_end = digit[np.r_[run[1:], True]] + 1 if len(digit) else digit
    return digit[run], run_end, text_of[run]


def _cut(texts: list[str], start: np.ndarray, end: np.ndarray, owner: np.ndarray) -> list[list[str]]:
    """The pieces start:end of the texts end to end, each text's in a list of its own."""
    joined = "".join(texts)
    pieces = [joined[s:e] for s, e in zip(start.tolist(), end.tolist())]
    bounds = np.cumsum(np.bincount(owner, minlength=len(texts))).tolist()
    return [pieces[a:b] for a, b in zip([0] + bounds[:-1], bounds)]

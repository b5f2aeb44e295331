"""Where a batch of texts' number tokens and possible place endings are, found with numpy (issue 26).

dedup.text.numbers scanned each cell twice with regular expressions, for ``\\d+\\D?`` (a digit
run and the character after it) and for the characters a place ending ends with; the scans, not
what follows them, were most of its time. Here the batch's cells are one array of code points
and a table of the BMP (each character matched alone by ``\\d``, as for dedup.text.scripts) marks
the digits: a token is a run of them within one cell and the cell's next character, if any. A
cell holding a character beyond the BMP (where the table says nothing) is scanned by the
expressions themselves. ``tests/test_numbers_fast.py`` compares the two.
"""

from __future__ import annotations

import re

import numpy as np

from . import shingles
from .scripts import BMP, code_points, marks

_NUMBER = re.compile(r"\d+\D?")  # a digit run and the character after it: one string a match, no groups to join

Scanned = tuple[list[str], list[int]]


def scan(texts: list[str], last: re.Pattern) -> list[Scanned]:
    """Of each text: its ``_NUMBER`` matches in order and where ``last`` (one character a match)
    matches from the third character on, as ``_NUMBER.findall(t)``, ``[m.start() for m in
    last.finditer(t, 2)]``."""
    found = _points(texts)
    if found is None:  # a lone surrogate: the expressions say what becomes of it
        return [_by_expressions(t, last) for t in texts]
    bmp, ends, astral = found
    run_start, run_end, owner = _runs(bmp, ends)
    token_end = run_end + (run_end < ends[owner])  # the character after the run, when the text has one
    tokens = _cut(texts, run_start, token_end, owner)
    hit = np.flatnonzero(marks(last.pattern)[bmp])
    hit_of = np.searchsorted(ends, hit, side="right")
    at = hit - (ends - np.diff(ends, prepend=0))[hit_of]
    hit_of, at = hit_of[at >= 2], at[at >= 2]
    bounds = np.cumsum(np.bincount(hit_of, minlength=len(texts))).tolist()
    where = at.tolist()
    return [_by_expressions(texts[i], last) if i in astral else (tokens[i], where[h0:h1])
            for i, (h0, h1) in enumerate(zip([0] + bounds[:-1], bounds))]


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


def _by_expressions(text: str, last: re.Pattern) -> Scanned:
    return _NUMBER.findall(text), [m.start() for m in last.finditer(text, 2)]

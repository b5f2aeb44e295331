"""The per-character passes of ``content.split_scripts`` over a whole batch, with numpy (issue 26).

Per row, split_scripts ran three regular expressions over the casefolded text: noise removed
(``[\\W_]+``), digit runs folded for the cleaned length (``\\d+``) and a search for Latin
letters; together about a sixth of featurising beside the segmenter. Here a batch's casefolded
texts are one array of code points, and a table of the BMP (built once a process by those same
character classes, applied to every character: the same classes by construction) says of each
character whether it is noise, a digit or a Latin letter. The cleaned texts are the kept
characters, decoded once and cut per row; a cleaned length is their count less the digits that
follow a kept digit (what folding each run to one ``0`` leaves).
"""

from __future__ import annotations

import functools
import re

import numpy as np

LATIN_LETTER = "[a-z\u00df-\u00f6\u00f8-\u024f]"  # casefolded Latin letters (ASCII, Latin-1, Extended-A/B)
BMP = 0x10000


@functools.cache
def _every() -> str:
    """Every character of the BMP in order, NUL in the surrogates' places (no text can hold one)."""
    codes = np.arange(BMP, dtype=np.uint32)
    codes[0xD800:0xE000] = 0
    return codes.tobytes().decode("utf-32-le")


@functools.cache
def marks(one_character: str) -> np.ndarray:
    """A bool table of the BMP: which characters the expression ``one_character`` (a class or
    one character) matches, each alone; the surrogates none."""
    out = np.frombuffer(re.sub(one_character, "\x00", _every()).encode("utf-32-le"), np.uint32) == 0
    out[0] = re.fullmatch(one_character, "\x00") is not None
    out[0xD800:0xE000] = False
    out.flags.writeable = False
    return out


def code_points(texts: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """(the texts' code points end to end, each text's length); None when one holds a lone
    surrogate (no UTF-32 of it)."""
    try:
        points = np.frombuffer("".join(texts).encode("utf-32-le"), np.uint32)
    except UnicodeEncodeError:
        return None
    return points, np.fromiter(map(len, texts), np.int64, len(texts))


def clean_batch(folded: list[str]) -> tuple[list[int], list[str], list[bool]] | None:
    """(cleaned length, cleaned text, whether it holds a Latin letter or a character beyond the
    BMP) of each casefolded text, as ``len(fold_digits(fold_noise(t)))``, ``fold_noise(t)``,
    ``bool(_LATIN.search(t))``; None when a text holds a lone surrogate (no UTF-32 of it)."""
    found = code_points(folded)
    if found is None:
        return None
    points, lens = found
    rows = len(folded)
    row = np.repeat(np.arange(rows, dtype=np.int32), lens)
    bmp = np.minimum(points, BMP - 1)
    other = np.bincount(row[(points >= BMP) | marks(LATIN_LETTER)[bmp]], minlength=rows) > 0
    keep = ~marks(r"[\W_]")[bmp]  # noise: a surrogate never comes here
    kept_row, kept_digit = row[keep], marks(r"\d")[bmp[keep]]
    follows = kept_digit[1:] & kept_digit[:-1] & (kept_row[1:] == kept_row[:-1])  # a digit after one of its row
    kept = np.bincount(kept_row, minlength=rows)
    length = kept - np.bincount(kept_row[1:][follows], minlength=rows)
    cleaned = points[keep].tobytes().decode("utf-32-le")
    ends = np.cumsum(kept).tolist()
    texts = [cleaned[start:end] for start, end in zip([0] + ends[:-1], ends)]
    return length.tolist(), texts, other.tolist()

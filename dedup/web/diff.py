"""What differs between a row's value and the group's first row's, in pieces a page can mark.

Latin text differs by words (a changed letter marks its word, not the letter), Chinese by
characters (each is a word's worth of meaning); short values such as phones and id numbers
differ as a whole: a phone with one digit changed is another phone, not a near one.
"""

from __future__ import annotations

import difflib
import re

_TOKEN = re.compile(r"[A-Za-z0-9_'\-.@]+|\s+|.", re.S)


def tokens(text: str) -> list[str]:
    """Latin words (with digits), runs of space, and every other character alone."""
    return _TOKEN.findall(text)


def marked(value: str | None, base: str | None, whole: bool) -> list[tuple[str, bool]]:
    """``value`` as (piece, differs) pieces against ``base``: by tokens, or as one piece (``whole``)."""
    if value is None:
        return []
    if base is None or value == base:
        return [(value, False)] if value else []
    if whole:
        return [(value, True)]
    mine, theirs = tokens(value), tokens(base)
    same = [False] * len(mine)
    for block in difflib.SequenceMatcher(None, mine, theirs, autojunk=False).get_matching_blocks():
        same[block.a:block.a + block.size] = [True] * block.size
    out: list[tuple[str, bool]] = []
    for tok, keep in zip(mine, same):
        differs = not keep and not tok.isspace()
        if out and out[-1][1] == differs:
            out[-1] = (out[-1][0] + tok, differs)
        else:
            out.append((tok, differs))
    return out

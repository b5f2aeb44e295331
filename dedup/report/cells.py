"""Cells for people: text a terminal shows but never obeys, its width in terminal columns, clipping."""

from __future__ import annotations

import re
import unicodedata

# C0 and C1 controls, DEL, and the characters that move or reorder a terminal's text: line and
# paragraph separators, bidirectional marks, embeddings, overrides and isolates.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def visible(value) -> str:
    """Text a terminal shows but never obeys: control characters as escapes (``\\x1b``, ``\\n``, ``\\u202e``)."""
    def escape(m: re.Match) -> str:
        c = m.group()
        return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
    return _CONTROL.sub(escape, str(value))


def char_width(c: str) -> int:
    """Terminal columns of one character: East Asian wide and fullwidth take two, combining marks none."""
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def display_width(text: str) -> int:
    """Terminal columns of ``text`` (already made visible)."""
    return sum(map(char_width, text))


def cut(text: str, limit: int) -> str:
    """``text`` (already visible) in at most ``limit`` columns, ending in ``…`` when cut."""
    if display_width(text) <= limit:
        return text
    out, used = [], 0
    for c in text:
        w = char_width(c)
        if used + w > limit - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + ("…" if limit > 0 else "")


def clip(text: str | None, limit: int, right: bool = False, squash: bool = True) -> str:
    """``text`` on one line in exactly ``limit`` columns: padded, or cut with ``…`` (NULL: blanks).
    ``squash``: runs of white space become one space (a value); else they are escaped (a key)."""
    text = cut(visible(" ".join((text or "").split()) if squash else text or ""), limit)
    pad = " " * max(limit - display_width(text), 0)
    return pad + text if right else text + pad


def fit(natural: list[int], room: int) -> list[int]:
    """Column widths within ``room``: each column its natural width when all fit, else the narrow
    ones keep theirs and the wide ones share what is left equally (at least 1 each)."""
    widths = [0] * len(natural)
    left = sorted(range(len(natural)), key=lambda i: natural[i])
    while left:
        share = max(room // len(left), 1)
        i = left.pop(0)
        widths[i] = min(natural[i], share)
        room -= widths[i]
    return widths

"""What differs between two values, in the units a clerk reads them by: a phone number, an id or a
code is one unit (a changed digit marks the whole value, not a scatter of digits); Latin-script
text is compared word by word; Chinese (and other unspaced scripts) character by character."""

from __future__ import annotations

import difflib
import re

# one unit: no white space, at least one digit, only digits, Latin letters and the marks of numbers
_WHOLE = re.compile(r"(?=[^\s]*\d)[0-9A-Za-z+\-()./#_:]+")
# a Latin word or a run of digits (apostrophes and hyphens inside), white space, or any one character
_UNIT = re.compile(r"[0-9A-Za-z\u00c0-\u024f]+(?:['’\-][0-9A-Za-z\u00c0-\u024f]+)*|\s+|.", re.S)


def units(value: str) -> list[str]:
    """``value`` cut into the units a difference is marked in (joined, they give ``value`` back)."""
    if _WHOLE.fullmatch(value):
        return [value]
    return _UNIT.findall(value)


def differences(reference: str, value: str) -> list[tuple[str, str, str]]:
    """(tag, what ``reference`` has there, what ``value`` has there), tag one of equal, replace,
    delete, insert: the opcodes of difflib over both values' units."""
    ra, va = units(reference), units(value)
    return [(tag, "".join(ra[i1:i2]), "".join(va[j1:j2]))
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ra, va, autojunk=False).get_opcodes()]

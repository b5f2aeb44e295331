"""Pure text normalisation applied before any feature is made.

NFKC folds full-width letters, digits and punctuation to half-width (and the ideographic space to
a space) while leaving CJK ideographs as they are; then case is folded and whitespace collapsed.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import re
import unicodedata

NORMALIZATION_VERSION = 1  # bump when the output of any function here changes (it changes fingerprints)
_WS = re.compile(r"\s+")


_MEMO: dict[str, str] = {}
_MEMO_LIMIT = 1 << 15  # values remembered (a batch's cells); then forgotten all at once


def nfkc(value: str) -> str:
    """NFKC of a raw cell value, remembered for a while: a row's text is normalised for its terms
    and again for its signature (dedup.text.signature), and NFKC is a tenth of featurising."""
    out = _MEMO.get(value)
    if out is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        out = _MEMO[value] = unicodedata.normalize("NFKC", value)
    return out


def _fold(value: str, raw: bool = False) -> str:
    """NFKC with case folding (as Unicode's NFKC_Casefold): folding can un-normalise, so normalise
    twice; the second time only when folding changed something (else it would return its input:
    the same result, and most Chinese text has nothing to fold). ``raw``: a cell value as read."""
    normal = nfkc(value) if raw else unicodedata.normalize("NFKC", value)
    folded = normal.casefold()
    return normal if folded == normal else unicodedata.normalize("NFKC", folded)


def normalize_text(value: str) -> str:
    """Full-width -> half-width, case folded, runs of whitespace -> one space, trimmed."""
    return _fold(_WS.sub(" ", _fold(value, True)).strip()).strip()


def normalize_short(value: str) -> str:
    """A short field's whole value: like normalize_text, with all whitespace removed."""
    return _fold(_WS.sub("", _fold(value, True)))


def value_to_text(value: object) -> str | None:
    """A database value as text: None stays None, bytes must be UTF-8, dates in ISO form."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8")  # UnicodeDecodeError marks the row unreadable
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, decimal.Decimal):  # written out in full unless that takes more than 100 digits
        plain = value.is_finite() and abs(value.adjusted()) <= 100
        return format(value.normalize(), "f") if plain else str(value)
    if isinstance(value, float):
        return repr(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    return str(value)


def key_to_text(value: object) -> str:
    """A row key as the string stored and reported for it."""
    text = value_to_text(value)
    if text is None:
        raise ValueError("row key is NULL")
    return text

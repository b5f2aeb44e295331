"""Pure text normalisation applied before any feature is made.

NFKC folds full-width letters, digits and punctuation to half-width (and the ideographic space to
a space) while leaving CJK ideographs as they are; then case is folded and whitespace collapsed.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import functools
import re
import unicodedata

NORMALIZATION_VERSION = 1  # bump when the output of any function here changes (it changes fingerprints)


class _Runs(dict):
    """A run of characters NFKC changes -> the run with each character replaced by its own NFKC."""

    def __missing__(self, run: str) -> str:
        if len(self) >= 1 << 12:
            self.clear()
        value = self[run] = run.translate(_compat()[0])
        return value


_RUNS = _Runs()


@functools.cache
def _compat() -> tuple[dict[int, str], re.Pattern]:
    """(code point -> its NFKC, a pattern of runs of them) for the BMP characters NFKC changes
    (about 3,000; built once a process, in about 30 ms)."""
    table = {}
    for c in range(0x10000):
        if not 0xD800 <= c < 0xE000:
            ch = chr(c)
            normal = unicodedata.normalize("NFKC", ch)
            if normal != ch:
                table[c] = normal
    return table, re.compile("[" + "".join(re.escape(chr(c)) for c in table) + "]+")


def nfkc_of(value: str) -> str:
    """``unicodedata.normalize("NFKC", value)``, about three times faster on Chinese text with
    full-width punctuation. One such character makes CPython decompose and recompose the whole
    text (some 150 ns a character); here each run of characters NFKC changes is first replaced by
    its characters' own NFKC, which leaves the text's NFKD, hence its NFKC, as it was (NFKD is
    each character's decomposition, canonically reordered; NFKD(NFKC(c)) = NFKD(c)), and what
    is left mostly passes CPython's quick check untouched. Characters outside the table
    (combining marks, astral ones) are left to the full normalisation: the result is the same.
    ``tests/test_fast_featurise.py`` compares the two on varied and random text."""
    if len(value) < 24 or value.isascii():  # a name or a phone: the table's pattern would cost more than it saves
        return unicodedata.normalize("NFKC", value)
    return unicodedata.normalize("NFKC", _compat()[1].sub(_run, value))


def renormal(value: str) -> str:
    """``nfkc_of`` of text made from NFKC text (case folded, its spaces collapsed): mostly NFKC
    still, which ``unicodedata.is_normalized`` tells without nfkc_of's pattern scan (session 48).
    Not for raw cells: there the check mostly stops at a full-width character and is time lost."""
    return value if unicodedata.is_normalized("NFKC", value) else nfkc_of(value)


def _run(m: re.Match) -> str:
    return _RUNS[m.group()]


_MEMO: dict[str, str] = {}
_MEMO_LIMIT = 1 << 15  # values remembered (a batch's cells); then forgotten all at once


def forget() -> None:
    """Empty this module's memos (dedup.text.memos)."""
    _MEMO.clear()
    _RUNS.clear()


def nfkc(value: str) -> str:
    """NFKC of a raw cell value, remembered for a while: a row's text is normalised for its terms
    and again for its signature (dedup.text.signature), and NFKC is a tenth of featurising."""
    out = _MEMO.get(value)
    if out is None:
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        out = _MEMO[value] = nfkc_of(value)
    return out


def compat_table() -> dict[int, str]:
    """BMP code point -> its NFKC, for the characters NFKC changes (what dedup.text.nfkc_batch reads)."""
    return _compat()[0]


def not_remembered(values: list[str]) -> list[str]:
    """Those of ``values`` whose NFKC ``nfkc`` does not remember."""
    return [v for v in values if v not in _MEMO]


def remember_nfkc(values: list[str], normals: list[str]) -> None:
    """Put the NFKC of ``values`` (``normals``, made by the caller) in ``nfkc``'s memo, forgetting
    all it held first when they would not fit."""
    if len(_MEMO) + len(values) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO.update(zip(values, normals))


def _fold(value: str) -> str:
    """NFKC with case folding (as Unicode's NFKC_Casefold): folding can un-normalise, so normalise
    twice; the second time only when folding changed something (else it would return its input:
    the same result, and most Chinese text has nothing to fold)."""
    normal = nfkc_of(value)
    folded = normal.casefold()
    return normal if folded == normal else renormal(folded)


def _refold(text: str) -> str:
    """``_fold`` of text made from NFKC text (its spaces collapsed or removed)."""
    normal = renormal(text)
    folded = normal.casefold()
    return normal if folded == normal else renormal(folded)


def normalize_text(value: str) -> str:
    """Full-width -> half-width, case folded, runs of whitespace -> one space, trimmed. (``split()``
    splits on what ``\\s`` matches, ``str.isspace``, and drops the ends: ``_WS.sub(" ", s).strip()``
    in a fifth of the time.)"""
    return _joined(value, " ").strip()


def normalize_short(value: str) -> str:
    """A short field's whole value: like normalize_text, with all whitespace removed."""
    if value.isascii():  # a phone, a code: NFKC leaves ASCII as it is, and folding it is lower() (session 48)
        return "".join(value.lower().split())
    return _joined(value, "")


def _joined(value: str, sep: str) -> str:
    """``_fold_again`` of the cell's (memoised) NFKC, case folded, and ``sep.join`` of its words.
    When the cell's NFKC folds to itself (most text), folding that again is skipped (session 48)."""
    normal = nfkc(value)
    folded = normal.casefold()
    if folded != normal:
        normal = renormal(folded)
        return _fold_again(normal, sep.join(normal.split()))
    spaced = sep.join(normal.split())
    return normal if spaced == normal else _refold(spaced)


def _fold_again(normal: str, spaced: str) -> str:
    """``_fold(spaced)``, ``spaced`` being ``normal`` (a ``_fold``, so NFKC) with its whitespace
    collapsed or removed. When that left it as it was (most text), its NFKC is itself (NFKC is
    idempotent) and only the case is folded again (session 46: one normalisation less a cell)."""
    if spaced != normal:
        return _refold(spaced)
    folded = normal.casefold()
    return normal if folded == normal else renormal(folded)


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

"""A row's numbers as exact evidence: each digit run with the character after it (its unit: 12天,
300户, 5号, 6月), hashed, the smallest ``keep`` of them stored whole beside the signature.

Two complaints on one topic share its template; what tells one incident from another is its place
and its numbers (dates, days, households, yuan, building). A refile of one incident, by the same
person or a neighbour in their own words, repeats its numbers; a new incident at the same place
names other dates and numbers. The numbers are the row's own, not learned from the table, so two
rows are compared the same way in a full run and in any incremental run (rule ``numbers`` of
dedup.index.bands.TextVerifier, compared by dedup.index.numbers).

Since session 37 (NUMBERS_VERSION 2, bench/results/numtok-s37.md) a row's place names are kept
beside them: two characters before a residential-place ending (小区, 花园, 新村, 城 ...), their hashes
with the top bit set (number tokens' clear), so they sort after the numbers and never count among
them. In a large table two brief complaints on one topic at two communities share most of their
small-range numbers by chance; their place names tell them apart (rule ``places_against``).
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np
from cityhash import CityHash64

from ..index.numbers import ORG_BIT, PLACE_BIT
from .normalize import nfkc
from .organisations import organisation_tokens

# a digit run and the character after it: one string a match, no groups to join; \d\d* (not \d+) so the search
# skips to a digit through its character set, not a match tried at every character (session 48: 0.65 of the time)
_NUMBER = re.compile(r"\d\d*\D?")
KEEP = 16  # number tokens kept a row (uint32, two a word); a row with more keeps its smallest hashes
# 2: place names kept after the numbers, numbers' hashes under PLACE_BIT (session 37); 3: matches that are no
# name left out (session 40); 4: 和 may begin a name before a two-character ending (session 43); 5: 离 a
# function character (session 44: 站点离小区太远 named the place 点离小区 in every letter of a topic); 6: organisation
# names kept with the place names (session 45, dedup.text.organisations)
NUMBERS_VERSION = 6
# endings of Chinese residential place names (a general list); a place name is two characters and one
PLACE_ENDINGS = ("小区", "社区", "花园", "家园", "新村", "公寓", "大厦", "华府", "名都", "山庄", "花苑", "广场",
                 "新城", "苑", "城", "园", "府", "庭", "湾")
_FUNCTION = frozenset("的了和与及在是向对把被从到给让为于也都就而或并且其这那个离")  # never in a place name's two characters
_NAME_FIRST = frozenset("和")  # ... except first before a two-character ending: 和平小区, 和谐家园 (not 和台湾, 和小城: "and")
_NOT_PLACES = frozenset(("政府", "家庭", "法庭", "开庭", "校园", "县城", "进城", "省城"))  # words ending like a place name
_TWO = frozenset(e for e in PLACE_ENDINGS if len(e) == 2)
_ONE = frozenset(e for e in PLACE_ENDINGS if len(e) == 1)
_LAST = re.compile("[" + "".join(sorted({e[-1] for e in PLACE_ENDINGS})) + "]")  # where an ending may end (rarer than its first characters)


def place_tokens(text: str) -> set[str]:
    """The place names of NFKC ``text``: two Han characters and a place ending; of overlapping
    matches the one ending last (青城小区, not 于青城, in 关于青城小区), once matches that are no name
    are left out (``not_a_name``: 社区小区 in 北河社区小区, 区的小区, 民政府)."""
    return _places(nfkc(text))


def _places(text: str) -> set[str]:
    """``place_tokens`` of text already NFKC. Every ending ends on one of a few characters, so one
    scan (in C) for those finds every match: at such a character q, a two-character ending
    q-1..q and a one-character one at q (the alternation of PLACE_ENDINGS tried two-character ones
    first: 新城 before 城), each with its two Han characters before it. Session 42 (numfast-s42.md):
    the lookahead this replaced was tried at every position with 19 alternatives."""
    found = []  # (start, end) by end, then start: the stable sort below orders them as the lookahead did
    for m in _LAST.finditer(text, 2):
        q = m.start()
        if q >= 3 and text[q - 1:q + 1] in _TWO and "\u4e00" <= text[q - 3] <= "\u9fff" and "\u4e00" <= text[q - 2] <= "\u9fff":
            found.append((q - 3, q + 1))
        if text[q] in _ONE and text[q:q + 2] not in _TWO and "\u4e00" <= text[q - 2] <= "\u9fff" and "\u4e00" <= text[q - 1] <= "\u9fff":
            found.append((q - 2, q + 1))
    if not found:
        return set()
    found.sort(key=lambda se: -se[1])  # stable: of two ending at one place, the earlier start first
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if not not_a_name(text[start:end]) and all(end <= s or start >= e for s, e in kept):
            kept.append((start, end))
    return {text[s:e] for s, e in kept}


def not_a_name(match: str) -> bool:
    """Whether a match of two characters and a place ending is no place name (session 40): its two
    characters are a place ending themselves (社区 of 北河社区小区) or hold a function character (区的小区),
    or it ends in a word that is no place (民政府: 人民政府). Such matches were shared by every letter
    of one form or topic, so two letters naming different communities still "shared a place".
    Session 43: 和 begins common names (和平小区, 和谐家园); before a two-character ending it is one,
    while before a one-character ending it is mostly "and" (和台湾, 和小城 in the news corpus). Until
    then 和平小区 named no place and 和谐家园 named 谐家园. Session 44: 离 ("from", 站点离小区太远) is one
    (bench/results/forms6-s44.md)."""
    first = match[0] in _FUNCTION and not (match[0] in _NAME_FIRST and match[2:] in _TWO)
    return match[:2] in PLACE_ENDINGS or first or match[1] in _FUNCTION or match[-2:] in _NOT_PLACES


def number_tokens(text: str) -> set[str]:
    """The distinct digit runs of NFKC ``text``, each with the character after it (its unit)."""
    return set(_NUMBER.findall(nfkc(text)))


class _Hashed(dict):
    """token -> its stored 32-bit value (CityHash64 of its UTF-8, never 0; a number's under PLACE_BIT,
    a place name's over it), each hashed once while remembered: a table's rows share most tokens
    (3月, 12号, their community's name)."""

    LIMIT = 1 << 16  # tokens remembered (some 10 MB a memo); then forgotten all at once

    def __init__(self, mask: int, bits: int) -> None:
        super().__init__()
        self.mask, self.bits = mask, bits

    def __missing__(self, token: str) -> int:
        if len(self) >= self.LIMIT:
            self.clear()
        value = self[token] = (CityHash64(token.encode("utf-8")) & self.mask) | self.bits
        return value


_NUMBER_HASH = _Hashed(PLACE_BIT - 1, 1)
_PLACE_HASH = _Hashed(ORG_BIT - 1, PLACE_BIT | 1)  # a place name's: ORG_BIT clear
_ORG_HASH = _Hashed(ORG_BIT - 1, PLACE_BIT | ORG_BIT | 1)  # an organisation name's: ORG_BIT set (s45)


def forget() -> None:
    """Empty the number, place and organisation hashes remembered (dedup.text.memos)."""
    for memo in (_NUMBER_HASH, _PLACE_HASH, _ORG_HASH):
        memo.clear()


def number_words(cells: Sequence[Sequence[str]], keep: int = KEEP, places: bool = True) -> np.ndarray:
    """(rows, 1 + keep / 2) uint64: how many distinct number tokens each row's cells have (and
    how many place and organisation names, times 2**32), then the smallest ``keep`` of their 32-bit hashes (never 0;
    a number's under PLACE_BIT, a place name's over it) ascending, two a word, 0-padded;
    ``places`` False: no place names (the numbers as version 2 stores them). Each cell is
    normalised once for both, and the values gathered in one list for one array (session 42)."""
    counts: list[int] = []
    flat: list[int] = []
    pad = [0] * keep
    for parts in cells:
        tokens: set[str] = set()
        named: set[str] = set()
        orgs: set[str] = set()
        for part in parts:
            text = nfkc(part)
            tokens.update(_NUMBER.findall(text))
            if places:
                named |= _places(text)
                orgs |= organisation_tokens(text)
        if not tokens and not named and not orgs:
            counts.append(0)
            flat += pad
            continue
        hashed = sorted({_NUMBER_HASH[t] for t in tokens})
        hashed += sorted({_PLACE_HASH[t] for t in named} | {_ORG_HASH[t] for t in orgs})
        del hashed[keep:]
        counts.append(len(tokens) + ((len(named) + len(orgs)) << 32))
        flat += hashed
        flat += pad[len(hashed):]
    out = np.zeros((len(cells), 1 + keep // 2), np.uint64)
    out[:, 0] = counts
    out[:, 1:] = np.array(flat, np.uint32).reshape(len(cells), keep).view(np.uint64)
    return out

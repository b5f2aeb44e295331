"""Text tables: candidate keys and verification over a row's signature (dedup.text.signature: [content
length, one hash per identity column, MinHash values two a word, distinctive features, numbers]).

Keys (the ``blockName`` of the store), at most 16 a row, however large the table:
- ``bands`` MinHash band keys of ``r`` values each (LSH: a pair of Jaccard 0.75 shares one with
  probability 0.99 at 13 bands of 4, one of 0.5 with 0.56, one of 0.2 almost never);
- exact keys of two identity columns together: the same person refiling with a changed phone or a
  typo still shares name+address; for every content (``long_identity``, issue 22) or short ones only.

Verification (``TextVerifier``): J is the share of equal MinHash values, an estimate of the
contents' Jaccard similarity. A pair of long contents is kept at J >= ``threshold``, or at
J >= ``identity_threshold`` when one identity column is equal (the same person); a pair with a
short content needs J >= ``short_threshold`` (practically the same text, numbers included), or
J >= ``short_identity_threshold`` with an identity column equal. Rule ``distinct`` (off:
``distinct_floor`` = ``threshold``): J >= ``distinct_floor`` and the unshared features' J >= ``distinct_threshold``
(bench/results/topic-recall-i22.md). Rule ``numbers`` (on): the rows' own numbers (dedup.text.numbers,
compared exactly by dedup.index.numbers) keep a long pair at J >= ``numbers_floor`` when both name at
least ``numbers_least`` and share at least ``numbers_share`` of the fewer (a refile of one incident on
a shared topic template), unless both name places, none the same (``numbers_places``, session 41,
bench/results/topic-s41.md); they count against a long pair under ``numbers_sure`` sharing less than
``numbers_against`` of them (another incident at the same place: bench/results/topic-i22-s34.md), a
brief pair (under ``numbers_brief_chars``) less than ``numbers_brief_against`` (bench/results/places2-s36.md);
rule ``places_against`` drops a pair under ``places_against_chars`` naming two other communities or organisations (numtok-s37.md, forms7-s45.md).
Rule ``content_rare_identity`` (zhbar-s39.md): a long pair whose equal identity value the full run saw in at most ``identity_rare_rows`` rows
(no ``GENERIC`` bit) is kept at ``identity_rare_threshold``. ``wide_keys`` (s47): dedup.index.unkeyed. Every decision depends on the two rows alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .anchors import ANCHORLESS, anchor_mask
from .band_columns import KEY_CHUNK, as_u32 as _as_u32, band_count, identity_key, identity_pairs, key_column, value_words
from .minhash import band_keys, column_pairs, key_pairs
from .names import KeyNames, key_names, key_parts, per_row
from .confirm import confirmed
from .numbers import places_unlike, shared_numbers
from .unkeyed import unkeyed_guard

COMPACT_ROWS = 1 << 14  # rows made compact at a time (their low bits' temporaries: about 6 MB)


@dataclass(frozen=True)
class BandScheme:
    identity: int  # identity columns in the signature
    perms: int = 64
    r: int = 4  # MinHash values a band
    short_chars: int = 60
    anchors: int | None = 16  # a bucket's rows are compared with its first this many (dedup.index.anchors); None: all
    long_identity: bool = True  # identity keys for long contents too (False: short ones only, the recipe before)

    @property
    def pairs_of_identity(self) -> tuple[tuple[int, ...], ...]:
        """Which identity columns make each identity key: every two of the first three (one alone if one)."""
        return identity_pairs(self.identity)

    @property
    def bands(self) -> int:
        return band_count(self.identity, self.perms, self.r)

    def values(self, sig: np.ndarray) -> np.ndarray:
        """(rows, perms) uint32 MinHash values (a copy: ``value_words`` is the view)."""
        return np.ascontiguousarray(value_words(self, sig)).view(np.uint32)

    def keys(self, sig: np.ndarray) -> np.ndarray:
        """(rows, m) uint64 keys, 0 where a row has none; made KEY_CHUNK rows at a time, so the
        temporaries stay in cache and the time grows linearly with the rows."""
        sig = np.asarray(sig, dtype=np.uint64)
        out = np.empty((len(sig), self.bands + len(self.pairs_of_identity)), np.uint64)
        for lo in range(0, len(sig), KEY_CHUNK):
            out[lo:lo + KEY_CHUNK] = self._keys(sig[lo:lo + KEY_CHUNK])
        return out

    def _keys(self, sig: np.ndarray) -> np.ndarray:
        out = [band_keys(self.values(sig), self.bands, self.r, valid=sig[:, 0] > 0)]
        out += [identity_key(self, sig, p)[:, None] for p in range(len(self.pairs_of_identity))]
        return np.hstack(out)

    @property
    def labels(self) -> list[str]:
        """Each key column's prefix in a block name."""
        return [f"b{i}:" for i in range(self.bands)] + [f"i{p}:" for p in range(len(self.pairs_of_identity))]

    def names_of(self, sig: np.ndarray, anchored: np.ndarray | None = None) -> list[list[str]]:
        """Each row's block names; with ``anchored`` (rows, m) bool, the entries of rows that are not their bucket's anchors get the ANCHORLESS name."""
        return per_row(*key_names(self.keys(sig), self.labels, None if anchored is None else ~np.asarray(anchored, bool), ANCHORLESS))

    def flat_names(self, keys: np.ndarray, anchored: np.ndarray | None = None) -> tuple[KeyNames, np.ndarray]:
        """The names of ``keys`` (as ``keys``) in row order, flat, as their parts, and each row's count (dedup.index.names)."""
        return key_parts(keys, self.labels, None if anchored is None else ~np.asarray(anchored, bool), ANCHORLESS)

    def offsets(self, keys: np.ndarray, taken: dict[str, int] | None) -> np.ndarray | None:
        """(rows, m) anchors each row's keys already have in the store (``taken``: block name -> count)."""
        if not taken or self.anchors is None:
            return None
        labels = self.labels
        return np.array([[taken.get(f"{labels[c]}{k:016x}", 0) if k else 0 for c, k in enumerate(row)]
                         for row in keys.tolist()], dtype=np.int64).reshape(keys.shape)

    def anchored(self, sig: np.ndarray, taken: dict[str, int] | None = None) -> np.ndarray:
        """(rows, m) bool: which of each row's keys it is an anchor of (rows in key order)."""
        return self.anchored_keys(self.keys(sig), taken)

    def anchored_keys(self, keys: np.ndarray, taken: dict[str, int] | None = None) -> np.ndarray:
        """As ``anchored``, given the rows' keys."""
        if self.anchors is None:
            return np.ones(keys.shape, dtype=bool)
        return anchor_mask(keys, self.anchors, self.offsets(keys, taken))

    def near(self, sig: np.ndarray, taken: dict[str, int] | None = None, keep=None) -> tuple[np.ndarray, np.ndarray]:
        """Index pairs (i < j) of rows (in key order) sharing a key, one of them among its anchors (``keep``: the pairs it lets through, as key_pairs)."""
        if taken and self.anchors is not None:  # the stored anchors' offsets are looked up by every key
            keys = self.keys(sig)
            return key_pairs(keys, self.anchors, self.offsets(keys, taken), keep)
        sig = np.asarray(sig, dtype=np.uint64)
        return column_pairs(lambda c: key_column(self, sig, c), len(sig), self.bands + len(self.pairs_of_identity),
                            self.anchors, None, keep)

    def describe(self) -> str:
        reach = "every content" if self.long_identity else f"contents under {self.short_chars} characters"
        extra = f" + {len(self.pairs_of_identity)} identity keys for {reach}" if self.pairs_of_identity else ""
        anchored = f"; a key's rows are compared with its first {self.anchors}" if self.anchors else ""
        return f"{self.bands} MinHash bands of {self.r} values{extra}{anchored}"


@dataclass(frozen=True)
class TextVerifier:
    identity: int
    threshold: float = 0.75
    identity_threshold: float = 0.45
    short_threshold: float = 0.95
    short_identity_threshold: float = 0.20
    short_chars: int = 60
    distinct_threshold: float = 0.3  # rule ``distinct``: the distinctive features' estimated Jaccard
    distinct_floor: float = 0.75  # ... for a pair whose contents' J is at least this (at threshold: off)
    distinct_shared: int = 4  # ... sharing about this many distinctive features
    distinct_share: float = 0.7  # ... and each row's distinctive features at most this share of its length
    perms: int = 64  # the contents' MinHash values (the distinctive features' follow them)
    numbers_floor: float = 0.75  # rule ``numbers``: a long pair whose contents' J is at least this (at threshold: off)
    numbers_least: int = 4  # ... both rows naming at least this many number tokens
    numbers_share: float = 0.8  # ... and sharing at least this share of the fewer
    numbers_against: float = 0.0  # a long pair under ``numbers_sure`` sharing less than this share of its numbers is not kept
    numbers_sure: float = 1.0  # ... (0.0: the numbers never count against a pair)
    numbers_at: int = 0  # the signature word where the number tokens start (0: none)
    numbers_brief_chars: int = 0  # a long pair whose shorter content is under this many characters ...
    numbers_brief_against: float = 0.0  # ... is not kept under ``numbers_sure`` sharing less than this share (0: off)
    places_against_chars: int = 0  # a long pair, the shorter under this many characters, naming other places: not kept under ``numbers_sure`` (0: off)
    places_need_numbers: bool = True  # ... and only when both name numbers and some differ (s37)
    places_numberless: bool = True  # ... or when neither names a number: organisation names alone (s45, s46 forms8-s46.md)
    places_sure: float = 1.0  # ... under this J (0: ``numbers_sure``; s45: two-character names alone differ at J 0.9+)
    numbers_places: bool = True  # rule ``numbers`` keeps no pair naming places, none the same (s41, results/topic-s41.md)
    identity_rare_threshold: float = 1.0  # rule content_rare_identity's bar (>= identity_threshold: off)
    wide_keys: int = 0  # a pair sharing no band of this many values nor an identity key: plain bars, numbers at one place (0: off; s47)
    confirm: int = 0  # a pair accepted on the content bar alone, under it + ``confirm_margin``: decided again on
    confirm_margin: float = 0.0  # ... this many more values too, from word ``confirm_at`` (0: off; dedup.index.confirm)
    confirm_at: int = 0

    def tokens(self, sig: np.ndarray) -> np.ndarray:
        """The number words of signatures (from ``numbers_at``, before any confirming values)."""
        return sig[:, self.numbers_at:self.confirm_at or None]

    def numbers_alike(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(share, least): the share of the fewer number tokens both rows name, and how many the fewer is (0, 0: none)."""
        if not self.numbers_at:
            return np.zeros(len(a)), np.zeros(len(a), np.int64)
        return self.tokens_alike(self.tokens(a), self.tokens(b))

    @staticmethod
    def tokens_alike(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``numbers_alike`` of the number words alone (the signatures from ``numbers_at`` on)."""
        shared, least = shared_numbers(a, b)
        return np.where(least > 0, shared / np.maximum(least, 1), 0.0), least

    def numbers_agree(self, share: np.ndarray, least: np.ndarray) -> np.ndarray:
        """Rule ``numbers``' condition on the numbers (its bar on J apart): both name at least
        ``numbers_least`` and share at least ``numbers_share`` of the fewer."""
        return (least >= self.numbers_least) & (share >= self.numbers_share - 1e-9)

    def numbers_evidence(self, a: np.ndarray, b: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(for, against) of each long pair of contents' estimated Jaccard ``j``, from one count of their shared numbers: rule
        ``numbers`` keeps it (J >= ``numbers_floor``, both naming at least ``numbers_least``, sharing at least ``numbers_share``
        of the fewer); its numbers count against it (J under ``numbers_sure``, both naming at least ``numbers_least``,
        sharing less than ``numbers_against``), or ``places_differ``."""
        keep, drop = self.numbers_alone(a, b, j)
        keep = keep & ~self.named_elsewhere(a, b, keep)
        return keep, drop | self.places_differ(a, b, j, ~drop)  # the places only where the numbers did not decide

    def named_elsewhere(self, a: np.ndarray, b: np.ndarray, kept: np.ndarray) -> np.ndarray:
        """Of the pairs rule ``numbers`` keeps (``kept``), those naming places, none the same (``numbers_places``)."""
        if not (self.numbers_places and self.numbers_at) or not np.any(kept):
            return np.zeros(len(a), dtype=bool)
        return places_unlike(self.tokens(a), self.tokens(b), False, np.asarray(kept, dtype=bool))

    def numbers_alone(self, a: np.ndarray, b: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``numbers_evidence`` of the numbers alone (the place names left out)."""
        on_for = bool(self.numbers_at) and self.numbers_floor < self.threshold
        on_against = bool(self.numbers_at) and bool(self.numbers_against or self.brief_on)
        if not (on_for or on_against):
            return np.zeros(len(a), dtype=bool), np.zeros(len(a), dtype=bool)
        share, least = self.numbers_alike(a, b)
        named = least >= self.numbers_least
        keep = on_for & (j >= self.numbers_floor) & self.numbers_agree(share, least)
        drop = on_against & (j < self.numbers_sure) & named & (share < self.against_bar(a, b) - 1e-9)
        return np.asarray(keep, dtype=bool), np.asarray(drop, dtype=bool)

    def places_differ(self, a: np.ndarray, b: np.ndarray, j: np.ndarray, where: np.ndarray | bool = True) -> np.ndarray:
        """Rule ``places_against`` (s37, results/numtok-s37.md): a long pair under ``numbers_sure``, the shorter under ``places_against_chars``,
        both naming places (text.numbers.place_tokens), none the same (``places_need_numbers``: numbers too, some not alike)."""
        if not (self.numbers_at and self.places_against_chars):
            return np.zeros(len(a), dtype=bool)
        floor = min(self.threshold, self.identity_threshold, self.identity_rare_threshold, self.distinct_floor, self.numbers_floor)
        maybe = (np.minimum(a[:, 0], b[:, 0]) < self.places_against_chars) & (j < (self.places_sure or self.numbers_sure)) & (j >= floor) & where
        return places_unlike(self.tokens(a), self.tokens(b), self.places_need_numbers, maybe, self.places_numberless)

    @property
    def brief_on(self) -> bool:
        return self.numbers_brief_chars > 0 and self.numbers_brief_against > 0

    def brief(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each pair's shorter content is brief (under ``numbers_brief_chars``): a template of
        a sentence or two, where two incidents share half their small-range numbers by chance."""
        return np.minimum(a[:, 0], b[:, 0]) < self.numbers_brief_chars if self.brief_on else np.zeros(len(a), bool)

    def against_bar(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The share of numbers under which each pair's numbers count against it (session 36: a brief
        pair's bar is ``numbers_brief_against`` when higher; bench/quality/tuning22_brief_sweep.py)."""
        return np.where(self.brief(a, b), max(self.numbers_against, self.numbers_brief_against), self.numbers_against)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Estimated Jaccard similarity of the contents (0 when either has none)."""
        a, b = np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)
        skip = 2 * (1 + self.identity)  # the values, seen as uint32 in place (no copy: it is a verify's hot loop)
        va, vb = _as_u32(a)[:, skip:skip + self.perms], _as_u32(b)[:, skip:skip + self.perms]
        j = np.count_nonzero(va == vb, axis=1) / va.shape[1] if va.shape[1] else np.zeros(len(a))
        return np.where((a[:, 0] > 0) & (b[:, 0] > 0), j, 0.0)

    def distinct_scores(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(D, shared): the distinctive features' estimated Jaccard (0 when either row has none)
        and about how many the two rows share."""
        a, b = np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)
        at, end = 1 + self.identity + self.perms // 2, self.numbers_at or a.shape[1]
        if end <= at + 1:
            return np.zeros(len(a)), np.zeros(len(a))
        na, nb = a[:, at].astype(np.float64), b[:, at].astype(np.float64)
        va, vb = _as_u32(a)[:, 2 * (at + 1):2 * end], _as_u32(b)[:, 2 * (at + 1):2 * end]
        d = np.where((na > 0) & (nb > 0), np.count_nonzero(va == vb, axis=1) / va.shape[1], 0.0)
        return d, d / (1 + d) * (na + nb)

    def by_details(self, a: np.ndarray, b: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether rule ``distinct`` keeps each long pair of contents' estimated Jaccard ``j``."""
        d, shared = self.distinct_scores(a, b)
        return (j >= self.distinct_floor) & (d >= self.distinct_threshold) & (shared >= self.distinct_shared - 1e-9) \
            & self.mostly_shared(a) & self.mostly_shared(b)

    def mostly_shared(self, sig: np.ndarray) -> np.ndarray:
        """Whether a row's distinctive features are at most ``distinct_share`` of its cleaned length: its text is mostly
        what the table shares (a template), so the whole-text J understates how alike its own details are. A row of
        its own words (a small table, where nothing is common yet) is judged on the whole-text bars alone."""
        at = 1 + self.identity + self.perms // 2
        if (self.numbers_at or self.confirm_at or sig.shape[1]) <= at:
            return np.zeros(len(sig), dtype=bool)
        return sig[:, at].astype(np.float64) <= self.distinct_share * sig[:, 0].astype(np.float64)

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(pairs, 1 + identity): the contents' estimated Jaccard, then 1/0 for each identity column equal or not (NaN where either row lacks it)."""
        a, b = np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)
        ia, ib = a[:, 1:1 + self.identity], b[:, 1:1 + self.identity]
        same = np.where((ia != 0) & (ib != 0), (ia == ib).astype(float), np.nan)
        return np.hstack([self.scores(a, b)[:, None], same])

    def persons(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(same, rare): any identity column equal (and present); one equal with a rare value (no GENERIC bit; all False
        with rule content_rare_identity off). A column at a time, in one pass."""
        same, rare = np.zeros(len(a), dtype=bool), np.zeros(len(a), dtype=bool)
        counted = self.identity_rare_threshold < self.identity_threshold
        for c in range(1, 1 + self.identity):
            equal = (a[:, c] == b[:, c]) & (a[:, c] != 0)
            same |= equal
            if counted:
                rare |= equal & ((a[:, c] & GENERIC) == 0)
        return same, rare

    RULES = {"content": ("content", "threshold"),
             "content_identity": ("content with an identity field equal", "identity_threshold"),
             "content_rare_identity": ("content with a rare identity value equal", "identity_rare_threshold"),
             "short": ("short text", "short_threshold"), "short_identity": ("short text with an identity field equal", "short_identity_threshold"),
             "distinct": ("content with its distinctive details alike", "distinct_threshold"),
             "numbers": ("content with its numbers alike", "numbers_floor"),
             "numbers_against": ("content with its numbers unlike", "numbers_against"),
             "numbers_brief_against": ("brief content with its numbers unlike", "numbers_brief_against"),
             "places_against": ("content naming other places", "places_against_chars"),
             "unkeyed": ("content only narrow bands find (plain bars or numbers at one place)", "threshold")}

    def rules(self, a: np.ndarray, b: np.ndarray) -> list[str]:
        """The rule that decides each pair (a key of RULES): the one that accepted it, or for a pair not accepted, the
        lowest bar it had to reach (with an identity field equal: that rule's; ``unkeyed``: the s47 guard refused it)."""
        a, b = np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)
        j = self.scores(a, b)
        same, rare = (x.tolist() for x in self.persons(a, b))
        short = np.minimum(a[:, 0], b[:, 0]) < self.short_chars
        details = self.by_details(a, b, j) & ~short
        numbers, by_numbers = self.numbers_alone(a, b, j)  # numbers_evidence's two parts, kept apart to name them
        by_places = self.places_differ(a, b, j, ~by_numbers)  # the numbers named first
        elsewhere = (self.named_elsewhere(a, b, numbers) & ~short).tolist()  # rule numbers' bar reached, other places
        numbers &= ~short
        unlike, places = ((by_numbers | by_places) & ~short).tolist(), by_places.tolist()
        brief = (self.against_bar(a, b) > self.numbers_against).tolist()  # the brief bar was the higher one
        out = []
        for n, (x, s, sh, dt, nu) in enumerate(zip(j.tolist(), same, short.tolist(), details.tolist(),
                                                   numbers.tolist())):
            plain, with_id = ("short", "short_identity") if sh else ("content", "content_identity")
            low = self.identity_rare_threshold if rare[n] and not sh else self.identity_threshold
            if unlike[n] and (x >= self.threshold or s and x >= low or dt or nu):
                out.append("places_against" if places[n] else "numbers_brief_against" if brief[n]
                           else "numbers_against")  # the bar it reached, overruled
            elif x >= getattr(self, self.RULES[plain][1]):
                out.append(plain)
            elif s and x >= getattr(self, self.RULES[with_id][1]):
                out.append(with_id)
            elif rare[n] and not sh and x >= self.identity_rare_threshold:
                out.append("content_rare_identity")
            else:
                out.append("distinct" if dt else "places_against" if elsewhere[n] else "numbers" if nu
                           else with_id if s else plain)
        return ["unkeyed" if g else r for r, g in zip(out, (self._verdict(a, b, j) & ~self(a, b)).tolist())] if self.wide_keys else out

    def compact(self, sig: np.ndarray) -> np.ndarray | None:
        """(rows, words) uint64 of what ``screen`` reads, a seventh of a signature's bytes: 16-bit fields four a word
        (the length, capped; each identity word's low bits, odd, 0 where absent: equal words stay equal), then the low
        4 bits of each MinHash value, 16 a word. None where a capped length could not tell a short content from a long
        one. COMPACT_ROWS rows at a time (all rows' low bits at once: 0.4 KB a demo row, a run's peak; issue 26)."""
        if self.short_chars >= _FIELD:
            return None
        sig = np.asarray(sig, dtype=np.uint64)
        return np.concatenate([self._compact(sig[lo:lo + COMPACT_ROWS]) for lo in range(0, max(len(sig), 1), COMPACT_ROWS)])

    def _compact(self, sig: np.ndarray) -> np.ndarray:
        ids = sig[:, 1:1 + self.identity]
        fields = [np.minimum(sig[:, 0], _FIELD), *(np.where(c != 0, (c & _FIELD) | 1, 0) for c in ids.T)]
        fields += [np.zeros(len(sig), np.uint64)] * (-len(fields) % 4)
        head = [f0 | f1 << _U(16) | f2 << _U(32) | f3 << _U(48) for f0, f1, f2, f3 in zip(*[iter(fields)] * 4)]
        skip = 2 * (1 + self.identity)
        low = (_as_u32(sig)[:, skip:skip + self.perms] & 0xF).astype(np.uint8)
        low = np.pad(low, ((0, 0), (0, -self.perms % 16)))  # to whole words; the pads are equal, ``screen`` takes them off
        codes = np.ascontiguousarray(low[:, 0::2] | low[:, 1::2] << np.uint8(4)).view(np.uint64)
        return np.hstack([np.stack(head, axis=1), codes])

    def screen(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which pairs of ``compact`` rows may pass ``__call__``: a necessary condition, so a pair it drops is a pair
        ``__call__`` rejects. Equal values have equal low bits, so the count of equal 4-bit codes is at least the count
        of equal values that J is made of, and equal identity words have equal fields; a pair whose count is under the
        lowest bar it could pass on (its lengths and identity fields say which bars apply; rules ``distinct`` and
        ``numbers`` lower a long pair's) passes on none. Issue 26: of a template-rich table's millions of candidates, nearly all stop here."""
        head = (1 + self.identity + 3) // 4

        def field(rows: np.ndarray, f: int) -> np.ndarray:
            return rows[:, f // 4] >> _U(16 * (f % 4)) & _FIELD

        same = np.zeros(len(a), dtype=bool)
        for f in range(1, 1 + self.identity):
            fa = field(a, f)
            same |= (fa == field(b, f)) & (fa != 0)
        x = a[:, head:] ^ b[:, head:]
        low3 = _U(0x7777777777777777)
        zero = ~(((x & low3) + low3) | x) & _U(0x8888888888888888)  # the top bit of each zero nibble (no carries)
        equal = np.bitwise_count(zero).sum(axis=1, dtype=np.int64) - (-self.perms % 16)
        la, lb = field(a, 0), field(b, 0)
        floor = min(self.threshold, self.distinct_floor, self.numbers_floor if self.numbers_at else self.threshold)
        bar = np.where(np.minimum(la, lb) < self.short_chars,
                       np.where(same, min(self.short_identity_threshold, self.short_threshold), self.short_threshold),
                       np.where(same, min(self.identity_threshold, self.identity_rare_threshold, floor), floor))
        return (la > 0) & (lb > 0) & (equal > 0) & (equal / self.perms >= bar)

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a, b = np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)
        j = self.scores(a, b)
        ok = self._verdict(a, b, j)
        return unkeyed_guard(self, a, b, j, ok) if self.wide_keys else ok

    def _verdict(self, a: np.ndarray, b: np.ndarray, j: np.ndarray) -> np.ndarray:
        same, rare = self.persons(a, b)
        short = np.minimum(a[:, 0], b[:, 0]) < self.short_chars
        by_numbers, unlike = self.numbers_evidence(a, b, j)
        other = (same & (j >= self.identity_threshold)) | self.by_details(a, b, j) | by_numbers | rare & (j >= self.identity_rare_threshold)
        plain = (j >= self.threshold) & ~other & ~short
        long_ok = (plain & confirmed(self, a, b, j, plain) | other) & ~unlike
        short_ok = (j >= self.short_threshold) | (same & (j >= self.short_identity_threshold))
        return (j > 0) & np.where(short, short_ok, long_ok)


_U = np.uint64
_FIELD = _U(0xFFFF)  # a 16-bit field of ``compact``
GENERIC = _U(1 << 63)  # an identity word's bit: the full run saw its value in more than identity_rare_rows rows


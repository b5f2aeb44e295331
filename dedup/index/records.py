"""Candidate keys and verification of record rows (rows of short fields) from their signature words.

The words are dedup.text.records.RecordSignature's: per field ``1 + k/4`` uint64 words, the value
hash (0 = empty) then ``k`` 16-bit MinHash values of the value's character bigrams.

What a key may be is decided from the whole table by the full run (``learn``) and frozen
(``with_learned``). The measure is a key's *expected partners*: how many other rows a row meets
in its key's bucket on average, (sum over values of count^2 - filled) / filled, from the learned
sum of squared value counts. A field whose expected partners are at most ``max_partners`` (an id,
a phone, a street address; a date of birth in a small table) is a *key field* and keys its rows by
exact value; two other fields together (surname + date of birth) are a *pair key* under the same
cap. The cap is a number of rows, not a share of the table, so candidates per row stay flat as the
table grows: a bounded field (dates, 10 values) drops out of the keys once its buckets fill up,
and a pair key of a common given name and a postcode is not taken because its buckets are hot
(skewed values count by their squares). A field of few values (gender, a status) is never a key
by itself. A row whose every key field has a typo is still found by ``bands`` MinHash band keys
over the union of its key fields' bigrams, each kept under the same cap (measured by the full
run: bands collide more often the more rows there are, so a large table drops them). Any single
key value the full run saw in more than ``max_bucket`` rows (a placeholder phone) makes no pairs:
up to ``MAX_HOT`` of them a key are learned and reported (``hot``), and a key's expected partners
are those of its other values (a placeholder does not cost a phone column its key). Nothing
depends on which rows are present, so a full run followed by an incremental one gives the keys,
pairs and verdicts of one full run (a value that only becomes hot in incremental runs is not
switched off until the next full run).

The floor (issue 22): the cap counts a row's own copies as partners, so a table whose people are each
entered several times (1 to 5 copies) fills every bucket with copies and the learning finds no key field
at all. When it finds fewer than ``floor_exact`` fields of at most ``floor_below`` expected partners
(copies fill an id's buckets too: 1.8 partners with 60 % of people copied), the floor is used: up to
``floor_exact`` fields, ``floor_pairs`` pair keys (pairs of fields that share no field first: given name
+ surname, street + suburb, ...) and ``floor_bands`` bands, fewest expected partners first, as long as
the partners of each kind together stay within ``floor_partners`` (a budget in rows, so candidates per
row are bounded as the table grows), besides whatever the cap took (the floor's pair keys may outnumber
``max_pairs``, within MAX_KEYS keys a row); hot values are switched off as for every key; no floor key
may expect ``floor_each`` partners more than the best field (an id meets a row's copies; the rest is
chance, which grows with the table), so candidates a row stay bounded. A table whose learning finds its
key fields still gets a light floor: the floor's pair keys and bands within the much smaller budget
``floor_light``, besides the ``max_pairs`` pair keys under the cap (with 20 % of people copied, the id
and the birth date pass the trigger and the capped pair keys all held the given name: 3-5 % of true
pairs were never candidates; the light floor adds street + suburb, address + postcode and the like only
while their buckets stay small, so a table of clean keys, the training persons, is keyed as before).
No field may be in more than ``floor_share`` of the floor's pair keys (s45): at 20,000 copied persons
the cheapest ten all held the given name or the surname, so a copy with a typo in both that kept its
street number and postcode was never a candidate (half the missed true pairs there).

Verification goes field by field: equal values score 1; unequal ones score their estimated bigram Dice
when the field is distinctive (``similar_ratio``: a typo in a name or a phone), else 0 (a different
gender is simply different); two fields whose values a pair holds crosswise (given name and surname
entered the wrong way round: f of one row equals g of the other and g equals f) score as equal
(``swaps``); a field empty in either row drops out. Each field's say is log2 of its distinct values
(agreeing on a 2-valued field says one bit), *less what an agreeing field already told*: columns that
co-vary (the address columns and the phone of a household, a city inside a district) are not independent
evidence, and counted as such they make a family look like one person entered twice. ``redundancy()[f,
g]`` is how much likelier than chance two *different* people agreeing on g agree on f too, (P(f | g) -
P(f)) / (1 - P(f)), from agreeing row pairs the full run counted (sums of squared value counts of single
fields and pairs of fields) among pairs whose best key field (an id number) differs even in its first
MinHash value, so that they are almost all different people: among all pairs agreeing on a phone most
are duplicates and agree on everything, which would make the birth date look implied by the phone.
Fields are taken in order of their say; a field's weight in a pair (for and against) is cut by
``linked`` times its largest redundancy on an earlier field, or (``joint``) on two earlier fields
together, that agree exactly in that pair: weight * (1 - linked * max red). Street name alone rarely
tells a household, street name and suburb together do (dedup.index.record_redundancy): on the tuning
persons with families this took precision from 0.984-0.993 to 0.996-0.998
(bench/results/persons-i22-s34.md). The weighted mean is kept when it reaches ``threshold``. A
distinctive field filled in both rows and clearly different may weigh more than once (``against``,
dedup.index.record_fields: a family member's own birth date and name).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

from .minhash import EMPTY, band_keys, combine, key_pairs
from .names import key_names, per_row
from .record_verdicts import field_scores, weighed
from .record_keys import MAX_HOT, choose, counts as _counts, partners as _partners, within_share
from .record_redundancy import APART, JOINT_FIELDS, agreements, redundancy
from .record_say import SAYS, bits

U64 = np.uint64
MAX_KEYS = 16
STAT_FIELDS = 16    # pair statistics among this many fields at most (the most distinct)
_LOW16 = U64(0xFFFF)


@dataclass(frozen=True)
class RecordScheme:
    """Keys and verdicts over ``fields`` fields of ``k`` MinHash values each (see the module doc).

    Defaults chosen by bench/quality/records/sweep.py on the training persons
    (bench/datasets/records/training.py) only; the floor's by bench/quality/records/sweep_floor.py on those
    and bench/datasets/records/copies.py, its trigger ``floor_below`` by bench/quality/records/sweep_gather.py
    (1.5: 1.0 and 0.5 score the same but key a 20,000-row training table by the floor too, twice the
    candidates); ``swaps`` by bench/quality/records/where.py (bench/results/persons-fs-i22.md); ``joint`` by
    bench/quality/records/sweep_joint.py (bench/results/persons-i22-s34.md); ``floor_light`` (6 expected
    partners) and ``floor_pairs`` (12, all the room two key fields and two bands leave) by
    bench/quality/records/sweep_init.py through the config `dedup init` writes (bench/results/persons-s35.md:
    floor_light 4 left the 20 %-copied 10,000-row table at F1 0.986, 6 0.991, the other tables keyed alike,
    though with every field ``short``, gender and status among them, 6 tripled the candidates of the
    20,000-row training table; floor_pairs 10 -> 12 floored copies 20,000-40,000 rows 0.990 -> 0.991-0.992 for
    1 % more candidates); ``floor_each`` (1.5) by sweep_init --sets growth (bench/results/persons-s36.md:
    candidates a row halved, F1 alike). ``against*`` by bench/quality/records/sweep_against.py
    (bench/results/persons-s42.md); ``floor_share`` (5; 2-4 cost a family set precision) by the same
    sweep (bench/results/persons3-s45.md).
    """

    fields: int
    k: int = 8
    threshold: float = 0.675
    max_partners: float = 2.0    # expected other rows in a key's bucket, for a key field or a pair key
    min_key_distinct: int = 12   # and at least this many distinct values (tiny tables)
    similar_ratio: float = 0.01  # distinct / non-empty for a field whose typos still score
    linked: float = 1.0          # how much of a field's redundancy with an agreeing field is taken off
    max_exact: int = 8           # exact keys at most (the fewest partners)
    max_pairs: int = 4           # pair keys at most (the fewest partners)
    bands: int = 2               # band keys of r values each, over the key fields' union MinHash
    r: int = 4
    max_bucket: int = 200        # a key value of more rows than this makes no pairs (learned, reported)
    floor_exact: int = 2         # the floor: at least this many key fields,
    floor_pairs: int = 12        # pair keys (more than max_pairs when the floor is in use, within MAX_KEYS)
    floor_bands: int = 2         # and band keys, whatever max_partners left,
    floor_partners: float = 20.0  # expected partners of the floor keys of each kind together (a budget)
    floor_below: float = 1.5     # the floor is off when floor_exact fields have at most this many partners
    swaps: bool = True           # two fields whose values the pair holds crosswise score as equal
    joint: bool = True           # redundancy given two agreeing fields too (dedup.index.record_redundancy)
    floor_light: float = 6.0     # the floor's budget when it is not in use (0: no floor keys then)
    floor_each: float = 1.5      # a floor key's expected partners at most this many more than the best field's
    floor_share: int = 5         # no field in more than this many of the floor's pair keys (0: off; s45)
    floor_spread: float = -1.0   # >= 0: keys the share brings in at most this many partners over the best field (s46)
    floor_room: int = 0          # > 0: the capped keys that fill the floor's room keep each field in at most this many (s46)
    guard: float = -1.0          # >= 0: a pair needs a distinctive field scoring this (record_fields.shared; s46)
    say: str = "distinct"        # a field's bits: by "distinct" values, "chance" of agreeing, their "mean" (record_say)
    against: float = 1.0         # a distinctive field filled and unlike weighs this many times (record_fields)
    against_below: float = 0.0   # unlike: scoring under this
    against_top: int = 3         # distinctive: the fields of most say
    against_needs: int = 1       # only in pairs with at least this many such fields
    against_agree: int = MAX_KEYS  # and at most this many distinctive fields equal
    initial: int = 0             # a value this short, same first character: not against; scores initial_score
    initial_score: float = 0.0
    against_near: int = -1       # >= 0: a value of one first letter and this near a length: not against
    against_agree_at: float = 1.0  # a distinctive field agrees scoring this much (against_agree)
    odd: float = -1.0            # >= 0: a row unlike all a group's rows agreeing this well is kept out (record_odd)
    odd_ways: int = 7            # where (bits): 1 the lone link's row, 2 the joining row, 4 a gathered row
    odd_unlike: int = 1          # on at least this many distinctive fields
    strip: int = 0               # > 0: a lone link where a row misses this many distinctive fields needs
    strip_agree: int = 2         # this many of them agreeing, scoring
    strip_at: float = 0.8        # this much (record_odd.stripped_pair; s47, with odd >= 0)
    strip_held: bool = False     # or all the distinctive fields both rows hold, when fewer
    strip_unlike: float = -1.0   # >= 0: only where some field both rows hold scores under this
    strip_key: bool = False      # one distinctive key field agreeing is enough
    learned: dict | None = field(default=None, compare=False)
    field_weights: tuple[float, ...] | None = None  # the configured weights (None: all 1)

    def __post_init__(self):
        if self.fields < 1 or self.k % 4 or self.bands * self.r > self.k or self.say not in SAYS:
            raise ValueError(f"RecordScheme: need fields >= 1, k a multiple of 4, bands * r <= k and say one of {SAYS}")
        if self.max_exact + self.max_pairs + self.bands > MAX_KEYS:
            raise ValueError(f"RecordScheme: at most {MAX_KEYS} keys a row")

    @property
    def per_field(self) -> int:
        return 1 + self.k // 4

    def hashes(self, sig: np.ndarray) -> np.ndarray:
        """(rows, fields) value hashes (0 = empty)."""
        return np.asarray(sig, U64)[:, ::self.per_field][:, :self.fields]

    # -- what the full run learns ------------------------------------------------------------------

    def learn(self, sig: np.ndarray) -> dict:
        """Per field its non-empty, distinct and squared-count sums, the same for pairs of fields
        (the STAT_FIELDS most distinct), the agreeing pairs that tell the redundancy of fields (see
        ``redundancy``), and the key values held by more than ``max_bucket`` rows: JSON-able,
        stored by the full run, reused by incremental runs."""
        sig = np.asarray(sig, U64)
        h = self.hashes(sig)
        cap = self.max_bucket
        per = [_counts(h[:, f], cap) for f in range(self.fields)]
        filled, distinct, squares, hot_filled, hot_squares = ([p[i] for p in per] for i in range(5))
        stat = sorted(sorted(range(self.fields), key=lambda f: (-distinct[f], f))[:STAT_FIELDS])
        learned = {"rows": int(h.shape[0]), "filled": filled, "distinct": distinct, "squares": squares,
                   "hot_filled": hot_filled, "hot_squares": hot_squares,
                   "pairs": [[a, b, *_counts(combine(h[:, a], h[:, b], a * 1000 + b), cap)]
                             for a, b in combinations(stat, 2)], "hot": []}
        ref = self.with_learned(learned).key_fields()[:1]
        if ref and self.linked:
            live = h[:, ref[0]] != 0
            like = self.field_values(sig[live], ref[0])[:, :APART] + U64(1)  # its first MinHash values
            top = sorted(sorted(stat, key=lambda f: (-distinct[f], f))[:JOINT_FIELDS]) if self.joint else None
            learned.update(agreements(h[live], like, ref[0], stat, top))
        bands = self.with_learned(learned)._band_keys(sig, h)
        learned["bands"] = [[_counts(bands[:, c], cap)[i] for i in (0, 2, 3, 4)] for c in range(bands.shape[1])]
        keys = self.with_learned(learned).keys(sig)
        for c in range(keys.shape[1]):
            values, counts = np.unique(keys[keys[:, c] != 0, c], return_counts=True)
            hot = np.argsort(-counts, kind="stable")[:MAX_HOT]
            learned["hot"] += [[f"{int(values[x]):016x}", int(counts[x])] for x in hot[counts[hot] > cap]]
        learned["hot"].sort(key=lambda vc: (-vc[1], vc[0]))
        return learned

    def with_learned(self, learned: dict) -> RecordScheme:
        if len(learned["filled"]) != self.fields:
            raise ValueError(f"learned counts are for {len(learned['filled'])} fields, not {self.fields}")
        return replace(self, learned=learned)

    def _learned(self) -> dict:
        if self.learned is None:
            raise ValueError("RecordScheme has learned nothing: call with_learned(learn(sig)) first")
        return self.learned

    def _field_partners(self) -> dict[int, float]:
        """Expected partners of each field that may be a key field (enough distinct values)."""
        lr = self._learned()
        stats = list(zip(lr["filled"], lr["distinct"], lr["squares"], lr["hot_filled"], lr["hot_squares"]))
        return {f: _partners(*(stats[f][i] for i in (0, 2, 3, 4)))
                for f in range(self.fields) if stats[f][1] >= self.min_key_distinct}

    def floored(self) -> bool:
        """Whether the floor is in use: the learning found fewer than ``floor_exact`` fields of at
        most ``floor_below`` expected partners (a table whose people are each entered several times:
        their copies fill every bucket; with 60 % of people copied an id number and a birth date
        still pass the cap of 2 at 1.8 partners, and keyed on them alone a third of the copies that
        damaged both were never candidates)."""
        bar = min(self.max_partners, self.floor_below)
        return sum(p <= bar for p in self._field_partners().values()) < self.floor_exact

    def _floor(self, floor: int) -> tuple[int, float, float]:
        """(keys, budget, cap of each key) of the floor: the whole budget when it is in use, else
        ``floor_light``. A key may have at most ``floor_each`` expected partners more than the best
        field (an id: its partners are the row's own copies), so what a floor key meets by chance,
        which grows with the table, stays bounded key by key."""
        each = self.floor_each + min(self._field_partners().values(), default=0.0)
        if self.floored():
            return floor, self.floor_partners, each
        return (floor, self.floor_light, each) if self.floor_light else (0, 0.0, 0.0)

    def key_fields(self) -> list[int]:
        """The fields that key rows by exact value, fewest expected partners first (the floor's
        first when it is in use)."""
        return choose(self._field_partners(), self.max_partners, *self._floor(self.floor_exact))[:self.max_exact]

    def pair_keys(self) -> list[tuple[int, int]]:
        """Pairs of fields that are not key fields whose combination is a key, fewest partners first
        (the floor's first when it is in use)."""
        keyf = set(self.key_fields())
        part = {(a, b): _partners(n, s, hn, hs) for a, b, n, d, s, hn, hs in self._learned()["pairs"]
                if a not in keyf and b not in keyf and d >= self.min_key_distinct}
        _, budget, each = self._floor(self.floor_pairs)
        if not budget:
            return choose(part, self.max_partners)[:self.max_pairs]
        wide = self._field_partners()  # the floor pairs only fields of many values (not gender + status)
        spread = self.floor_spread + min(wide.values(), default=0.0) if self.floor_spread >= 0 else math.inf
        floor = choose({k: v for k, v in part.items() if set(k) <= set(wide)}, 0.0, self.floor_pairs, budget, each,
                       self.floor_share, spread)
        capped = [k for k in choose(part, self.max_partners) if k not in floor]
        if self.floored():
            room = min(max(self.max_pairs, self.floor_pairs), MAX_KEYS - len(keyf) - self.bands)
            if self.floor_room:
                capped = within_share(floor, capped, self.floor_room)
            return (floor + capped)[:room]
        # the light floor: its keys, then max_pairs capped ones besides them (those of a table without it among them)
        return (floor + capped[:self.max_pairs])[:MAX_KEYS - len(keyf) - self.bands]

    def hot(self) -> list[tuple[str, int]]:
        """The key values (hex) the full run saw in more than ``max_bucket`` rows, with their rows,
        most first: they make no pairs."""
        return [(v, c) for v, c in self._learned().get("hot", [])]

    def weights(self) -> np.ndarray:
        """Each field's say: its configured weight times the bits an agreement on it tells (dedup.index.record_say)."""
        configured = np.array(self.field_weights) if self.field_weights is not None else 1.0
        return configured * bits(self._learned(), self.say)

    def redundancy(self) -> np.ndarray:
        """(fields, fields): [f, g] how much likelier than chance two different people agreeing on
        g agree on f too (dedup.index.record_redundancy), 0 where not learned."""
        return redundancy(self._learned(), self.fields)

    def similar(self) -> np.ndarray:
        lr = self._learned()
        return np.array([n > 0 and d >= self.similar_ratio * n and d >= 3
                         for n, d in zip(lr["filled"], lr["distinct"])])

    # -- keys --------------------------------------------------------------------------------------

    def keys(self, sig: np.ndarray) -> np.ndarray:
        """(rows, m) uint64 keys, 0 = none (or a learned hot value); m <= 16 and fixed by what was
        learned."""
        sig = np.asarray(sig, U64)
        h = self.hashes(sig)
        keyf = self.key_fields()
        cols = [combine(h[:, f], np.full(len(h), f + 1, U64), 0x6B6579) for f in keyf]
        cols += [combine(h[:, a], h[:, b], a * 1000 + b) for a, b in self.pair_keys()]
        bands = self.band_keys()
        if bands:
            cols += list(self._band_keys(sig, h)[:, bands].T)
        if not cols:
            return np.zeros((len(h), 0), U64)
        keys = np.stack(cols, axis=1)
        hot = self.hot()
        if hot:
            keys[np.isin(keys, np.array([int(v, 16) for v, _ in hot], U64))] = 0
        return keys

    def band_keys(self) -> list[int]:
        """The band keys in use: those whose expected partners the full run measured to be at most
        ``max_partners`` (MinHash bands collide more often the more rows there are), and the
        floor's when it is in use."""
        part = {c: _partners(*stats) for c, stats in enumerate(self._learned().get("bands", []))}
        return sorted(choose(part, self.max_partners, *self._floor(self.floor_bands)))

    def _band_keys(self, sig: np.ndarray, h: np.ndarray) -> np.ndarray:
        """(rows, bands) MinHash band keys over the union of the key fields' bigrams (0: none)."""
        keyf = self.key_fields()
        if not keyf or not self.bands:
            return np.zeros((len(h), 0), U64)
        values = np.full((len(h), self.k), EMPTY, np.uint32)
        for f in keyf:
            mine = self.field_values(sig, f).astype(np.uint32)
            mine[h[:, f] == 0] = EMPTY
            values = np.minimum(values, mine)
        return band_keys(values, self.bands, self.r, (h[:, keyf] != 0).any(axis=1))

    def names_of(self, sig: np.ndarray) -> list[list[str]]:
        """Per row the block names of its keys: ``r{column}:{key:016x}``."""
        keys = self.keys(sig)
        return per_row(*key_names(keys, [f"r{c}:" for c in range(keys.shape[1])]))

    def near(self, sig: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Row pairs (i < j, each once) sharing any key."""
        return key_pairs(self.keys(sig))

    # -- verification ------------------------------------------------------------------------------

    def field_values(self, sig: np.ndarray, f: int) -> np.ndarray:
        """(rows, k) uint64 16-bit MinHash values of field ``f``."""
        words = sig[:, f * self.per_field + 1:(f + 1) * self.per_field]
        return np.stack([(words[:, j // 4] >> U64(16 * (j % 4))) & _LOW16 for j in range(self.k)], axis=1)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Weighted mean field similarity of aligned rows ``a`` and ``b`` (pairs, words), each
        field's weight cut by its redundancy with earlier agreeing fields (the module doc); NaN
        when no field is filled in both (dedup.index.record_verdicts)."""
        return weighed(self, a, b)[0]

    def pair_weights(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(pairs, fields): each field's weight in each pair's score, after the redundancy cut (0
        where either row lacks the field); score = sum(weight * field score) / sum(weight)."""
        return weighed(self, a, b)[1]

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(pairs, fields): each field's score as ``scores`` counts it, NaN where either row lacks the field."""
        return field_scores(self, a, b)

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Which aligned pairs are the same record: score >= threshold."""
        s = self.scores(a, b)
        return np.nan_to_num(s, nan=-1.0) >= self.threshold

    __call__ = verify  # a verifier like the others: (a, b) -> keep mask

    def verify_pairs(self, sig: np.ndarray, i: np.ndarray, j: np.ndarray, chunk: int = 100_000) -> np.ndarray:
        """``verify(sig[i], sig[j])`` a chunk of pairs at a time, so memory stays bounded however
        many candidate pairs there are."""
        out = np.zeros(len(i), bool)
        for s in range(0, len(i), chunk):
            out[s:s + chunk] = self.verify(sig[i[s:s + chunk]], sig[j[s:s + chunk]])
        return out

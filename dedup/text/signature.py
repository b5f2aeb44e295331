"""A text row's signature: what the candidate search and the verifier of a text table compare.

Beside its SimHash fingerprint each row keeps a few uint64 words (stored with the fingerprint):

- word 0: the length of its cleaned content (short complaints are judged differently);
- one word per identity column (name, phone, address...): a hash of the cleaned whole value,
  0 when it is empty or common; with rule content_rare_identity on, its top bit (bands.GENERIC)
  says the full run saw the value in more than ``match.identity_rare_rows`` rows;
- ``perms / 2`` words: the weighted MinHash values (uint32, two a word) of the content's
  features: character 3-grams, Latin-script words and numbers (dedup.text.content), the features
  many rows share weighing less (dedup.text.rarity);
- only when rule distinct is on (``distinct_perms`` > 0), one word: how many of the content's features are *distinctive* (not common in the table:
  places, numbers, the wording that tells one complaint from another on the same topic);
- ``distinct_perms / 2`` words: the plain MinHash values of those distinctive features alone.
  The verifier's second measure (dedup.index.bands.TextVerifier, rule ``distinct``): two
  neighbours' rewordings of one incident share its place and numbers though their whole texts
  are under the bar, while two complaints on one topic at other places share only the common
  template, which this measure leaves out. A sketch, not the features: the store keeps only
  signatures, so the second measure is estimated like the first, in full and incremental runs alike;
- only when rule numbers is on (``numbers`` > 0), one word: how many distinct number tokens the
  content has (a digit run with its unit: dedup.text.numbers), then the smallest ``numbers`` of
  their 32-bit hashes, two a word: the row's own numbers, stored whole, not learned from the table;
- only when ``confirm`` > 0, ``confirm / 16`` words: more weighted MinHash values of the same features
  (their own seed), their low 4 bits alone (dedup.index.confirm), read only to decide a pair accepted
  on the content bar near it (issue 22, bench/results/forms9-s47.md: 64 values at the bar err by
  0.05; forms10-s47.md: 4 bits, issue 26's memory); last, so no other word moves.

The content is the table's ``text`` fields (those not marked ``match: none``); identity columns
are its short fields. Computed for a whole batch in the worker that featurises it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from cityhash import CityHash64

from ..index import confirm as confirming
from ..index.bands import GENERIC
from ..index.minhash import minhash, weighted_minhash
from . import shingles
from .content import CONTENT_VERSION, content_features
from .normalize import value_to_text
from .numbers import NUMBERS_VERSION, number_words

SEED = 1  # the MinHash permutations' seed (part of the version stamp)
DISTINCT_SEED = 2  # the distinctive features' permutations
DISTINCT_PERMS = 32  # their MinHash values when rule distinct is on
CONFIRM_SEED = 3  # the permutations of the values that confirm a pair near the content bar
CONFIRM_ROWS = 4096  # rows whose confirming values are made at once (then kept as codes)


@dataclass(frozen=True)
class TextSignature:
    content: tuple[str, ...]  # columns whose text is shingled
    identity: tuple[str, ...]  # columns compared as whole values
    perms: int = 64  # MinHash values per row (even)
    n: int = 3  # characters per shingle
    number_copies: int = 2  # features per digit run
    digits: str = "keep"  # digit runs inside the n-grams as written (keep) or folded to one 0 (fold)
    distinct_perms: int = 0  # MinHash values of the distinctive features (even; 0, rule distinct off as shipped: no such words)
    distinct_weight: float = 1.0  # a feature weighing at least this (dedup.text.rarity) is distinctive
    numbers: int = 0  # number tokens kept a row (even; 0: rule numbers off, no such words)
    confirm: int = 0  # MinHash values kept (as 4-bit codes) to confirm a pair near the content bar (a multiple of 16; 0: none)

    @property
    def words(self) -> int:
        return self.confirm_at + self.confirm // confirming.A_WORD

    @property
    def confirm_at(self) -> int:
        """The first word of the confirming values (after the number words)."""
        return self.numbers_at + (1 + self.numbers // 2 if self.numbers else 0)

    @property
    def numbers_at(self) -> int:
        """The word holding the number of number tokens (their hashes follow)."""
        return self.distinct_at + (1 + self.distinct_perms // 2 if self.distinct_perms else 0)

    @property
    def distinct_at(self) -> int:
        """The word holding the number of distinctive features (their MinHash values follow)."""
        return 1 + len(self.identity) + self.perms // 2

    def of_rows(self, rows: Sequence[Mapping[str, object]], model=None, identity=None) -> np.ndarray:
        """(len(rows), words) uint64 signatures, the content features weighed by ``model``
        (dedup.text.rarity.ContentModel; None: all weigh 1), ``identity`` as for ``finish``."""
        return self.finish(*self.parts(rows), model, identity, self.numbers_of(rows))

    def numbers_of(self, rows: Sequence[Mapping[str, object]]) -> np.ndarray | None:
        """(rows, 1 + numbers / 2) uint64: each row's number tokens (dedup.text.numbers), None when off."""
        if not self.numbers:
            return None
        return number_words([[t for t in (value_to_text(r.get(c)) for c in self.content) if t] for r in rows],
                            self.numbers)

    def parts(self, rows: Sequence[Mapping[str, object]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(head, hashes, counts): the signature words before the MinHash values (rows, 1 +
        identity) and each row's content features (dedup.text.content), which ``finish`` weighs
        and hashes once a full run knows what the table shares; rows with the same values (a mass
        petition's copies) are shingled once."""
        columns = self.content + self.identity
        first: dict[tuple, int] = {}
        of_row: list = []
        distinct: list = []
        for r in rows:
            values = tuple(map(r.get, columns))
            if all(v is None or type(v) in (str, int) for v in values):  # hashable, and never True == 1
                i = first.setdefault(values, len(distinct))
            else:
                i = len(distinct)
            if i == len(distinct):
                distinct.append(r)
            of_row.append(i)
        head, hashes, counts = self._of_distinct(distinct)
        if len(distinct) == len(rows):
            return head, hashes, counts
        pick = np.asarray(of_row, dtype=np.int64)
        starts = np.cumsum(counts) - counts
        take = np.repeat(starts[pick], counts[pick]) + _ranges(counts[pick])
        return head[pick], hashes[take], counts[pick]

    def _of_distinct(self, rows: Sequence[Mapping[str, object]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cells = [[t for t in (value_to_text(r.get(c)) for c in self.content) if t] for r in rows]
        lengths, hashes, counts = content_features(cells, self.n, self.number_copies, self.digits)
        head = np.empty((len(rows), 1 + len(self.identity)), np.uint64)
        head[:, 0] = lengths
        identity = [[_identity(r.get(column)) for column in self.identity] for r in rows]
        head[:, 1:] = np.asarray(identity, np.uint64).reshape(len(rows), len(self.identity))
        return head, hashes, counts

    def finish(self, head: np.ndarray, hashes: np.ndarray, counts: np.ndarray, model=None, identity=None,
               numbers: np.ndarray | None = None) -> np.ndarray:
        """(rows, words) signatures: ``head`` and the weighted MinHash of each row's features;
        ``identity`` (a ContentModel of identity values): the common values left out (as 0);
        ``numbers``: the rows' ``numbers_of`` (None: no number tokens)."""
        weights = model.weights(hashes) if model is not None else None
        out = np.empty((len(head), self.words), np.uint64)
        out[:, :1 + len(self.identity)] = head
        if identity is not None:
            mark_identity(out[:, 1:1 + len(self.identity)], identity)
        values = weighted_minhash(hashes, counts, weights, self.perms, SEED)
        out[:, 1 + len(self.identity):self.distinct_at] = np.ascontiguousarray(values).view(np.uint64)
        if self.distinct_perms and weights is not None:  # the distinctive ones: features weighing fully
            keep = weights >= self.distinct_weight - 1e-9
            row = np.repeat(np.arange(len(counts)), counts)
            self._distinct(out, hashes[keep], np.bincount(row[keep], minlength=len(counts)))
        else:  # every feature weighs 1, or rule distinct is off (nothing to fill)
            self._distinct(out, hashes, counts)
        if self.numbers:
            out[:, self.numbers_at:self.confirm_at] = numbers if numbers is not None else 0
        if self.confirm:
            self._confirming(out, hashes, counts, weights)
        return out

    def _confirming(self, out: np.ndarray, hashes: np.ndarray, counts: np.ndarray, weights) -> None:
        """Fill the confirming codes, CONFIRM_ROWS rows at a time: their values are 4 bytes each and
        the codes half a byte, so a sketch worker never holds all its rows' values (issue 26's peak,
        bench/results/forms10-s47.md)."""
        ends = np.cumsum(counts)
        for lo in range(0, len(counts), CONFIRM_ROWS):
            hi = min(lo + CONFIRM_ROWS, len(counts))
            first, last = int(ends[lo] - counts[lo]), int(ends[hi - 1])
            part = None if weights is None else weights[first:last]
            values = weighted_minhash(hashes[first:last], counts[lo:hi], part, self.confirm, CONFIRM_SEED)
            out[lo:hi, self.confirm_at:] = confirming.codes(values)

    def _distinct(self, out: np.ndarray, hashes: np.ndarray, counts: np.ndarray) -> None:
        """Fill the distinctive features' count word and MinHash values (none: nothing to fill)."""
        if not self.distinct_perms:
            return
        out[:, self.distinct_at] = counts
        values = minhash(hashes, counts, self.distinct_perms, DISTINCT_SEED)
        out[:, self.distinct_at + 1:self.numbers_at] = np.ascontiguousarray(values).view(np.uint64)

    def of_features(self, lengths, identity, *feats: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """(rows, words) uint64 signatures from synthetic parts: the cleaned content lengths, the
        identity hashes (rows, identity columns) and the content's features as one or more
        (hashes, counts per row), all weighing 1. Benchmarks call it with synthetic shingles."""
        out = np.empty((len(lengths), self.words), np.uint64)
        out[:, 0] = lengths
        out[:, 1:1 + len(self.identity)] = np.asarray(identity, np.uint64).reshape(len(lengths), len(self.identity))
        values = minhash(*feats[0], self.perms, SEED)
        for more in feats[1:]:
            np.minimum(values, minhash(*more, self.perms, SEED), out=values)
        out[:, 1 + len(self.identity):self.distinct_at] = np.ascontiguousarray(values).view(np.uint64)
        self._distinct(out, *feats[0])  # every feature weighs 1: all are distinctive (the first set's)
        out[:, self.numbers_at:self.confirm_at] = 0  # no number tokens
        if self.confirm:
            wide = minhash(*feats[0], self.confirm, CONFIRM_SEED)
            for extra in feats[1:]:
                np.minimum(wide, minhash(*extra, self.confirm, CONFIRM_SEED), out=wide)
            out[:, self.confirm_at:] = confirming.codes(wide)
        return out

    def version(self) -> dict:
        out = {"content": list(self.content), "identity": list(self.identity), "perms": self.perms,
               "shingle_chars": self.n, "number_copies": self.number_copies, "seed": SEED,
               "shingles": shingles.SHINGLES_VERSION, "features": CONTENT_VERSION, "digits": self.digits}
        if self.distinct_perms:  # off: the stamp of the signature before rule distinct (no needless `dedup full`)
            out.update(distinct_perms=self.distinct_perms, distinct_seed=DISTINCT_SEED, distinct_weight=self.distinct_weight)
        if self.numbers:  # off: the stamp before rule numbers
            out.update(numbers=self.numbers, numbers_version=NUMBERS_VERSION)
        if self.confirm:  # off: the stamp before them
            out.update(confirm=self.confirm, confirm_seed=CONFIRM_SEED, confirm_bits=confirming.BITS)
        return out


def mark_identity(ids: np.ndarray, identity) -> None:
    """In place: the common identity values left out (0); with rule content_rare_identity on
    (``identity.keep_rows``), the GENERIC bit set on the values in more rows than that and cleared
    on the others (a hash is 64 random bits: the bit is the model's, not the hash's)."""
    generic = identity.generic_values(ids)
    ids[identity.common_values(ids)] = 0
    if identity.keep_rows:
        ids &= ~GENERIC
        ids[generic & (ids != 0)] |= GENERIC


def _ranges(lengths: np.ndarray) -> np.ndarray:
    """0..n-1 for each n of ``lengths``, concatenated."""
    return np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def _identity(value: object) -> int:
    text = value_to_text(value)
    folded = shingles.fold(text) if text else ""
    return CityHash64(folded.encode("utf-8")) | 1 if folded else 0

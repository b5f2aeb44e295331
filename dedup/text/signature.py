"""A text row's signature: what the candidate search and the verifier of a text table compare.

Beside its SimHash fingerprint each row keeps a few uint64 words (stored with the fingerprint):

- word 0: the length of its cleaned content (short complaints are judged differently);
- one word per identity column (name, phone, address...): a hash of the cleaned whole value,
  0 when it is empty;
- ``perms / 2`` words: the MinHash values (uint32, two a word) of the content's character
  3-grams and numbers (dedup.text.shingles).

The content is the table's ``text`` fields (those not marked ``match: none``); identity columns
are its short fields. Computed for a whole batch in the worker that featurises it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from cityhash import CityHash64

from ..index.minhash import minhash
from . import shingles
from .normalize import value_to_text

SEED = 1  # the MinHash permutations' seed (part of the version stamp)


@dataclass(frozen=True)
class TextSignature:
    content: tuple[str, ...]  # columns whose text is shingled
    identity: tuple[str, ...]  # columns compared as whole values
    perms: int = 64  # MinHash values per row (even)
    n: int = 3  # characters per shingle
    number_copies: int = 2  # features per digit run

    @property
    def words(self) -> int:
        return 1 + len(self.identity) + self.perms // 2

    def of_rows(self, rows: Sequence[Mapping[str, object]]) -> np.ndarray:
        """(len(rows), words) uint64 signatures; rows with the same values (a mass petition's
        copies) are shingled and hashed once."""
        columns = self.content + self.identity
        first: dict[tuple, int] = {}
        of_row, distinct = [], []
        for r in rows:
            values = tuple(r.get(c) for c in columns)
            if all(v is None or type(v) in (str, int) for v in values):  # hashable, and never True == 1
                i = first.setdefault(values, len(distinct))
            else:
                i = len(distinct)
            if i == len(distinct):
                distinct.append(r)
            of_row.append(i)
        out = self._of_distinct(distinct)
        return out if len(distinct) == len(rows) else out[np.asarray(of_row, dtype=np.int64)]

    def _of_distinct(self, rows: Sequence[Mapping[str, object]]) -> np.ndarray:
        found = [shingles.clean_and_numbers([t for t in (value_to_text(r.get(c)) for c in self.content) if t])
                 for r in rows]
        cleaned = [c for c, _ in found]
        codes, owner = shingles.shingle_codes(cleaned, self.n)
        grams = (codes, np.bincount(owner, minlength=len(rows)))
        numbers = shingles.number_list_hashes([nums for _, nums in found], self.number_copies)
        identity = [[_identity(r.get(column)) for column in self.identity] for r in rows]
        return self.of_features([len(t) for t in cleaned], identity, grams, numbers)

    def of_features(self, lengths, identity, *feats: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """(rows, words) uint64 signatures from what ``of_rows`` derives from the rows: the cleaned
        content lengths, the identity hashes (rows, identity columns) and the content's features as
        one or more (hashes, counts per row): the MinHash of their union, each value the least of
        the parts' (repeats do not change a minimum). Benchmarks call it with synthetic shingles."""
        out = np.empty((len(lengths), self.words), np.uint64)
        out[:, 0] = lengths
        out[:, 1:1 + len(self.identity)] = np.asarray(identity, np.uint64).reshape(len(lengths), len(self.identity))
        values = minhash(*feats[0], self.perms, SEED)
        for more in feats[1:]:
            np.minimum(values, minhash(*more, self.perms, SEED), out=values)
        out[:, 1 + len(self.identity):] = np.ascontiguousarray(values).view(np.uint64)
        return out

    def version(self) -> dict:
        return {"content": list(self.content), "identity": list(self.identity), "perms": self.perms,
                "shingle_chars": self.n, "number_copies": self.number_copies, "seed": SEED,
                "shingles": shingles.SHINGLES_VERSION}


def _identity(value: object) -> int:
    text = value_to_text(value)
    folded = shingles.fold(text) if text else ""
    return CityHash64(folded.encode("utf-8")) | 1 if folded else 0

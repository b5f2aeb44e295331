"""Signatures of record rows (tables of short fields only: names, dates, ids, phones, addresses).

Each field of a row becomes ``PER_FIELD`` uint64 words:

* word 0: the field's normalised whole value, never 0; 0 = empty or NULL. Two rows agree on a
  field exactly when these are equal (exact keys, "equal -> 1" in verification). Since version 2
  (issue 22, s43) it holds a 42-bit hash of the value in bits 0-41, the value's length (capped at
  63) in bits 42-47 and its first character (its code point, folded to 16 bits) in bits 48-63
  (dedup.index.record_fields.shape): bigram MinHash cannot tell a given name cut to its initial (``v`` vs ``vosdroull``)
  from a sibling's name, its first letter and length can (dedup.index.record_fields).
* words 1..: ``k`` MinHash values (16 bits each, four to a word) of the value's character bigrams,
  with start and end markers (so a one-character value has two grams). Two unequal values agree
  on a value with probability equal to the Jaccard similarity of their bigram sets, which is how
  dedup.index.records scores a typo'd field without the values themselves. The grams are hashed
  with the field's position, so the element-wise minimum over several fields is the MinHash of
  their tagged union (the band keys).

Normalisation (per value, generic, no column names): NFKC + case fold + no whitespace
(normalize_short), then punctuation and symbols removed; a date-shaped value (``1990/3/5``,
``1990年3月5日``, ``1990.03.05``) becomes ``19900305``; a value that is mostly digits keeps only
its digits and Latin letters (``3栋2单元501`` and ``3-2-501`` both become ``32501``, ``128号``
becomes ``128``). On the training persons (bench/quality/records/sweep.py) ``digits=False`` scored the same F1;
it is kept because those address spellings are real and the rule costs nothing there.

The per-row work that cannot be vectorised (normalising a Python string) is cached per field by
raw value: record tables repeat values (states, genders, surnames, streets) a lot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
from cityhash import CityHash64

from ..config.model import FieldSpec
from ..index.minhash import minhash, splitmix64
from ..index.record_fields import HASH_BITS, LEN_BITS
from .normalize import NORMALIZATION_VERSION, normalize_short, value_to_text

U64 = np.uint64
SIGNATURE_VERSION = 2  # bump when the words of a row change for the same (fields, k, digits); 2: length, first character
_NOISE = re.compile(r"[\W_]+")
_DATE = re.compile(r"(\d{4})[^\d](\d{1,2})[^\d](\d{1,2})[^\d]?")
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_DIGIT = re.compile(r"\d")
_CACHE_LIMIT = 200_000  # raw values remembered per field (memory only; results do not depend on it)


def normalize_value(value: object, digits: bool = True) -> str:
    """A record field's comparable text ('' for NULL or nothing left)."""
    text = value_to_text(value)
    if not text:
        return ""
    s = normalize_short(text)
    m = _DATE.fullmatch(s)
    if m:
        return f"{m[1]}{int(m[2]):02d}{int(m[3]):02d}"
    s = _NOISE.sub("", s)
    if digits and s and 2 * len(_DIGIT.findall(s)) >= len(s):
        s = _NOT_ALNUM.sub("", s)
    return s


def value_word(text: str) -> int:
    """A field's word 0 (see the module doc): 0 for an empty value, else hash, length and first
    character packed so that equal words still mean equal values (up to a 42-bit hash)."""
    if not text:
        return 0
    h = (CityHash64(text.encode("utf-8")) & ((1 << HASH_BITS) - 1)) | 1
    first = ord(text[0])
    first = first if first < 0x10000 else (first ^ (first >> 16)) & 0xFFFF
    return h | min(len(text), (1 << LEN_BITS) - 1) << HASH_BITS | first << (HASH_BITS + LEN_BITS)


class RecordSignature:
    """The words of record rows over ``fields`` (see the module doc).

    ``k`` MinHash values of 16 bits per field (a multiple of 4). bench/quality/records/sweep.py on the
    training persons (20k, seeds 0/1): k = 4 F1 0.981/0.984, k = 8 0.984/0.986, k = 16 0.988/0.987
    but 14 candidates a row instead of 7 (its 4 band keys) and 5 words a field instead of 3; a
    pair's score is a weighted mean over all fields, so 8 rough estimates are enough.
    """

    def __init__(self, fields: Sequence[FieldSpec], k: int = 8, digits: bool = True, seed: int = 1):
        if not fields:
            raise ValueError("a record signature needs at least one field")
        if k <= 0 or k % 4:
            raise ValueError("k must be a positive multiple of 4")
        self.fields = tuple(fields)
        self.k, self.digits, self.seed = k, digits, seed
        self.per_field = 1 + k // 4
        self.words = self.per_field * len(self.fields)
        self._cache: list[dict] = [{} for _ in self.fields]

    def version(self) -> dict:
        """Everything that changes the words (stored beside them; a change means recompute)."""
        return {"signature": "records", "version": SIGNATURE_VERSION, "normalization": NORMALIZATION_VERSION,
                "fields": [f.name for f in self.fields], "k": self.k, "digits": self.digits, "seed": self.seed,
                "grams": 2}

    def texts(self, rows: Sequence[Mapping[str, object]], f: int) -> list[str]:
        """Field ``f``'s normalised values of ``rows`` (cached by raw value)."""
        name, cache, digits = self.fields[f].name, self._cache[f], self.digits
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        out = []
        for row in rows:
            raw = row.get(name)
            t = cache.get(raw) if isinstance(raw, (str, int)) else None
            if t is None:
                t = normalize_value(raw, digits)
                if isinstance(raw, (str, int)):
                    cache[raw] = t
            out.append(t)
        return out

    def of_rows(self, rows: Sequence[Mapping[str, object]]) -> np.ndarray:
        """(len(rows), words) uint64: per field its value hash then its packed MinHash words."""
        n = len(rows)
        out = np.zeros((n, self.words), U64)
        if not n:
            return out
        for f in range(len(self.fields)):
            texts = self.texts(rows, f)
            base = f * self.per_field
            out[:, base] = self._value_hashes(texts, f)
            out[:, base + 1:base + self.per_field] = self._packed_minhash(texts, f)
        return out

    def _value_hashes(self, texts: list[str], f: int) -> np.ndarray:
        return np.fromiter((value_word(t) for t in texts), U64, len(texts))

    def _packed_minhash(self, texts: list[str], f: int) -> np.ndarray:
        """(rows, k/4) words of 16-bit MinHash values of each text's bigrams (0 for an empty text)."""
        n = len(texts)
        filled = np.fromiter((len(t) > 0 for t in texts), bool, n)
        counts = np.fromiter((len(t) + 1 if t else 0 for t in texts), np.int64, n)
        joined = "".join("\x02" + t + "\x03" for t in texts if t)
        packed = np.zeros((n, self.k // 4), U64)
        if not joined:
            return packed
        cp = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(U64)
        codes = (cp[:-1] << U64(21)) | cp[1:]
        codes = codes[cp[:-1] != 3]  # drop the gram across two values (end marker, next start)
        hashes = splitmix64(codes ^ splitmix64(np.full(1, f + 1, U64)))
        values = (minhash(hashes, counts, self.k, self.seed) >> np.uint32(16)).astype(U64)
        for w in range(self.k // 4):
            z = np.zeros(n, U64)
            for j in range(4):
                z |= values[:, 4 * w + j] << U64(16 * j)
            packed[:, w] = z
        packed[~filled] = 0
        return packed

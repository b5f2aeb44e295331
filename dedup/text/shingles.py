"""Character shingles of text, hashed for a whole batch at once: what MinHash compares.

Text is cleaned first (``clean``): NFKC with case folded, everything that is not a letter or a
digit removed (spaces, punctuation of either width, symbols), and every run of digits folded to
one ``0``. A refiled complaint whose phone number, amount or date changed, or whose punctuation
went from full to half width, then has the same shingles; the numbers themselves are added back
as features of their own (``number_hashes``), each counted once, so a different amount still
shows, just not through every shingle around it.

Shingles are overlapping character n-grams (3 by default: the unit that measured best for
Chinese complaints of 30 to 300 characters; bench/research/issue14 (deleted; in git history)). Each n-gram's code points are
packed into one 64-bit integer (exact for n <= 3: 21 bits a code point) and remixed, so no string
is built per shingle.
"""

from __future__ import annotations

import re
from itertools import chain

import numpy as np
from cityhash import CityHash64

from ..index.minhash import splitmix64
from .normalize import _fold, nfkc, nfkc_of, renormal

U64 = np.uint64
# X X* and not X+: a pattern that begins with a character set is searched for through it (session 48)
_NOISE = re.compile(r"[\W_][\W_]*")
_DIGITS = re.compile(r"\d\d*")
SHINGLES_VERSION = 1  # bump when clean(), shingle_hashes() or number_hashes() change their output


def fold(text: str) -> str:
    """NFKC with case folded (twice: folding can un-normalise) and noise removed; digits kept."""
    return _NOISE.sub("", _fold(text))


def clean(text: str) -> str:
    """``fold`` with each run of digits made one ``0``."""
    return _DIGITS.sub("0", fold(text))


def numbers(text: str) -> list[str]:
    """The digit runs of the text, as written after NFKC (full-width digits read as ASCII)."""
    return _DIGITS.findall(nfkc_of(text))


def clean_and_numbers(parts: list[str]) -> tuple[str, list[str]]:
    """``clean`` and ``numbers`` of the parts joined by newlines, with the parts' NFKC (remembered
    from featurising the same cells: dedup.text.normalize.nfkc) and no more where there is no
    case to fold. NFKC of parts joined by a newline is the parts' NFKC joined by it: a newline
    neither decomposes nor composes with anything, so normalisation never crosses it."""
    normal = "\n".join(map(nfkc, parts))
    folded = normal.casefold()
    if folded != normal:
        folded = renormal(folded)
    return _DIGITS.sub("0", _NOISE.sub("", folded)), _DIGITS.findall(normal)


def nfkc_again(folded: str) -> str:
    """NFKC of casefolded text (folding can un-normalise)."""
    return renormal(folded)


def fold_noise(text: str) -> str:
    """Everything that is not a letter or a digit removed."""
    return _NOISE.sub("", text)


def fold_digits(text: str) -> str:
    """Each run of digits made one ``0``."""
    return _DIGITS.sub("0", text)


def digit_runs(normal: str) -> list[str]:
    """The digit runs of NFKC text."""
    return _DIGITS.findall(normal)


def shingle_hashes(texts: list[str], n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The distinct hashed character n-grams of each text -> (hashes uint64, counts per text).
    A text shorter than n is one shingle; an empty text has none."""
    return distinct_per_row(*shingle_codes(texts, n), len(texts))


def shingle_codes(texts: list[str], n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The hashed character n-grams of each text, repeats included (a MinHash does not mind them)
    -> (hashes uint64, the text each belongs to)."""
    lens = np.fromiter((len(s) for s in texts), np.int64, len(texts))
    grams = np.where(lens >= n, lens - n + 1, np.minimum(lens, 1))
    if not grams.sum():
        return np.empty(0, U64), np.empty(0, np.int64)
    points = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(U64)
    starts = np.cumsum(lens) - lens
    owner = np.repeat(np.arange(len(texts)), grams)
    first = np.repeat(starts, grams) + (np.arange(int(grams.sum())) - np.repeat(np.cumsum(grams) - grams, grams))
    width = np.minimum(np.repeat(lens, grams), n)
    code = np.zeros(len(first), U64)
    for k in range(n):
        inside = k < width
        code = (code << U64(21)) | np.where(inside, points[np.where(inside, first + k, 0)], U64(0))
    return splitmix64(code ^ U64(n)), owner


def number_hashes(texts: list[str], copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Each digit run of each text as ``copies`` salted features (more copies: a number weighs
    more against the shingles) -> (hashes uint64, counts per text), distinct per text."""
    return number_list_hashes([numbers(t) for t in texts], copies)


def number_list_hashes(found: list[list[str]], copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``number_hashes`` from each text's ``numbers``."""
    memo = _COPIES.get(copies)
    if memo is None or len(memo) >= _COPIES_LIMIT:
        memo = _COPIES[copies] = _Copies(copies)
    per_row = [[*map(memo.__getitem__, set(nums))] for nums in found]  # a row's distinct numbers, in set order
    counts = np.fromiter(map(len, per_row), np.int64, len(per_row)) * copies
    return np.fromiter(chain.from_iterable(chain.from_iterable(per_row)), U64, int(counts.sum())), counts


class _Copies(dict):
    """digit run -> its ``copies`` salted hashes, each hashed once while remembered: a table's rows share
    most numbers (dates, days, amounts; session 48)."""

    def __init__(self, copies: int) -> None:
        super().__init__()
        self.copies = copies

    def __missing__(self, number: str) -> tuple[int, ...]:
        value = self[number] = tuple(CityHash64(f"#{c}:{number}".encode()) for c in range(self.copies))
        return value


_COPIES: dict[int, _Copies] = {}
_COPIES_LIMIT = 1 << 16  # numbers remembered a setting; then a fresh memo


def forget() -> None:
    """Drop the numbers' hashes remembered (dedup.text.memos)."""
    _COPIES.clear()


def merge(*parts: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Several (hashes, counts) of the same rows as one, distinct per row."""
    rows = len(parts[0][1])
    owner = np.concatenate([np.repeat(np.arange(rows), c) for _, c in parts])
    return distinct_per_row(np.concatenate([h for h, _ in parts]), owner, rows)


def distinct_per_row(hashes: np.ndarray, owner: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Hashes grouped by row (``owner`` per hash), each row's duplicates dropped -> (hashes, counts)."""
    order, key, hashes = _row_hash_sorted(owner, hashes, rows)
    keep = np.ones(len(hashes), bool)
    keep[1:] = hashes[1:] != hashes[:-1]  # equal hashes of two rows differ in their keys' owner bits
    keep[1:] |= key[1:] != key[:-1]
    return hashes[keep], np.bincount(owner[order[keep]], minlength=rows).astype(np.int64)


def row_hash_order(owner: np.ndarray, hashes: np.ndarray, rows: int) -> np.ndarray:
    """``np.lexsort((hashes, owner))`` (``owner`` in ``range(rows)``), from one stable sort of one
    uint64 key, the owner in its high bits and the hash's high bits below: a two-key lexsort takes
    three to four times as long. Where two hashes of one owner share their high bits and not the
    rest in the wrong order (about one row in 2**40), the lexsort is made instead: the same order."""
    return _row_hash_sorted(owner, hashes, rows)[0]


def _row_hash_sorted(owner: np.ndarray, hashes: np.ndarray, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(``row_hash_order``, the sort key and the hashes in that order): distinct_per_row reads
    them instead of gathering the hashes and owners again."""
    bits = max(1, (rows - 1).bit_length())
    keys = (owner.astype(U64) << U64(64 - bits)) | (hashes >> U64(bits))
    order = np.argsort(keys, kind="stable")
    key, ordered = keys[order], hashes[order]
    tie = key[1:] == key[:-1]
    if (ordered[1:][tie] < ordered[:-1][tie]).any():
        order = np.lexsort((hashes, owner))
        key, ordered = keys[order], hashes[order]
    return order, key, ordered

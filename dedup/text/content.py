"""A row's content as the features its MinHash is made of: character n-grams of Chinese (and any
script written without spaces), words of Latin-script text, and its numbers.

Text is NFKC with case folded (dedup.text.shingles). Then, by script:

- **Latin letters** (English, French, pinyin...): words, the bundled English stopwords dropped
  (data/stopwords-en.txt), each word and each two neighbouring words one feature. Character
  3-grams of English mostly say "this is English" (" th", "ing"): a ticket built from stock
  sentences shares them with every other ticket.
- **Everything else** (Chinese, Japanese, Korean, Cyrillic...; punctuation and spaces removed):
  overlapping character n-grams, n = 3, as before. With ``digits="keep"`` digit runs stay as
  written inside the n-grams (a different number of days, a different house number weighs
  against a pair); with ``"fold"`` each run is one ``0`` (the recipe before issue 22).
- **Numbers**: each digit run also as ``copies`` features of its own (dedup.text.shingles).

Hashes are distinct per row; words and n-grams are salted apart, so an n-gram never equals a word.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import numpy as np
from cityhash import CityHash64

from ..index.minhash import splitmix64
from . import content_kernels, shingles
from .normalize import nfkc
from .digit_scan import digit_runs
from .scripts import LATIN_LETTER, clean_batch, code_points

U64 = np.uint64
_LATIN = re.compile(LATIN_LETTER + LATIN_LETTER + "*")  # begins with a character set: searched through it (s48)
_WORD_SALT = U64(0x5157_4F52_4453_0001)
CONTENT_VERSION = 2  # 1: shingles.clean_and_numbers' 3-grams, digits folded, no words


@lru_cache(maxsize=1)
def english_stopwords() -> frozenset[str]:
    """The bundled English stopwords."""
    text = resources.files("dedup.text").joinpath("data/stopwords-en.txt").read_text(encoding="utf-8")
    return frozenset(w.strip() for w in text.splitlines() if w.strip() and not w.startswith("#"))


def _normal_folded(parts: list[str]) -> tuple[str, str]:
    """(NFKC of the cells joined by newlines, that casefolded and normalised again where folding
    changed it): what split_scripts and split_batch read."""
    normal = "\n".join(map(nfkc, parts))
    folded = normal.casefold()
    return normal, (folded if folded == normal else shingles.nfkc_again(folded))


def split_scripts(parts: list[str], digits: str = "keep") -> tuple[int, str, list[str], list[str]]:
    """(cleaned length, the text for n-grams, Latin words without stopwords, numbers) of the cells
    joined by newlines. The length is ``shingles.clean``'s, whatever the script (short_chars)."""
    return _split(*_normal_folded(parts), digits)


def _split(normal: str, folded: str, digits: str) -> tuple[int, str, list[str], list[str]]:
    cleaned = shingles.fold_noise(folded)
    length = len(shingles.fold_digits(cleaned))
    stop = english_stopwords()
    latin = _LATIN.findall(folded)
    words = [w for w in latin if w not in stop]
    rest = shingles.fold_noise(_LATIN.sub(" ", folded)) if latin else cleaned
    if digits == "fold":
        rest = shingles.fold_digits(rest)
    return length, rest, words, shingles.digit_runs(normal)


def split_batch(rows: list[list[str]], digits: str = "keep") -> list[tuple[int, str, list[str], list[str]]]:
    """``[split_scripts(parts, digits) for parts in rows]``, the per-character passes made for the
    batch at once (dedup.text.scripts); rows with Latin letters or characters beyond the BMP
    (their words, the text between them) through split_scripts itself."""
    texts = [_normal_folded(parts) for parts in rows]
    normals, folded = [t[0] for t in texts], [t[1] for t in texts]
    done = clean_batch(folded)
    if done is None:  # a lone surrogate: what split_scripts makes of it
        return [_split(*t, digits) for t in texts]
    out = []
    for text, numbers, length, rest, other in zip(texts, digit_runs(normals), *done):
        if other:
            out.append(_split(*text, digits))
        else:
            out.append((length, shingles.fold_digits(rest) if digits == "fold" else rest, [], numbers))
    return out


def word_hashes(found: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's words and neighbouring word pairs, hashed and salted -> (hashes, counts per row)."""
    per_row = [[*w, *(f"{a} {b}" for a, b in zip(w, w[1:]))] for w in found]
    counts = np.fromiter(map(len, per_row), np.int64, len(per_row))
    flat = np.fromiter((CityHash64(t.encode()) for r in per_row for t in r), U64, int(counts.sum()))
    return splitmix64(flat ^ _WORD_SALT), counts


def content_features(rows: list[list[str]], n: int = 3, copies: int = 2,
                     digits: str = "keep") -> tuple[list[int], np.ndarray, np.ndarray]:
    """(cleaned lengths, feature hashes, counts per row) of each row's content cells; the hashes
    of a row are distinct."""
    made = content_kernels.compiled()
    done = _compiled_features(made, rows, n, copies, digits) if made is not None else None
    if done is not None:
        return done
    split = split_batch(rows, digits)
    codes, owner = shingles.shingle_codes([s[1] for s in split], n)
    grams = (codes, np.bincount(owner, minlength=len(rows)).astype(np.int64))
    words = word_hashes([s[2] for s in split])
    numbers = shingles.number_list_hashes([s[3] for s in split], copies)
    hashes, counts = shingles.merge(grams, words, numbers)
    return [s[0] for s in split], hashes, counts


def _compiled_features(made: content_kernels.Kernels, rows: list[list[str]], n: int, copies: int,
                       digits: str) -> tuple[list[int], np.ndarray, np.ndarray] | None:
    """``content_features`` by the compiled kernels (dedup.text.content_kernels), the same values; rows
    with Latin letters or characters beyond the BMP split by ``_split`` as in split_batch; None
    where a text holds a lone surrogate."""
    texts = [_normal_folded(parts) for parts in rows]
    found = code_points([t[1] for t in texts])
    if found is None:
        return None
    kept, kept_lens, lengths, other = made.clean(*found, content_kernels.classes(), digits == "fold")
    starts = np.cumsum(kept_lens) - kept_lens
    numbers = digit_runs([t[0] for t in texts])
    split = np.flatnonzero(other)
    words: list[list[str]] = []
    pool, at = [kept], len(kept)
    for i in split.tolist():
        normal, folded = texts[i]
        lengths[i], rest, of_row, numbers[i] = _split(normal, folded, digits)
        words.append(of_row)
        starts[i], kept_lens[i] = at, len(rest)
        pool.append(np.frombuffer(rest.encode("utf-32-le"), np.uint32))  # no lone surrogate: the folded text had none
        at += len(rest)
    word, counts_of_split = word_hashes(words)  # the other rows have none
    word_counts = np.zeros(len(rows), np.int64)
    word_counts[split] = counts_of_split
    number, number_counts = shingles.number_list_hashes(numbers, copies)
    every = made.features(np.concatenate(pool), starts, kept_lens, n, word, word_counts, number, number_counts)
    hashes, counts = made.distinct(*every)
    return lengths.tolist(), hashes, counts

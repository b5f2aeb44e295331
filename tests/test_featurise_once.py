"""Issue 26 (session 48, bench/results/featurise3-s48.md): featurising does less work a row for the
same output. Text already NFKC skips nfkc_of's pattern; a cell that folds to itself is not folded
again; an ASCII short value is lowered, not normalised; a number's salted hashes are made once;
distinct_per_row keeps the key and hashes its sort gave; patterns begin with their character set. Each is compared with the plain way on
varied text (test_fast_featurise's pool) and shown to skip the work it skips."""

from __future__ import annotations

import random
import re
import string
import unicodedata

import numpy as np
import pytest
from cityhash import CityHash64

from dedup.text import content, normalize, numbers, shingles
from dedup.text.scripts import LATIN_LETTER
from test_fast_featurise import old_normalize_short, old_normalize_text, texts

CHINESE = "投诉小区噪音扰民物业不作为" * 3


def _never(*_args):
    raise AssertionError("the work skipped was done")


def test_normal_text_skips_the_pattern_and_the_rest_is_unicodedata_s(monkeypatch):
    pool = texts(5_000, seed=11, longest=80) + [CHINESE, CHINESE + "，ＡＢ", CHINESE + "e\u0301", CHINESE + "\u00b4"]
    for t in pool:
        assert normalize.renormal(t) == unicodedata.normalize("NFKC", t), ascii(t)
    normal = [t for t in (unicodedata.normalize("NFKC", t) for t in pool) if len(t) >= 24 and not t.isascii()]
    assert len(normal) > 1000
    monkeypatch.setattr(normalize, "_compat", _never)
    for t in normal:
        assert normalize.renormal(t) is t


def test_a_cell_that_folds_to_itself_is_folded_once(monkeypatch):
    pool = texts(10_000, seed=12, longest=60) + [CHINESE, " " + CHINESE + "\n\t12 ", "ǅ ß İ Ａ", "ᄀ ᅡ", " \u0301x"]
    for t in pool:
        assert normalize.normalize_text(t) == old_normalize_text(t), ascii(t)
        assert normalize.normalize_short(t) == old_normalize_short(t), ascii(t)
    monkeypatch.setattr(normalize, "_fold_again", _never)
    for t in (CHINESE, "小区 12号\n楼", "abc def"):
        assert normalize.normalize_text(t) == old_normalize_text(t)
        assert normalize.normalize_short(t) == old_normalize_short(t)


def test_an_ascii_short_value_is_lowered_not_normalised(monkeypatch):
    rng = random.Random(13)
    pool = ["".join(rng.choice(string.printable + "\x1c\x1d\x1e\x1f") for _ in range(rng.randint(0, 30)))
            for _ in range(5_000)] + ["", " ", "138 0013 8000", "ABC-12\tx", "\x1c1\x1f2"]
    expected = [old_normalize_short(t) for t in pool]
    monkeypatch.setattr(normalize, "nfkc", _never)
    assert [normalize.normalize_short(t) for t in pool] == expected


def _old_number_list_hashes(found, copies):
    per_row = [[CityHash64(f"#{c}:{m}".encode()) for m in set(nums) for c in range(copies)] for nums in found]
    counts = np.fromiter((len(r) for r in per_row), np.int64, len(per_row))
    return np.fromiter((h for r in per_row for h in r), np.uint64, int(counts.sum())), counts


@pytest.mark.parametrize("copies", [0, 1, 2, 3])
def test_a_number_s_hashes_are_made_once_and_the_same(monkeypatch, copies):
    rng = random.Random(copies)
    digits = ["0", "1", "12", "2026", "007", "٣٤", "１２", "9" * 30]
    found = [[rng.choice(digits) for _ in range(rng.randint(0, 6))] for _ in range(300)] + [[], ["5", "5"]]
    for got, want in zip(shingles.number_list_hashes(found, copies), _old_number_list_hashes(found, copies)):
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    monkeypatch.setattr(shingles, "CityHash64", _never)  # every number met above: nothing hashed again
    for got, want in zip(shingles.number_list_hashes(found, copies), _old_number_list_hashes(found, copies)):
        assert got.tolist() == want.tolist()


def test_distinct_per_row_keeps_its_sort_and_is_the_lexsort_s():
    rng = np.random.default_rng(14)
    for rows in (1, 2, 3, 1000):
        owner = rng.integers(0, rows, 20_000)
        hashes = rng.integers(0, 2**64 - 1, 20_000, dtype=np.uint64, endpoint=True)
        hashes[::5] = hashes[1::5][:len(hashes[::5])]  # equal hashes, in one row and across rows
        bits = max(1, (rows - 1).bit_length())
        low = np.uint64((1 << bits) - 1)
        hashes[2::7] = (hashes[3::7][:len(hashes[2::7])] & ~low) | (hashes[2::7] & low)  # the same high bits
        order, key, ordered = shingles._row_hash_sorted(owner, hashes, rows)
        assert order.tolist() == np.lexsort((hashes, owner)).tolist() and ordered.tolist() == hashes[order].tolist()
        assert key.tolist() == ((owner[order].astype(np.uint64) << np.uint64(64 - bits)) | (ordered >> np.uint64(bits))).tolist()
        got, counts = shingles.distinct_per_row(hashes, owner, rows)
        pairs = sorted({(int(o), int(h)) for o, h in zip(owner, hashes)})
        assert got.tolist() == [h for _, h in pairs]
        assert counts.tolist() == np.bincount([o for o, _ in pairs], minlength=rows).tolist()
    got, counts = shingles.distinct_per_row(np.empty(0, np.uint64), np.empty(0, np.int64), 2)
    assert got.tolist() == [] and counts.tolist() == [0, 0]


@pytest.mark.parametrize("name, plain", [("numbers._NUMBER", r"\d+\D?"), ("shingles._NOISE", r"[\W_]+"),
                                         ("shingles._DIGITS", r"\d+"), ("content._LATIN", LATIN_LETTER + "+")])
def test_a_pattern_begins_with_its_character_set_and_finds_what_x_plus_found(name, plain):
    """X X* is X+; beginning with a character set, it is searched for through it (sre's prefix)."""
    module, attr = name.split(".")
    pattern, old = getattr({"numbers": numbers, "shingles": shingles, "content": content}[module], attr), re.compile(plain)
    assert re._parser.parse(pattern.pattern)[0][0] is re._constants.IN
    for t in texts(3_000, seed=15, longest=60) + ["12天3户", "a1b22c", "ß straße", "__x__", "٣٤5号"]:
        t = t.casefold()
        assert pattern.findall(t) == old.findall(t) and pattern.sub("#", t) == old.sub("#", t), ascii(t)

"""Issue 26 (session 46): the per-character passes made over a whole batch with numpy (dedup.text.scripts,
dedup.text.digit_scan) give exactly what the per-row regular expressions gave: the character
tables against ``re`` on every BMP character, and split_scripts and the digit runs against the
expressions on varied text (Chinese, Latin, digits of
several scripts, full-width forms, astral characters, empty cells, a lone surrogate); and text with no
whitespace to collapse is normalised once, not twice, for its terms (dedup.text.normalize)."""

from __future__ import annotations

import random
import re

import pytest

from dedup.text import content, digit_scan, normalize, shingles
from dedup.text.scripts import LATIN_LETTER, marks
from test_fast_featurise import old_normalize_short, old_normalize_text, texts

MORE = ["", "a", "1", "１２３", "12\n34", "٣٤5", "\U0001d7ce\U0001d7cf7", "\U000104a01号", "abc 12 def", "The 3rd",
        "第３次 ＡＢＣ 小区", "小区12号楼３单元", "x" * 30 + "１" * 30, "\n", "_1_2_", "ß straße İ", "東湖花園7月"]


def _rows(seed: int, count: int = 500) -> list[list[str]]:
    pool = texts(400, seed, longest=60) + MORE
    rng = random.Random(seed)
    return [[t for t in rng.sample(pool, rng.randint(0, 3)) if t] for _ in range(count)] + [[], [""], MORE]


@pytest.mark.parametrize("pattern", [r"[\W_]", r"\d", LATIN_LETTER, "[园城]"])
def test_each_table_is_its_expression_on_every_bmp_character(pattern):
    one = re.compile(pattern)
    table = marks(pattern)
    wrong = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000 and table[c] != bool(one.fullmatch(chr(c)))]
    assert wrong == []


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("digits", ["keep", "fold"])
def test_split_batch_is_split_scripts_row_by_row(seed, digits):
    rows = _rows(seed)
    assert any(content._LATIN.search(t) for r in rows for t in r) and any(re.search(r"\d", t) for r in rows for t in r)
    assert content.split_batch(rows, digits) == [content.split_scripts(r, digits) for r in rows]
    assert content.split_batch([], digits) == []


def test_a_lone_surrogate_goes_where_split_scripts_sends_it():
    rows = [["小区12号"], ["a\ud800b 3"], ["\ud800小区"]]  # no UTF-32 of it: the batch goes row by row
    assert content.split_batch(rows) == [content.split_scripts(r) for r in rows]
    assert digit_scan.digit_runs(["1a2", "\ud800 45"]) == [["1", "2"], ["45"]]


@pytest.mark.parametrize("seed", [4, 5])
def test_digit_runs_are_the_expression_s_text_by_text(seed):
    cells = [t for r in _rows(seed) for t in r] + numbers_cells()
    runs = [shingles.digit_runs(t) for t in cells]
    assert digit_scan.digit_runs(cells) == runs and sum(map(len, runs)) > 500
    assert digit_scan.digit_runs([]) == []


def numbers_cells() -> list[str]:
    """Digits at a cell's ends, across cells, beside astral characters."""
    return ["园", "花园", "东花园", "12", "12号", "号12", "1\n2", "东湖花园园12", "\U00020000东花园1",
            "小区" * 3, "１２号楼３单元", "7", "", "园园园"]


def test_text_with_no_whitespace_to_collapse_is_normalised_once(monkeypatch):
    real, calls = normalize.nfkc_of, []
    monkeypatch.setattr(normalize, "nfkc_of", lambda v: calls.append(v) or real(v))
    normalize._MEMO.clear()
    plain = "投诉小区噪音扰民，反映问题１２３号" * 3  # NFKC changes it, case folding does not
    assert normalize.normalize_text(plain) == old_normalize_text(plain) and len(calls) == 1
    for t in ["ＡＢＣ投诉小区噪音扰民反映问题ＤＥＦ" * 2, " 投诉  小区\u3000噪音 ", "ǅ" * 30, "ß" * 30 + "ＩＩ"] + texts(3000, 9):
        assert normalize.normalize_text(t) == old_normalize_text(t), ascii(t)
        assert normalize.normalize_short(t) == old_normalize_short(t), ascii(t)

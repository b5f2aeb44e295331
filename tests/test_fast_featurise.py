"""Issue 26's cheaper featurising gives exactly what the plain code before it gave: NFKC through a
table of the characters it changes (dedup.text.normalize.nfkc_of), whitespace collapsed by
``split``, one uint64 sort for the (row, hash) order, one scan for Latin words. Each is compared with
the code it replaced, here as the reference, on varied text (Chinese, Latin, digits, full width,
half-width katakana, combining marks, Hangul jamo, emoji and other astral characters, every
whitespace, empty and None), and a whole batch's features and signatures are compared with the
ones made through the reference functions."""

from __future__ import annotations

import random
import re
import sys
import unicodedata

import numpy as np
import pytest

from dedup.config import FieldSpec
from dedup.demo.generator import generate_petitions
from dedup.runs.parallel import featurize_rows
from dedup.text import batch, batch_terms, content, features, normalize, shingles
from dedup.text.features import Featurizer
from dedup.text.segment import Segmenter, load_stopwords
from dedup.text.signature import TextSignature

_WS = re.compile(r"\s+")
SPACES = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
POOL = ("投诉小区噪音扰民反映工资拖欠问题龍門ㄅ한국어テスト"  # CJK, Hangul syllables, kana
        "，。！？：；（）【】“”‘’、《》…—～·￥％＃＠＆＿"  # Chinese punctuation, full and half width
        "ＡＢＣａｂｃ０１２３４５６７８９　"  # full-width letters, digits, ideographic space
        "ｶﾞｷﾟﾊﾟｳﾞ"  # half-width katakana with voicing marks (they compose under NFKC)
        "eE\u0301\u0308\u0323\u0327\u0345ǅǲßİﬁﬃΣσς"  # combining marks, title case, ligatures
        "\u1100\u1161\u11a8\u3131\u314f"  # Hangul jamo (compose) and compatibility jamo
        "abcXYZ0123456789 -_.%+#&/"  # ASCII
        "①②⑴½²³㎡㈱㍻℃№™ＫＭ"  # compatibility characters
        "\U0001f600\U0001f44d\U0001d400\U0001d7ce\U0002f800\u2f00\uf900"  # emoji, math letters, astral compat
        "٣۴०\u200b\u200d\ufeff\x00") + SPACES


def texts(count: int, seed: int, longest: int = 40) -> list[str]:
    rng = random.Random(seed)
    return [""] + ["".join(rng.choice(POOL) for _ in range(rng.randint(1, longest))) for _ in range(count)]


def old_fold(value: str) -> str:
    normal = unicodedata.normalize("NFKC", value)
    folded = normal.casefold()
    return normal if folded == normal else unicodedata.normalize("NFKC", folded)


def old_normalize_text(value: str) -> str:
    return old_fold(_WS.sub(" ", old_fold(value)).strip()).strip()


def old_normalize_short(value: str) -> str:
    return old_fold(_WS.sub("", old_fold(value)))


def test_nfkc_of_every_bmp_character_and_random_text_is_unicodedata_s():
    pad = "投诉小区噪音扰民" * 3  # long enough for the table's way (short values go straight to unicodedata)
    for c in range(0x10000):
        for t in (chr(c), pad + chr(c) + "，", chr(c) + pad + "ｅ" + chr(c)):
            assert normalize.nfkc_of(t) == unicodedata.normalize("NFKC", t), hex(c)
    for start in range(0, 0x110000, 48):  # neighbouring code points side by side, astral ones too
        t = "".join(chr(c) for c in range(start, min(start + 48, 0x110000)) if not 0xD800 <= c < 0xE000)
        assert normalize.nfkc_of(t) == unicodedata.normalize("NFKC", t), hex(start)
    for t in texts(20_000, seed=1, longest=80):
        assert normalize.nfkc_of(t) == unicodedata.normalize("NFKC", t), ascii(t)


def test_the_table_covers_the_characters_chinese_text_changes():
    """What makes it cheap: the full-width forms and the ideographic space are replaced first."""
    table, _ = normalize._compat()
    assert table[ord("，")] == "," and table[ord("Ａ")] == "A" and table[0x3000] == " "
    assert 0x4E00 not in table and ord("。") not in table  # ideographs and 。 are NFKC already


def test_normalize_text_and_short_are_the_regex_versions():
    for t in texts(20_000, seed=2):
        assert normalize.normalize_text(t) == old_normalize_text(t), ascii(t)
        assert normalize.normalize_short(t) == old_normalize_short(t), ascii(t)
        assert shingles.fold(t) == re.sub(r"[\W_]+", "", old_fold(t))


def test_row_hash_order_is_lexsort_with_ties_and_high_bit_collisions():
    rng = np.random.default_rng(3)
    for rows in (1, 2, 3, 1000, 5000):
        n = 20_000
        owner = rng.integers(0, rows, n)
        hashes = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
        hashes[::5] = hashes[1::5][:len(hashes[::5])]  # equal hashes, in one row and across rows
        bits = max(1, (rows - 1).bit_length())
        low = np.uint64((1 << bits) - 1)
        hashes[2::7] = (hashes[3::7][:len(hashes[2::7])] & ~low) | (hashes[2::7] & low)  # the same high bits
        expected = np.lexsort((hashes, owner))
        assert shingles.row_hash_order(owner, hashes, rows).tolist() == expected.tolist()
    owner = np.zeros(4, np.int64)
    same_high = np.array([7, 6, 7, 5], np.uint64) | np.uint64(1 << 40)  # only the lowest bits differ
    assert shingles.row_hash_order(owner, same_high, 2).tolist() == np.lexsort((same_high, owner)).tolist()
    assert shingles.row_hash_order(np.empty(0, np.int64), np.empty(0, np.uint64), 0).tolist() == []


FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("phone", "short", 2.0), FieldSpec("title", "text", 1.0),
          FieldSpec("content", "text", 1.0), FieldSpec("address", "chars", 1.5, n=2))


def varied_rows() -> list[tuple[str, dict]]:
    rows = [dict(r) for r in generate_petitions(400, seed=12).rows]
    odd = texts(600, seed=5, longest=120)
    for i, r in enumerate(rows):
        if i % 2:
            r["content"] = odd[i]
        if i % 3 == 0:
            r["title"] = odd[-i] if i % 2 else None
        if i % 7 == 0:
            r["name"] = odd[i // 7]
    rows += [{"name": None, "title": None, "content": None}, {"content": ""}, {"content": "　\u3000 "},
             {"content": "😀👍 1２3 ＡＢＣ abc the The"}, {"content": 12345, "name": 7}]
    return [(str(i), r) for i, r in enumerate(rows)]


@pytest.fixture
def reference(monkeypatch):
    """featurize_rows through the replaced code: unicodedata's NFKC, regex whitespace, lexsort."""
    def use() -> None:
        for module in (normalize, shingles):
            monkeypatch.setattr(module, "nfkc_of", lambda v: unicodedata.normalize("NFKC", v))
        monkeypatch.setattr(features, "normalize_text", old_normalize_text)
        monkeypatch.setattr(features, "normalize_short", old_normalize_short)
        monkeypatch.setattr(batch_terms, "normalize_text", old_normalize_text)  # what runs featurise with
        monkeypatch.setattr(batch_terms, "normalize_short", old_normalize_short)
        for module in (shingles, batch):
            monkeypatch.setattr(module, "row_hash_order", lambda o, h, _rows: np.lexsort((h, o)))
        monkeypatch.setattr(content, "split_scripts", old_split_scripts)
        monkeypatch.setattr(content, "split_batch", lambda rows, digits="keep": [old_split_scripts(p, digits) for p in rows])
        normalize._MEMO.clear()
    return use


def old_split_scripts(parts: list[str], digits: str = "keep"):
    normal = "\n".join(unicodedata.normalize("NFKC", p) for p in parts)
    folded = normal.casefold()
    if folded != normal:
        folded = unicodedata.normalize("NFKC", folded)
    cleaned = shingles.fold_noise(folded)
    length = len(shingles.fold_digits(cleaned))
    words = [w for w in content._LATIN.findall(folded) if w not in content.english_stopwords()]
    rest = shingles.fold_noise(content._LATIN.sub(" ", folded)) if words or content._LATIN.search(folded) else cleaned
    if digits == "fold":
        rest = shingles.fold_digits(rest)
    return length, rest, words, shingles.digit_runs(normal)


@pytest.mark.parametrize("by_field", [False, True])
def test_a_batch_s_features_and_signature_parts_are_the_reference_s(reference, by_field):
    sig = TextSignature(content=("title", "content"), identity=("name", "phone"), perms=64)
    rows = varied_rows()
    new = featurize_rows(Featurizer(FIELDS, Segmenter(load_stopwords(None)), by_field=by_field, signature=sig), rows)
    reference()
    old = featurize_rows(Featurizer(FIELDS, Segmenter(load_stopwords(None)), by_field=by_field, signature=sig), rows)
    assert new[0] == old[0] and len(new[0]) > 350
    assert [(s.key, s.reason) for s in new[2]] == [(s.key, s.reason) for s in old[2]]
    a, b = new[1], old[1]
    for name in ("hashes", "idf", "counts", "signatures", "content", "content_counts") + (("field",) if by_field else ()):
        assert getattr(a, name).tolist() == getattr(b, name).tolist(), name
    assert a.weights.tobytes() == b.weights.tobytes()
    assert len(a.content) > 50_000
    assert sig.finish(a.signatures, a.content, a.content_counts).tolist() == \
        sig.finish(b.signatures, b.content, b.content_counts).tolist()

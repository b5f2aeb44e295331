"""Normalisation, segmentation and features: pure functions, tested as tables."""

import datetime as dt
import decimal
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dedup.text.segment as segment
from dedup.config import FieldSpec
from dedup.text.features import Featurizer
from dedup.index.keys import key_sort
from dedup.text.normalize import normalize_short, normalize_text, value_to_text
from dedup.text.segment import Segmenter, load_stopwords


@pytest.mark.parametrize("raw, text, short", [
    ("１２３ＡＢＣ", "123abc", "123abc"),                      # full-width digits and letters
    ("你好，世界！", "你好,世界!", "你好,世界!"),              # full-width punctuation
    ("  多个   空格\n换行\t制表 ", "多个 空格 换行 制表", "多个空格换行制表"),
    ("天河区\u3000体育西路", "天河区 体育西路", "天河区体育西路"),  # ideographic space
    ("Hello World", "hello world", "helloworld"),
    ("", "", ""),
    ("   ", "", ""),
    ("信访件", "信访件", "信访件"),                            # CJK untouched
])
def test_normalize_table(raw, text, short):
    assert normalize_text(raw) == text
    assert normalize_short(raw) == short


@given(st.text())
def test_normalize_is_idempotent(s):
    assert normalize_text(normalize_text(s)) == normalize_text(s)
    assert normalize_short(normalize_short(s)) == normalize_short(s)


@given(st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1))
def test_normalisation_never_erases_cjk(s):
    assert normalize_text(s) == s


@pytest.mark.parametrize("value, expected", [
    (None, None), ("x", "x"), (12, "12"), (decimal.Decimal("12.50"), "12.5"), (3.0, "3"), (2.5, "2.5"),
    (True, "true"), (dt.date(2024, 5, 1), "2024-05-01"), (dt.datetime(2024, 5, 1, 8, 30), "2024-05-01T08:30:00"),
    ("中文".encode(), "中文"),
])
def test_value_to_text(value, expected):
    assert value_to_text(value) == expected


def test_undecodable_bytes_raise():
    with pytest.raises(UnicodeDecodeError):
        value_to_text(b"\xff\xfe")


def test_key_sort_is_numeric_for_integer_keys():
    assert sorted(["10", "9", "b", "100", "a"], key=key_sort) == ["9", "10", "100", "a", "b"]


@pytest.fixture(scope="module")
def seg():
    return Segmenter(load_stopwords())


def test_terms_drop_stopwords_punctuation_and_spaces(seg):
    terms = seg.terms(normalize_text("我家楼下的餐馆每天晚上噪音很大，已经严重影响了休息！ abc"))
    assert "噪音" in terms and "餐馆" in terms and "abc" in terms
    for dropped in ("的", "了", ",", "!", " "):
        assert dropped not in terms


def test_chinese_only_input_keeps_its_features(seg):
    f = Featurizer((FieldSpec("content", "text", 1.0),), seg).features({"content": "拖欠工资三个月"})
    assert f and all("\u4e00" <= ch <= "\u9fff" for t in f for ch in t)


def test_empty_or_stopword_only_text_has_no_terms(seg):
    assert seg.terms("") == []
    assert seg.terms(normalize_text("的了，。！")) == []


def test_jieba_dictionary_loads_once_per_process(monkeypatch, tmp_path):
    monkeypatch.setenv("DEDUP_CACHE_DIR", str(tmp_path / "c"))
    loads = []
    real = segment._jieba().Tokenizer.initialize
    monkeypatch.setattr(segment._jieba().Tokenizer, "initialize",
                        lambda self, *a, **k: (loads.append(1), real(self, *a, **k))[1])
    s = Segmenter(frozenset(), engine="jieba")
    for _ in range(50):
        s.terms("反复投诉噪音问题")
    assert len(loads) == 1
    assert segment.tokenizer() is segment.tokenizer()
    assert (tmp_path / "c" / "jieba.cache").is_file()  # the cache is dedup's own, not /tmp's


def test_cache_dir_is_made_once_per_environment(monkeypatch, tmp_path):
    made = []
    real = segment.Path.mkdir
    monkeypatch.setattr(segment.Path, "mkdir", lambda self, *a, **k: (made.append(self), real(self, *a, **k))[1])
    monkeypatch.setenv("DEDUP_CACHE_DIR", str(tmp_path / "a"))
    assert [segment.cache_dir() for _ in range(3)] == [tmp_path / "a"] * 3
    monkeypatch.setenv("DEDUP_CACHE_DIR", str(tmp_path / "b"))  # another environment, another directory
    assert segment.cache_dir() == tmp_path / "b"
    assert made == [tmp_path / "a", tmp_path / "b"]


def test_stopwords_file_replaces_the_bundled_list(tmp_path):
    p = tmp_path / "stop.txt"
    p.write_text("# comment\n噪音\nＡＢＣ\n\n", encoding="utf-8")
    assert load_stopwords(p) == frozenset({"噪音", "abc"})


FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("phone", "short", 3.0), FieldSpec("content", "text", 1.0),
          FieldSpec("title", "text", 2.0))


def test_features_weights(seg):
    f = Featurizer(FIELDS, seg).features(
        {"name": " 张 三 ", "phone": "１３８", "content": "噪音噪音扰民", "title": "噪音"})
    assert f["name\x1f张三"] == 2.0
    assert f["phone\x1f138"] == 3.0  # per-field override
    assert f["噪音"] == pytest.approx((1 + math.log(2)) * 1.0 + 1 * 2.0)  # (1 + ln tf) x weight, summed over fields
    raw = Featurizer(FIELDS, seg, tf="raw").features({"content": "噪音噪音扰民", "title": "噪音"})
    assert raw["噪音"] == 2 * 1.0 + 1 * 2.0  # the papers: tf x weight
    assert f["扰民"] == 1.0


def test_null_and_blank_fields_contribute_nothing(seg):
    fz = Featurizer(FIELDS, seg)
    assert fz.features({"name": None, "phone": "  ", "content": "", "title": None}) == {}
    assert fz.features({}) == {}


def test_equal_values_in_different_short_columns_stay_apart(seg):
    fz = Featurizer((FieldSpec("a", "short", 2.0), FieldSpec("b", "short", 2.0)), seg)
    assert len(fz.features({"a": "x", "b": "x"})) == 2

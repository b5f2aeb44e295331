"""Issue 22 (sessions 41-42, bench/results/topic-s41.md, places-s42.md): rule ``numbers`` keeps no pair
naming places, none the same. Letters on one template at two communities whose few numbers were alike
by chance (the same template's fixed numbers, dates alike) were kept by it from J 0.45."""

from __future__ import annotations

import functools

import dedup.methods.text as text_method
from dedup.config.model import MatchConfig
from dedup.config.parse import parse_config
from dedup.index.bands import TextVerifier
from dedup.runs.recipe import Recipe
from test_cluster_gather import full_then_last_row
from test_incremental import store_url  # noqa: F401  (the four-backend fixture)
from test_numbers_rule import _signatures
from helpers import petition

M = MatchConfig()
DANCE = "我是{c}的居民，2025年8月26日以来，小区的广场舞音响开得很大，一直跳到深夜。{c}29号楼的广场舞音响开得很大，一直跳到深夜，影响周边居民休息。{x}"


def _rows() -> list[dict]:
    """20 unrelated complaints, then one at 北江小区 (101), a neighbour's at the same community in their
    own words (102), and a complaint on the same template at 新河苑 (103) whose four numbers are the same."""
    rows = [petition(k + 1, f"第{k}个问题：{'东南西北中'[k % 5]}{'山河湖海'[k // 5]}路的路灯坏了{k + 3}天，晚上出行很不方便，请有关部门尽快维修。",
                     f"住户{k}", f"139{k:08d}") for k in range(20)]
    return [*rows, petition(101, DANCE.format(c="北江小区", x="大家意见很大。"), "李军", "13900000101"),
            petition(102, "领导您好，" + DANCE.format(c="北江小区", x="这个情况已经反映过多次，物业一直没有处理。希望有关部门限制音量和时间，"
                                                   "给北江小区的居民一个交代。"), "王五", "13900000102"),
            petition(103, DANCE.format(c="新河苑", x="大家意见很大。希望有关部门限制音量和时间，给新河苑的居民一个交代。"), "冯飞", "13900000103")]


def _verifier(sig, places: bool, **kw) -> TextVerifier:
    return TextVerifier(2, numbers_floor=M.numbers_floor, numbers_least=M.numbers_least, numbers_share=M.numbers_share,
                        numbers_against=M.numbers_against, numbers_sure=M.numbers_sure,
                        numbers_brief_chars=M.numbers_brief_chars, numbers_brief_against=M.numbers_brief_against,
                        places_against_chars=M.places_against_chars, numbers_at=sig.numbers_at, numbers_places=places, **kw)


def test_rule_numbers_keeps_no_pair_naming_another_place():
    sig, s = _signatures(_rows())
    on, off = _verifier(sig, True), _verifier(sig, False)
    first, neighbour, elsewhere = s[-3:-2], s[-2:-1], s[-1:]
    assert on.numbers_alike(first, elsewhere) == (1.0, 4)  # every number alike: rule places_against does not hold
    assert M.numbers_floor <= on.scores(first, elsewhere)[0] < M.threshold
    assert off(first, elsewhere).all() and off.rules(first, elsewhere) == ["numbers"]
    assert not on(first, elsewhere).any() and on.rules(first, elsewhere) == ["places_against"]  # named as rule places_against
    assert M.numbers_floor <= on.scores(first, neighbour)[0] < M.threshold
    assert on(first, neighbour).all() and on.rules(first, neighbour) == ["numbers"]  # the same community: kept


def test_a_pair_whose_identity_is_equal_is_not_affected():
    sig, s = _signatures([*_rows()[:-1], {**_rows()[-1], "name": "李军", "phone": "13900000101"}])
    on = _verifier(sig, True)
    assert on(s[-3:-2], s[-1:]).all() and on.rules(s[-3:-2], s[-1:]) == ["content_identity"]


def _stamp(**match) -> dict:
    config = parse_config({"source": {"url": "sqlite://"}, "match": match,
                           "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})
    return Recipe.of(config).method.stamp()


def test_the_rule_is_in_the_stamp():
    """It changes what a stored table compares: a stored text table asks for one `dedup full`."""
    assert _stamp()["verify"]["numbers_places"] is True
    assert "numbers_places" not in _stamp(numbers_floor=M.threshold)["verify"]  # rule numbers off: nothing to hold


def test_full_then_incremental_equals_one_full_run(store_url, tmp_path, monkeypatch):  # noqa: F811
    """The last row, at another community, joins nothing in either; with the rule off it joins in both."""
    rows = _rows()
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    assert full_then_last_row(rows, store_url, tmp_path / "on") == ([["101", "102"]],) * 3
    monkeypatch.setattr(text_method, "TextVerifier", functools.partial(TextVerifier, numbers_places=False))
    assert full_then_last_row(rows, store_url, tmp_path / "off") == ([["101", "102"]], [["101", "102", "103"]],
                                                                     [["101", "102", "103"]])

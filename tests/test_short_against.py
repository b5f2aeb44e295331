"""Issue 22, session 42 (bench/results/topic2-s42.md): with bands of 2 values a namesake's one-sentence
complaint at another community, its numbers its own, became a candidate and rule ``short_identity``
kept it (the name equal, J from 0.2). ``TextVerifier.short_against``: a short pair's numbers and places
count against that rule as they do against a long pair's identity bar; a refile with one number edited stays."""

from __future__ import annotations

import functools

import dedup.methods.text as text_method
from dedup.config.model import MatchConfig
from dedup.index.bands import TextVerifier
from test_cluster_gather import full_then_last_row
from test_incremental import store_url  # noqa: F401  (the four-backend fixture)
from test_numbers_places import _rows as _filler, _stamp, _verifier as _numbers_places_verifier
from test_numbers_rule import _signatures
from helpers import petition

M = MatchConfig()


def _rows() -> list[dict]:
    """20 unrelated complaints; 赵伟 at 龙泉花园 (101), the same person again with another phone and one
    number edited (102), and a namesake at 北丰家园 on the same sentence with numbers of their own (103)."""
    return [*_filler()[:20],
            petition(101, "龙泉花园医保报销问题：11月9日起8号楼1单元医保报销一直办不下来，请尽快办理报销。", "赵伟", "17377441570"),
            petition(102, "龙泉花园医保报销问题：11月9日起8号楼2单元医保报销一直办不下来，请尽快办理报销。", "赵伟", "13900000102"),
            petition(103, "北丰家园医保报销问题：8月21日起16号楼1单元医保报销一直办不下来，请尽快办理报销。", "赵伟", "18128081069")]


def _verifier(sig, against: bool) -> TextVerifier:
    return _numbers_places_verifier(sig, True, short_identity_threshold=M.short_identity_threshold,
                                    short_chars=M.short_chars, short_against=against)


def test_a_namesakes_short_complaint_with_other_numbers_is_not_kept():
    sig, s = _signatures(_rows())
    on, off = _verifier(sig, True), _verifier(sig, False)
    first, again, namesake = s[-3:-2], s[-2:-1], s[-1:]
    assert sig.numbers_at and M.short_identity_threshold <= on.scores(first, namesake)[0] < M.short_threshold
    assert off(first, namesake).all() and off.rules(first, namesake) == ["short_identity"]
    assert not on(first, namesake).any() and on.rules(first, namesake) == ["numbers_brief_against"]
    assert on(first, again).all() and on.rules(first, again) == ["short_identity"]  # one number of four edited: kept


def test_the_rule_is_in_the_stamp():
    assert _stamp()["verify"]["short_against"] is True
    assert "short_against" not in _stamp(numbers_floor=M.threshold)["verify"]  # rule numbers off: no numbers to count


def test_full_then_incremental_equals_one_full_run(store_url, tmp_path, monkeypatch):  # noqa: F811
    """The namesake, read last, joins nothing in either; with the rule off it joins in both."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    assert full_then_last_row(_rows(), store_url, tmp_path / "on") == ([["101", "102"]],) * 3
    monkeypatch.setattr(text_method, "TextVerifier", functools.partial(TextVerifier, short_against=False))
    assert full_then_last_row(_rows(), store_url, tmp_path / "off") == ([["101", "102"]], [["101", "102", "103"]],
                                                                        [["101", "102", "103"]])

"""Issue 22, session 37: rule ``places_against``. Brief complaints on one template at two
communities, in a large table, share most of their small-range numbers by chance; the place names
kept beside the numbers (dedup.text.numbers.place_tokens) tell them apart, while a refile or a
neighbour's complaint names the same community."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from dedup.cli import main
from dedup.config.model import MatchConfig
from dedup.index.bands import TextVerifier
from dedup.index.numbers import places_unlike, shared_numbers
from dedup.text.numbers import PLACE_BIT, number_tokens, number_words, place_tokens
from helpers import make_table
from test_numbers_rule import _signatures

M = MatchConfig()
BRIEF = "{c}：{b}号楼{u}单元的电梯从{m}月{d}日开始停运，已经{n}天，住在高层的老人只能爬楼梯，物业和维保公司一直互相推诿，请有关部门尽快处理。"
FIRST = {"c": "青城小区", "b": 12, "u": 3, "m": 7, "d": 9, "n": 14}


def _rows() -> list[dict]:
    """20 brief complaints at their own communities, then (rows -3 .. -1) an incident at another
    community sharing 4 of the first's 5 numbers, a neighbour of the first naming their own building,
    and the first's refile by its author."""
    rows = [{"content": BRIEF.format(**{**FIRST, "c": f"{'东南西北中'[k % 5]}{'山河湖海'[k // 5]}花园", "b": k + 20,
                                        "m": k % 12 + 1, "d": k + 1, "n": k + 30}),
             "name": f"住户{k}", "phone": f"139{k:08d}"} for k in range(20)]
    rows[0] = {**rows[0], "content": BRIEF.format(**FIRST)}
    rows.append({"content": BRIEF.format(**{**FIRST, "c": "金桥新村", "n": 15}), "name": "别人", "phone": "13600000000"})
    rows.append({"content": "邻居反映：" + BRIEF.format(**{**FIRST, "b": 13}), "name": "邻居", "phone": "13500000000"})
    rows.append({"content": "您好！" + BRIEF.format(**FIRST), "name": "住户0", "phone": "13900000000"})
    return [{"id": n, **r} for n, r in enumerate(rows, 1)]


def _verifier(sig, places: int) -> TextVerifier:
    return TextVerifier(2, numbers_floor=M.numbers_floor, numbers_least=M.numbers_least, numbers_share=M.numbers_share,
                        numbers_against=M.numbers_against, numbers_sure=M.numbers_sure,
                        numbers_brief_chars=M.numbers_brief_chars, numbers_brief_against=M.numbers_brief_against,
                        places_against_chars=places, numbers_at=sig.numbers_at)


def test_place_names_are_two_characters_and_a_place_ending():
    assert place_tokens("关于青城小区12号楼电梯问题") == {"青城小区"}  # not 于青城 inside it
    assert place_tokens("朝阳区建设路金桥新村和东湖花园") == {"金桥新村", "东湖花园"}
    assert place_tokens("电梯停了12天，请尽快处理。") == set()
    assert number_tokens("青城小区12号楼") == {"12号"}  # the numbers are as before


def test_matches_that_are_no_name_are_left_out():
    """Session 40: every letter of one form or topic shared these, so two letters naming different
    communities still shared "a place" and rule places_against never held (tuning forms at 200k)."""
    assert place_tokens("北河社区小区大门问题") == {"北河社区"}  # not 社区小区, which would hide it
    assert place_tokens("小区的小区大门被封堵") == set()  # 区的小区: a function character
    assert place_tokens("同时抄送市人民政府督查室") == set()  # 民政府: 政府 is no place
    form = "同时抄送市人民政府督查室和区纪委监委，我是{}的居民，{}以来，小区的小区大门被封堵了一个。"
    a = number_words([[form.format("福塘区北河社区", "2024年8月23日")]])
    b = number_words([[form.format("新源区平丰家园", "2024年1月5日")]])
    assert places_unlike(a, b, unless_numbers=True).tolist() == [True]  # shared only the matches left out before


def test_names_beginning_with_he_are_names_before_a_two_character_ending():
    """Session 43: 和 ("and") was never in a name, so 和平小区 named no place and 和谐家园 named 谐家园:
    a letter from 和平小区 and one from 幸福小区 did not name two places. Before a one-character ending
    和 is still "and" (和台湾, 和小城 in the news corpus), and in second place it always is."""
    assert place_tokens("我住在和平小区3号楼") == {"和平小区"}
    assert place_tokens("和谐家园的住户") == {"和谐家园"}
    assert place_tokens("我们与和美新城的业主") == {"和美新城"}
    assert place_tokens("中国和台湾") == set() and place_tokens("去和小城") == set()
    assert place_tokens("他们和小区物业协商") == set()  # 们和小区: 和 second
    a = number_words([["和平小区3号楼电梯停了12天"]])
    b = number_words([["幸福小区3号楼电梯停了12天"]])
    assert places_unlike(a, b, unless_numbers=False).tolist() == [True]


def test_li_from_is_no_part_of_a_place_name():
    """Session 44: 站点离小区太远 ("the stop is far from the community") named the place 点离小区 in every
    letter of one topic, so letters at two communities "shared a place" and rule places_against never
    held (the tuning forms' false groups over 5 rows at 100k and 200k rows)."""
    assert place_tokens("小区的公交线路被调整后站点离小区太远") == set()
    form = "我是{}的居民，{}以来，小区的公交线路被调整后站点离小区太远。"
    a = number_words([[form.format("安园区西州家园", "2024年3月14日")]])
    b = number_words([[form.format("福园区银溪苑", "2024年7月4日")]])
    assert places_unlike(a, b, unless_numbers=True).tolist() == [True]


def test_place_names_are_kept_after_the_numbers_and_never_count_among_them():
    a = number_words([["青城小区12号楼3单元7月9日"], ["青城小区12号楼"], ["7月9日"]])
    b = number_words([["金桥新村12号楼3单元7月9日"], ["青城小区 12号楼"], ["金桥新村7月9日"]])
    values = np.ascontiguousarray(a[:, 1:]).view(np.uint32)
    assert (values[0, :4] < PLACE_BIT).all() and values[0, 4] >= PLACE_BIT and values[0, 5] == 0
    assert (a[:, 0] & 0xFFFF_FFFF).tolist() == [4, 1, 2] and (a[:, 0] >> 32).tolist() == [1, 1, 0]
    shared, least = shared_numbers(a, b)
    assert shared.tolist() == [4, 1, 2] and least.tolist() == [4, 1, 2]  # the places left out
    assert places_unlike(a, b).tolist() == [True, False, False]  # the third: only one names a place


def test_a_brief_pair_at_other_places_is_not_kept_and_a_neighbour_at_the_same_place_is():
    sig, s = _signatures(_rows())
    on, off = _verifier(sig, 80), TextVerifier(**{**_verifier(sig, 0).__dict__, "numbers_places": False})  # s41's rule off too
    first, elsewhere, neighbour, refile = s[:1], s[-3:-2], s[-2:-1], s[-1:]
    assert s[:, 0].max() < 80 and on.numbers_alike(first, elsewhere)[0][0] == 0.8  # brief, 4 of 5 alike
    assert M.numbers_floor <= on.scores(first, elsewhere)[0] < M.numbers_sure
    assert off(first, elsewhere).all() and not on(first, elsewhere).any()
    assert on.rules(first, elsewhere) == ["places_against"] and off.rules(first, elsewhere) != ["places_against"]
    assert on(first, neighbour).all() and on(first, refile).all()  # the same community
    shorter = _verifier(sig, int(s[:, 0].min()))  # no content under the chars: off (and s41's numbers_places)
    assert TextVerifier(**{**shorter.__dict__, "numbers_places": False})(first, elsewhere).all()
    assert shorter.rules(first, elsewhere) == ["places_against"]  # rule numbers' bar, other places (s41)


def test_a_refile_mistyping_its_place_name_is_kept_by_its_numbers():
    """A refile whose typo hits the community's name (青城小区 / 青成小区) names no place of the
    first's; every number alike, the places do not count (``places_need_numbers``, on by default)."""
    rows = _rows()
    typo = {**rows[0], "id": 99, "content": "您好！" + BRIEF.format(**{**FIRST, "c": "青成小区"})}
    sig, s = _signatures([*rows, typo])
    on, strict = _verifier(sig, 80), TextVerifier(**{**_verifier(sig, 80).__dict__, "places_need_numbers": False})
    first, theirs = s[:1], s[-1:]
    assert on.numbers_alike(first, theirs)[0][0] == 1.0 and on.scores(first, theirs)[0] < M.numbers_sure
    assert on(first, theirs).all() and not strict(first, theirs).any()
    assert strict.rules(first, theirs) == ["places_against"]


def test_without_numbers_a_place_name_alone_does_not_count_against():
    """A joint letter's copy mistyping the community (龙湖小区 / 隆湖小区), no numbers in either: kept."""
    letter = "我们是河东区{c}的全体业主，联名向有关部门反映以下问题：小区门口的道路坑洼不平，雨天积水严重，老人孩子出行很不方便，请有关部门尽快修缮。"
    rows = [*_rows(), {"id": 98, "content": letter.format(c="龙湖小区"), "name": "业主甲", "phone": "13300000000"},
            {"id": 99, "content": letter.format(c="隆湖小区").replace("修缮", "维修"), "name": "业主乙", "phone": "13200000000"}]
    sig, s = _signatures(rows)
    on = _verifier(sig, 200)
    a, b = s[-2:-1], s[-1:]
    assert on.numbers_alike(a, b)[1][0] == 0 and places_unlike(a[:, sig.numbers_at:], b[:, sig.numbers_at:]).all()
    assert on.scores(a, b)[0] < M.numbers_sure and on(a, b).all()
    assert not TextVerifier(**{**on.__dict__, "places_need_numbers": False})(a, b).any()


def test_the_rule_is_in_the_stamp_only_when_on():
    from dedup.config.parse import parse_config
    from dedup.runs.recipe import Recipe

    def verify(**match):
        config = parse_config({"source": {"url": "sqlite://"}, "match": match,
                               "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})
        return Recipe.of(config).method.stamp()["verify"]

    on, off = verify(places_against_chars=80), verify(places_against_chars=0)
    assert on["places_against_chars"] == 80 and on["places_need_numbers"] is True and "places_against_chars" not in off
    assert off == {k: v for k, v in on.items() if not k.startswith("places")}
    assert verify()["places_against_chars"] == M.places_against_chars > 0  # on by default


def test_explain_names_the_places_rule(tmp_path):
    rows = _rows()
    make_table(f"sqlite:///{tmp_path / 'src.db'}", rows)
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f"source: {{url: 'sqlite:///{tmp_path / 'src.db'}'}}\nstore: {{url: 'sqlite:///{tmp_path / 'store.db'}'}}\n"
                   "match: {places_against_chars: 80}\n"
                   "tables:\n  petitions:\n    key: id\n    fields: {name: short, phone: short, content: text}\n",
                   encoding="utf-8")
    assert CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    elsewhere = str(len(rows) - 2)
    got = CliRunner().invoke(main, ["-c", str(cfg), "explain", "1", elsewhere, "--json"])
    assert got.exit_code == 0, got.output
    view = json.loads(got.output)
    assert view["rule"]["rule"] == "places_against" and view["rule"]["knob"] == "match.places_against_chars"
    text = CliRunner().invoke(main, ["-c", str(cfg), "explain", "1", elsewhere, "--no-color"]).output.splitlines()[0]
    assert "content naming other places, match.places_against_chars" in text

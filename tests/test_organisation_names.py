"""Issue 22, session 45: organisation names beside the place names. Letters of one standard form
around one body template, by people of different companies, differ only in the company's name;
rule ``places_against`` reads the names (dedup.text.organisations) as it reads the places, while a
refile naming the same company is kept."""

from __future__ import annotations

from dedup.config.model import MatchConfig
from dedup.index.bands import TextVerifier
from dedup.index.numbers import places_unlike
from dedup.text.numbers import number_words
from dedup.text.organisations import organisation_tokens
from test_numbers_rule import _signatures

M = MatchConfig()
FORM = ("尊敬的信访接待中心领导：您好！本人现就以下事项向贵单位提出信访请求，恳请领导在百忙之中予以关注，"
        "依据《信访工作条例》的有关规定，本人是{org}的员工，{org}自{date}起拖欠全体员工工资共{n}个月，"
        "多次讨要无果，恳请劳动监察部门责令其足额支付。本人承诺所反映的情况全部属实，如有虚假愿意承担相应的法律责任。"
        "随信附上相关证明材料复印件，联系方式见信访登记表，此致敬礼！")


def test_an_organisation_name_is_its_name_and_trade_before_the_ending():
    assert organisation_tokens("我在新星置业有限公司工作") == {"新星置业有限公司"}  # not 置业有限, shared by every 置业
    assert organisation_tokens("本人在瑞洋商场购买，向华联超市反映") == {"瑞洋商场", "华联超市"}  # 在 / 向 no part of it
    assert organisation_tokens("孩子在市第一人民医院住院") == {"第一人民医院"}
    assert organisation_tokens("该公司不处理，责令公司支付，这家医院也不管") == set()  # no name before the ending


def test_letters_naming_two_companies_name_no_place_alike():
    a = number_words([[FORM.format(org="新星置业有限公司", date="2025年3月1日", n=4)]])
    b = number_words([[FORM.format(org="远航物流有限公司", date="2025年5月9日", n=6)]])
    assert places_unlike(a, b, unless_numbers=True).tolist() == [True]
    assert places_unlike(a, a, unless_numbers=True).tolist() == [False]


def _rows() -> list[dict]:
    """20 letters on the form at their own companies; then another company's letter, and the first's refile."""
    rows = [{"content": FORM.format(org=f"{'东南西北中'[k % 5]}{'山河湖海'[k // 5]}建材公司", date=f"2024年{k % 12 + 1}月{k + 1}日", n=k + 2),
             "name": f"员工{k}", "phone": f"139{k:08d}"} for k in range(20)]
    rows.append({"content": FORM.format(org="远山建材公司", date="2024年1月1日", n=3), "name": "别人", "phone": "13600000000"})
    rows.append({"content": "您好！" + rows[0]["content"], "name": "员工0", "phone": "13900000000"})
    return [{"id": n, **r} for n, r in enumerate(rows, 1)]


def test_the_places_rule_tells_two_companies_letters_apart_and_keeps_a_refile():
    sig, s = _signatures(_rows())
    on = TextVerifier(2, numbers_floor=M.numbers_floor, numbers_least=M.numbers_least, numbers_share=M.numbers_share,
                      numbers_against=M.numbers_against, numbers_sure=M.numbers_sure,
                      places_against_chars=M.places_against_chars, numbers_at=sig.numbers_at)
    first, other, refile = s[:1], s[-2:-1], s[-1:]
    assert s[:, 0].max() < M.places_against_chars and on.scores(first, other)[0] >= on.threshold  # joined at the bar before
    assert not on(first, other).any() and on.rules(first, other) == ["places_against"]
    assert on(first, refile).all()


def test_letters_naming_no_number_are_told_apart_by_their_names_alone():
    """``places_numberless`` (on, s45): a form letter with no date or sum, at two companies, is no refile;
    the first's refile by its author is kept."""
    plain = FORM.replace("自{date}起拖欠全体员工工资共{n}个月", "长期拖欠全体员工工资")
    rows = [{"id": k + 1, "content": plain.format(org=f"{'东南西北中'[k % 5]}{'山河湖海'[k // 5]}建材公司"),
             "name": f"员工{k}", "phone": f"139{k:08d}"} for k in range(20)]
    rows.append({"id": 21, "content": plain.format(org="远山建材公司"), "name": "别人", "phone": "13600000000"})
    rows.append({"id": 22, "content": "您好！" + rows[0]["content"], "name": "员工0", "phone": "13900000000"})
    sig, s = _signatures(rows)
    on = TextVerifier(2, numbers_floor=M.numbers_floor, numbers_least=M.numbers_least, numbers_share=M.numbers_share,
                      numbers_against=M.numbers_against, numbers_sure=M.numbers_sure,
                      places_against_chars=M.places_against_chars, numbers_at=sig.numbers_at)
    first, other, refile = s[:1], s[-2:-1], s[-1:]
    assert on.numbers_alike(first, other)[1][0] == 0 and on.scores(first, other)[0] >= on.threshold
    assert on.places_numberless and not on(first, other).any() and on(first, refile).all()
    assert TextVerifier(**{**on.__dict__, "places_numberless": False})(first, other).all()  # before: joined


def test_names_alone_count_for_organisations_only():
    """``places_numberless`` (s46): two rows naming no number are told apart by their organisation
    names alone, never by a place name alone (a joint letter's copy mistyping its community, 龙湖小区 /
    隆湖小区, is kept as on main: held-out petitions' joint letters, bench/results/forms8-s46.md)."""
    letter = "我们是{x}的全体{who}，联名反映以下问题：门口的道路坑洼不平，雨天积水严重，出行很不方便，请有关部门尽快修缮。"
    firms = number_words([[letter.format(x="新星置业有限公司", who="员工")], [letter.format(x="远航物流有限公司", who="员工")]])
    places = number_words([[letter.format(x="龙湖小区", who="业主")], [letter.format(x="隆湖小区", who="业主")]])
    for words in (firms, places):
        assert not (words[:, 0] & 0xFFFF_FFFF).any()  # no number named
    assert places_unlike(firms[:1], firms[1:], True, numberless=True).tolist() == [True]
    assert places_unlike(places[:1], places[1:], True, numberless=True).tolist() == [False]
    assert places_unlike(places[:1], places[1:], False).tolist() == [True]  # the names differ

def test_the_stamp_asks_for_a_full_run():
    """Organisation names change the stored number words (NUMBERS_VERSION 6) and ``places_numberless`` the
    verify stamp (only while rule places_against is on)."""
    from dedup.config.parse import parse_config
    from dedup.runs.recipe import Recipe
    from dedup.text.numbers import NUMBERS_VERSION

    def stamp(**match):
        config = parse_config({"source": {"url": "sqlite://"}, "match": match,
                               "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})
        return Recipe.of(config).method.stamp()

    assert NUMBERS_VERSION == 6 and stamp()["verify"]["places_numberless"] is True and stamp()["verify"]["places_sure"] == 1.0
    assert "places_numberless" not in stamp(places_against_chars=0)["verify"]

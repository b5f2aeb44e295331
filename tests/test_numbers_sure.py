"""Rule ``numbers_against`` reads a long pair only under ``match.numbers_sure`` (issue 22, session
48, bench/results/recall-s48.md): two signers of one collective petition, the same long text but
each their own building, flat, household and years (no number in common), estimated J 0.8-0.9,
are kept at the shipped 0.8; at the 0.9 before session 48 their numbers counted against them and
the copy was lost. Under 0.8 the numbers still count against a pair (another incident)."""

from __future__ import annotations

from dedup.config.model import MatchConfig
from dedup.index.bands import TextVerifier
from dedup.text.numbers import KEEP
from dedup.text.rarity import ContentModel
from dedup.text.signature import TextSignature

M = MatchConfig()
BODY = ("我是融创壹号院的业主，和小区其他业主一起反映以下问题。没经过业主大会表决，物业就贴出通知把物业费涨了不少。"
        "小区门禁形同虚设，外来人员随意进出，保安常常不在岗。我家卫生间楼上漏水，报修了好几次，物业每次都说立刻来，"
        "结果一直没人管。我们每个月交的物业费在周边算是高的，可物业提供的服务跟这个价钱压根不相符。物业擅自把小区公共"
        "绿地改成停车位对外出租，收益去向从来不公开。业主委员会多次要求物业公开公共收益账目，物业始终以各种理由拒绝。"
        "希望街道指导小区尽早成立业主委员会，由业主自己选择物业，公开公共收益收支明细。")
OWN = ("家住30号楼2单元302室，全家6口人，在这住了15年。", "家住16号楼1单元1704室，全家4口人，在这住了8年。")


def _pair(more: str = ""):
    """The two signers' signatures; ``more``: a clause the first adds of their own."""
    rows = [{"content": own + BODY, "name": name, "phone": phone}
            for own, name, phone in zip((OWN[0] + more, OWN[1]), ("许海辉", "陆梅涛"), ("19287446876", "15197243258"))]
    sig = TextSignature(("content",), ("name", "phone"), numbers=KEEP)
    head, hashes, counts = sig.parts(rows)
    model = ContentModel.learn(hashes, len(rows), M.common_share, M.common_rows, M.common_floor)
    s = sig.finish(head, hashes, counts, model, None, sig.numbers_of(rows))
    return sig, s[:1], s[1:]


def _verifier(sig, sure: float) -> TextVerifier:
    return TextVerifier(2, numbers_floor=M.numbers_floor, numbers_least=M.numbers_least, numbers_share=M.numbers_share,
                        numbers_against=M.numbers_against, numbers_sure=sure, numbers_at=sig.numbers_at)


def test_two_signers_of_one_long_petition_with_their_own_numbers_are_kept():
    sig, a, b = _pair()
    shipped = _verifier(sig, M.numbers_sure)
    share, least = shipped.numbers_alike(a, b)
    assert least[0] >= M.numbers_least and share[0] < M.numbers_against  # their numbers differ
    assert shipped(a, b).tolist() == [True] and shipped.rules(a, b) == ["content"]
    assert M.numbers_sure <= shipped.scores(a, b)[0] < 0.9
    assert _verifier(sig, 0.9)(a, b).tolist() == [False]  # before session 48: numbers_against


def test_under_numbers_sure_the_numbers_still_count_against_a_pair():
    sig, a, b = _pair("我们这栋楼的住户都有意见，")  # a longer clause of the first's own: J at the content bar
    shipped = _verifier(sig, M.numbers_sure)
    assert M.threshold <= shipped.scores(a, b)[0] < M.numbers_sure
    assert shipped(a, b).tolist() == [False] and shipped.rules(a, b) == ["numbers_against"]

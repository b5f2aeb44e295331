"""Demo petitions and petitioners: topic sentences filled with slot values drawn on first use."""

from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass

from .draws import integer as _int, pick as _pick, sample as _sample  # noqa: F401  (edits.py imports them from here)
from .vocabulary import sentences, topics, words

_SURNAMES = words("surnames")
_COMPOUND_SURNAMES = words("compound_surnames")
_GIVEN = words("given")
_DISTRICTS = words("districts")
_STREETS = words("streets")
_COMMUNITIES = words("communities")
_ROADS = words("roads")
_BRANDS = words("brands")
_RIVERS = words("rivers")
_MEDIA = words("media")
_SHOP_KINDS = words("shop_kinds")
_SCHOOL_KINDS = words("school_kinds")


@dataclass(frozen=True)
class _Topic:
    name: str
    subject: str
    weight: int
    suffixes: tuple[str, ...]
    titles: tuple[str, ...]
    problems: tuple[str, ...]
    demands: tuple[str, ...]
    short: tuple[str, ...]  # one-sentence petitions (< 20 characters) for the edge rows


_TOPICS = tuple(_Topic(**t) for t in topics())
_TOPIC_CUMULATIVE = tuple(itertools.accumulate(t.weight for t in _TOPICS))

_OPENINGS = sentences("openings")
_IMPACTS = sentences("impacts")
_ACTIONS = sentences("actions")
_DEMANDS = sentences("demands")
_CLOSINGS = sentences("closings")


# ---------------------------------------------------------------------------------------------
# Slot values, made on first use so each petition only draws what its sentences need


def _date(rng: random.Random) -> str:
    return f"{_int(rng, 2021, 2023)}年{_int(rng, 1, 12)}月{_int(rng, 1, 28)}日"


def _school(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return f"第{_int(rng, 1, 40)}中学"
    return _pick(rng, _BRANDS) + _pick(rng, _SCHOOL_KINDS)


def _hospital(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return f"市第{_int(rng, 1, 9)}人民医院"
    if kind == 1:
        return _pick(rng, _DISTRICTS) + "人民医院"
    return _pick(rng, _BRANDS) + _pick(rng, ("口腔诊所", "中医院", "妇产医院", "骨科医院"))


_SLOT_MAKERS = {
    "district": lambda r, s: _pick(r, _DISTRICTS),
    "street": lambda r, s: _pick(r, _STREETS),
    "community": lambda r, s: _pick(r, _COMMUNITIES),
    "road": lambda r, s: _pick(r, _ROADS),
    "road2": lambda r, s: _pick(r, [x for x in _ROADS if x != s["road"]]),
    "building": lambda r, s: _int(r, 1, 30),
    "house_no": lambda r, s: _int(r, 1, 300),
    "floor": lambda r, s: _int(r, 6, 33),
    "brand": lambda r, s: _pick(r, _BRANDS),
    "company": lambda r, s: s["brand"] + _pick(r, s.topic.suffixes),
    "subject": lambda r, s: s.topic.subject,
    "date": lambda r, s: _date(r),
    "date2": lambda r, s: _date(r),
    "month": lambda r, s: _int(r, 1, 12),
    "times": lambda r, s: _int(r, 2, 9),
    "minutes": lambda r, s: _int(r, 10, 50),
    "hours": lambda r, s: _int(r, 2, 5),
    "hour": lambda r, s: _int(r, 22, 23),
    "late_hour": lambda r, s: _int(r, 1, 3),
    "early": lambda r, s: _int(r, 6, 7),
    "db": lambda r, s: _int(r, 62, 88),
    "fee": lambda r, s: f"{_int(r, 12, 35) / 10:.1f}",
    "fee2": lambda r, s: f"{float(s['fee']) + _int(r, 3, 15) / 10:.1f}",
    "salary": lambda r, s: _int(r, 35, 120) * 100,
    "amount": lambda r, s: _int(r, 20, 1500) * 100,
    "amount2": lambda r, s: _int(r, 8, 400) * 100 + _pick(r, (0, 50)),
    "people": lambda r, s: _int(r, 10, 300),
    "many": lambda r, s: _int(r, 2, 30) * 10,
    "family": lambda r, s: _int(r, 3, 6),
    "years": lambda r, s: _int(r, 2, 20),
    "months": lambda r, s: _int(r, 2, 18),
    "weeks": lambda r, s: _int(r, 2, 8),
    "days": lambda r, s: _int(r, 3, 30),
    "area": lambda r, s: _int(r, 20, 200),
    "area2": lambda r, s: _int(r, 5, 30),
    "price": lambda r, s: _int(r, 60, 250) * 100,
    "depth": lambda r, s: _int(r, 10, 40),
    "num": lambda r, s: _int(r, 2, 8),
    "length": lambda r, s: _int(r, 10, 80),
    "seconds": lambda r, s: _int(r, 10, 25),
    "bus": lambda r, s: _int(r, 1, 300),
    "age": lambda r, s: _int(r, 55, 65),
    "gap": lambda r, s: _int(r, 1, 5),
    "pension": lambda r, s: _int(r, 100, 800),
    "fee_school": lambda r, s: _int(r, 3, 20) * 100,
    "price_small": lambda r, s: _int(r, 80, 600),
    "price_meal": lambda r, s: _int(r, 300, 800),
    "fee_k": lambda r, s: _int(r, 12, 25) * 100,
    "fee_k2": lambda r, s: int(s["fee_k"]) + _int(r, 3, 15) * 100,
    "river": lambda r, s: _pick(r, _RIVERS),
    "media": lambda r, s: _pick(r, _MEDIA),
    "ticket": lambda r, s: f"{_int(r, 2021, 2023)}{_int(r, 0, 99_999_999):08d}",
    "school": lambda r, s: _school(r),
    "hospital": lambda r, s: _hospital(r),
    "shop": lambda r, s: _pick(r, _BRANDS) + _pick(r, _SHOP_KINDS),
}


class _Slots(dict):
    def __init__(self, rng: random.Random, topic: _Topic, **known):
        super().__init__(known)
        self.rng = rng
        self.topic = topic

    def __missing__(self, key):
        value = _SLOT_MAKERS[key](self.rng, self)
        self[key] = value
        return value


# ---------------------------------------------------------------------------------------------
# People and petitions


def _name(rng: random.Random) -> str:
    surname = _pick(rng, _COMPOUND_SURNAMES) if rng.random() < 0.02 else _pick(rng, _SURNAMES)
    given = _pick(rng, _GIVEN) if rng.random() < 0.3 else _pick(rng, _GIVEN) + _pick(rng, _GIVEN)
    return surname + given


def _phone(rng: random.Random) -> str:
    return f"1{_pick(rng, '358')}{rng.randrange(10)}{rng.randrange(100_000_000):08d}"


_PLACE_KEYS = ("district", "street", "community", "building")


def _person(rng: random.Random, near: dict | None = None) -> dict:
    """A petitioner; with ``near``, a neighbour in the same community (collective complaints)."""
    if near is None:
        place = {"district": _pick(rng, _DISTRICTS), "street": _pick(rng, _STREETS)}
        if rng.random() < 0.7:
            place["community"] = _pick(rng, _COMMUNITIES)
    else:
        place = {k: near[k] for k in ("district", "street", "community") if k in near}
    if "community" in place:
        place["building"] = _int(rng, 1, 30)
        spot = f"{place['community']}{place['building']}栋{_int(rng, 1, 4)}单元{_int(rng, 1, 28)}0{_int(rng, 1, 4)}室"
    else:
        spot = f"{_pick(rng, _ROADS)}{_int(rng, 1, 300)}号"
    return {**place, "name": _name(rng), "phone": _phone(rng),
            "address": f"{place['district']}{place['street']}{spot}"}


def _compose(rng: random.Random, topic: _Topic, slots: _Slots) -> str:
    middle = _sample(rng, topic.problems, _int(rng, 2, 5))
    extras = _sample(rng, _IMPACTS, _int(rng, 0, 2)) + _sample(rng, _ACTIONS, _int(rng, 0, 3))
    extras = _sample(rng, extras, len(extras))
    head = [_pick(rng, _OPENINGS)] if rng.random() < 0.75 else []
    tail = _sample(rng, topic.demands + _DEMANDS, _int(rng, 1, 2))
    if rng.random() < 0.35:
        tail.append(_pick(rng, _CLOSINGS))
    while len(head) + len(middle) + len(extras) + len(tail) < 4:
        extras.append(_pick(rng, [s for s in _IMPACTS if s not in extras]))
    while len(head) + len(middle) + len(extras) + len(tail) > 10:
        extras.pop()
    return "".join(s.format_map(slots) for s in head + middle + extras + tail)


def _petition(rng: random.Random, person: dict | None, min_len: int = 0) -> dict:
    topic = _TOPICS[bisect.bisect(_TOPIC_CUMULATIVE, rng.random() * _TOPIC_CUMULATIVE[-1])]
    known = {} if person is None else {k: person[k] for k in _PLACE_KEYS if k in person}
    slots = _Slots(rng, topic, **known)
    title = _pick(rng, topic.titles).format_map(slots)
    content = _compose(rng, topic, slots)
    while len(content) < min_len:
        content += _pick(rng, _IMPACTS + _ACTIONS).format_map(slots)
    return {"category": topic.name, "title": title, "content": content}


def _person_fields(rng: random.Random, person: dict, missing_rate: float = 0.02) -> dict:
    """name/phone/address, each occasionally left blank as anonymous petitions are."""
    return {k: (None if rng.random() < missing_rate else person[k]) for k in ("name", "phone", "address")}


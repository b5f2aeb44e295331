"""The people of the labelled person records: names, addresses, id numbers and birth dates.

The word lists are bench/datasets/labelled/data/persons.json; this module draws people from them (a
``_World`` per seed) and writes id numbers and dates the way the records hold them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dedup.demo.vocabulary import data_file

_DATA = data_file("bench.datasets.labelled", "persons")
_SURNAMES = _DATA["surnames"]  # with their approximate share of the population (per mille)
_POPULAR_GIVEN = _DATA["popular_given"]  # the most common given names, weights roughly as in national statistics
_GIVEN_CHARS = _DATA["given_chars"]
_SIMILAR = _DATA["similar"]  # homophones and look-alikes that data entry confuses (used for name typos)
_DISTRICTS = _DATA["districts"]  # (province, city or None for a municipality, district, region code, building word)
_STREET_POOL = _DATA["streets"]
_COMMUNITY_POOL = _DATA["communities"]
_BUILDING_WORDS = _DATA["building_words"]
_PHONE_PREFIXES = _DATA["phone_prefixes"]
_DATE_FORMATS = ("iso", "slash", "cn", "compact")
_DATE_FORMAT_WEIGHTS = (50, 20, 15, 15)
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


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


"""Which columns of a sampled table make its fields, and of what kind (for dedup.db.guess).

Long text (a title, a complaint, a description) is ``text``: its words are compared. Values that
tell a person or a thing (names, phones, ids, addresses, dates of birth) are identity fields:
``short`` (the whole value) beside long text, where they only lower the bar for a pair, and
``chars`` (character n-grams, robust to typos) in a table of records without text, weighted as
config.example.yaml's persons table is (ids 3, names and dates of birth 2, phones and addresses 1.5).
A column whose name says nothing (``col7``, ``soc_sec_id``) is still an id number when its values
look like one (``id_like``). Columns of few distinct values (gender, a status, a province), amounts, counts, flags, binary data
and dates other than a birth date are left out, each with the reason.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..config.starter import Choice

HINTS = {  # what a column's name says it holds
    "id": r"id_?(num|no|card|code)|ssn|passport|national|licen[cs]e|身份证|证件",
    "name": r"name|姓名|名字|姓|名$",
    "birth": r"birth|dob|born|生日|出生",
    "phone": r"phone|tel|mobile|cell|fax|电话|手机",
    "email": r"mail",
    "address": r"addr|street|road|住址|地址",
    "code": r"code|zip|post|(^|_)no$|number|编号|邮编",
    "text": r"title|subject|summary|desc|content|body|text|comment|remark|note|message|detail|标题|内容|描述|摘要",
}
_WEIGHTS = {"id": 3, "name": 2, "birth": 2, "phone": 1.5, "email": 1.5, "address": 1.5}
_SAID = {"id": "an id number", "name": "a name", "birth": "a date of birth", "phone": "a phone number",
         "email": "an email address", "address": "an address", "code": "a code or number"}
_TELLS = ("id", "name", "birth", "phone", "email", "address", "code")
ID_CHARS = 7  # an id number by its values: at least this long (postcodes and street numbers are shorter),
ID_SHAPE = 0.8  # this share of values of one length and of digits,
ID_DISTINCT = 0.5  # and this share distinct (copies of one person repeat it)
_DATE = re.compile(r"(19|20)\d\d[-/.]?(0[1-9]|1[0-2])[-/.]?(0[1-9]|[12]\d|3[01])$")
_MOBILE = re.compile(r"(\+?86)?1[3-9]\d{9}$")  # a mainland mobile number: a phone, not an id
LONG_CHARS = 40  # average characters from which a value is long text whatever the column is called
FEW_SHARE = 0.02  # distinct values under this share of the sampled ones: few (with at least 50 sampled)


def hinted(column: str, hint: str) -> bool:
    return re.search(HINTS[hint], column, re.I) is not None


@dataclass
class Profile:
    """A column and what its sampled values look like."""

    column: object  # sqlalchemy Column
    values: list
    strings: list[str]  # the non-empty values as text
    kind: str  # text, integer, number, date, bool, bytes, other
    distinct: int
    avg_len: float
    max_len: int
    words: float  # average whitespace-separated words
    said: tuple[str | None] | None = field(default=None, repr=False, compare=False)  # (said_by's answer,), once asked

    @property
    def filled(self) -> int:
        return len(self.strings)

    @property
    def text(self) -> bool:
        return self.kind == "text"

    @property
    def integer(self) -> bool:
        return self.kind == "integer"

    @classmethod
    def of(cls, column, values: list) -> "Profile":
        strings = [v if isinstance(v, str) else str(v) for v in values
                   if v is not None and not isinstance(v, (bytes, bytearray, memoryview)) and str(v).strip()]
        n = max(len(strings), 1)
        return cls(column, values, strings, _kind(column), len(set(strings)), sum(map(len, strings)) / n,
                   max(map(len, strings), default=0), sum(len(s.split()) for s in strings) / n)

    def spread(self) -> str:
        return f"{self.distinct:,} distinct in {self.filled:,} sampled values"


def _kind(column) -> str:
    try:
        py = column.type.python_type
    except NotImplementedError:
        return "other"
    if py is bool:
        return "bool"
    if py is int:
        return "integer"
    if py is str:
        return "text"
    if py in (bytes, bytearray, memoryview):
        return "bytes"
    if issubclass(py, float) or py.__name__ == "Decimal":
        return "number"
    if py.__name__ in ("date", "datetime"):
        return "date"
    return "other"


def id_like(p: Profile) -> bool:
    """Whether a text column's values read as an id number whatever its name: long runs of digits
    of one length (letters allowed, as in passports or an 18-character id ending in X), mostly
    distinct, and not dates (a date of birth written as 19850312 has the same shape)."""
    if not p.text or p.filled < 10 or p.distinct < ID_DISTINCT * p.filled:
        return False
    lengths = Counter(map(len, p.strings))
    length, most = lengths.most_common(1)[0]
    if length < ID_CHARS or most < ID_SHAPE * p.filled:
        return False
    chars = "".join(p.strings)
    if any(c.isspace() for c in chars) or sum(c.isdigit() for c in chars) < ID_SHAPE * len(chars):
        return False
    return sum(bool(_DATE.match(v)) for v in p.strings) < 0.5 * p.filled


def said_by(p: Profile) -> str | None:
    """What a column holds, by its name (``HINTS``), else an id number (or a mobile phone) by its
    values; worked out once a profile (init asks it of one column up to three times)."""
    if p.said is None:
        p.said = (_said_by(p),)
    return p.said[0]


def _said_by(p: Profile) -> str | None:
    said = next((h for h in _TELLS if hinted(p.column.name, h)), None)
    if said is None and id_like(p):
        return "phone" if sum(bool(_MOBILE.match(v)) for v in p.strings) >= ID_SHAPE * p.filled else "id"
    return said


def _role(p: Profile) -> tuple[str | None, str]:
    """text, identity or None (left out), and why."""
    name = p.column.name
    if p.kind in ("bool", "bytes", "other"):
        return None, {"bool": "yes/no values", "bytes": "binary data"}.get(p.kind, "a type dedup does not compare")
    if p.filled == 0:
        return None, "empty in the sample"
    if p.kind == "date":
        if hinted(name, "birth"):
            return "identity", "a date of birth"
        return None, "a date/time: it says when, not who or what"
    if p.kind == "number" or (p.integer and not any(hinted(name, h) for h in ("id", "phone", "code"))):
        return None, "a number (an amount, a count or a reference): not evidence of a duplicate"
    if p.distinct <= 2 and p.filled >= 10 or p.filled >= 50 and p.distinct < FEW_SHARE * p.filled:
        return None, f"few distinct values ({p.spread()}): equal values say little"
    if p.text and (p.avg_len >= LONG_CHARS or p.words >= 5 or hinted(name, "text") and p.avg_len >= 8):
        return "text", f"long text, {p.avg_len:.0f} characters on average: its words are compared"
    said = said_by(p)
    by_values = " (by its values)" if said in ("id", "phone") and not hinted(name, said) else ""
    return "identity", f"{_SAID.get(said, 'short values')}{by_values}, {p.spread()}"


def choose_fields(profiles: list[Profile], sampled: int) -> tuple[list, list]:
    """(fields, left out) as dedup.config.starter Choices."""
    roles = [(p, *_role(p)) for p in profiles]
    has_text = any(role == "text" for _, role, _ in roles)
    fields, left_out = [], []
    for p, role, why in roles:
        name = p.column.name
        if role == "text":
            fields.append(Choice(name, "text", why))
        elif role is None:
            left_out.append(Choice(name, None, why))
        elif has_text:  # beside long text an identity value only lowers the bar: keep those that tell a person
            tells = said_by(p) is not None
            if tells or p.distinct >= 0.5 * p.filled:
                fields.append(Choice(name, "short", why))
            else:
                left_out.append(Choice(name, None, f"repeats across rows ({p.spread()}) and its name does not say "
                                                   "it tells a person; the long text is compared instead"))
        else:
            fields.append(Choice(name, _chars(p), why))
    return fields, left_out


def _chars(p: Profile) -> object:
    """A record table's identity field: character n-grams (single characters for values of up to
    four, such as Chinese names), weighted by what the column's name says it holds."""
    spec: dict = {"kind": "chars"}
    if p.avg_len <= 4:
        spec["n"] = 1
    weight = _WEIGHTS.get(said_by(p) or "")
    if weight is not None:
        spec["weight"] = weight
    return spec if len(spec) > 1 else "chars"


def display_columns(fields: list, profiles: list[Profile]) -> list[str]:
    """What a report shows with each row: up to four identity fields and the two shortest texts."""
    length = {p.column.name: p.avg_len for p in profiles}
    shorts = [f.column for f in fields if f.spec != "text"][:4]
    texts = sorted((f.column for f in fields if f.spec == "text"), key=lambda c: length.get(c, 0))[:2]
    return shorts + texts

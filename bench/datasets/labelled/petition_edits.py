"""Refiled copies of labelled petitions (the edits of a complaint typed again), and the short complaints."""

from __future__ import annotations

import random
import re
from datetime import datetime

from dedup.demo.draws import homophone_edit
from bench.datasets.labelled.petition_slots import _int, _phone, _pick, _sample, _Slots, _weighted
from bench.datasets.labelled.petition_vocab import (
    _COMMA_TO_HALF, _COMMUNITIES_ALL, _DIGIT_RUN, _DIGITS_TO_FULL, _EXCLAIM_TO_HALF, _FOLLOW_UPS, _GREETINGS,
    _HOMOPHONES, _PUNCT_TO_HALF, _REFILE_LEADS, _SHORT_GREETINGS, _SHORT_SIGNOFFS, _SHORT_TAILS, _SIGNOFFS,
    _TITLE_PREFIXES, _TITLE_SUFFIXES, _Topic,
)
from bench.datasets.labelled.petition_writing import _address, _paraphrase, _person_slots, _pools, _title


# --- edits of refiled copies -----------------------------------------------------------------

_CN_ORDINAL = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十")


def _edit_space(rng: random.Random, s: list[str]) -> None:
    kind = rng.randrange(5)
    if kind == 0 and len(s) > 1:
        for i in _sample(rng, range(len(s) - 1), _int(rng, 1, 3)):
            s[i] = s[i].rstrip(" ") + _pick(rng, ("\n", "\r\n", "\n\n"))
    elif kind == 1:
        s[0] = _pick(rng, ("\u3000\u3000", "  ", "    ", "\t")) + s[0].lstrip()
    elif kind == 2:
        for _ in range(_int(rng, 1, 3)):
            i = rng.randrange(len(s))
            if s[i]:
                at = rng.randrange(len(s[i]))
                s[i] = s[i][:at] + _pick(rng, (" ", " ", "  ", "\u3000")) + s[i][at:]
    elif kind == 3:
        if rng.random() < 0.5:
            s[-1] = s[-1] + _pick(rng, (" ", "\n", "\r\n", "  \n", "\n\n"))
        else:
            s[0] = _pick(rng, ("\n", " ", "\r\n")) + s[0]
    else:
        if any("\n" in x for x in s):
            for i, x in enumerate(s):
                s[i] = x.replace("\r\n", "").replace("\n", "")
        else:
            i = rng.randrange(len(s))
            s[i] = s[i].replace("，", "， ", _int(rng, 1, 3)) if "，" in s[i] else s[i] + " "


def _edit_width(rng: random.Random, s: list[str]) -> None:
    kind = rng.randrange(5)
    if kind == 0:
        s[:] = [x.translate(_COMMA_TO_HALF) for x in s]
    elif kind == 1:
        s[:] = [x.translate(_PUNCT_TO_HALF) for x in s]
    elif kind == 2:
        spots = [(i, m.span()) for i, x in enumerate(s) for m in _DIGIT_RUN.finditer(x)]
        if spots:
            for i, (a, b) in sorted(_sample(rng, spots, _int(rng, 1, 3)), key=lambda x: (x[0], -x[1][0])):
                s[i] = s[i][:a] + s[i][a:b].translate(_DIGITS_TO_FULL) + s[i][b:]
        else:
            s[:] = [x.translate(_EXCLAIM_TO_HALF) for x in s]
    elif kind == 3:  # the input method switched half-way through
        start = rng.randrange(len(s))
        s[start:] = [x.translate(_PUNCT_TO_HALF) for x in s[start:]]
    else:
        s[:] = [x.translate(_EXCLAIM_TO_HALF).replace("“", "\"").replace("”", "\"") for x in s]


def _typo_in(rng: random.Random, text: str) -> str | None:
    return homophone_edit(rng, text, _HOMOPHONES)


def _slip(rng: random.Random, text: str) -> str:
    """A keyboard slip: one character doubled or lost."""
    spots = [i for i, c in enumerate(text) if "\u4e00" <= c <= "\u9fff"]
    if not spots:
        return text + text[-1:]
    i = _pick(rng, spots)
    return text[:i] + text[i] + text[i:] if rng.random() < 0.5 else text[:i] + text[i + 1:]


def _edit_typo(rng: random.Random, s: list[str]) -> None:
    for _ in range(_weighted(rng, (1, 2, 3), (60, 30, 10))):
        order = _sample(rng, range(len(s)), len(s))
        if rng.random() < 0.85:
            for i in order:
                new = _typo_in(rng, s[i])
                if new is not None:
                    s[i] = new
                    break
        else:
            i = order[0]
            s[i] = _slip(rng, s[i])


def _edit_number(rng: random.Random, s: list[str]) -> bool:
    spots = []
    for i, x in enumerate(s):
        for m in _DIGIT_RUN.finditer(x):
            if len(m.group()) <= 6 and not (len(m.group()) == 4 and x[m.end():m.end() + 1] == "年"):
                spots.append((i, m))
    if not spots:
        return False
    i, m = _pick(rng, spots)
    v, after = int(m.group()), s[i][m.end():m.end() + 1]
    if after == "月" and v <= 12:
        new = max(1, min(12, v + _pick(rng, (-1, 1))))
    elif after in "日号" and v <= 31:
        new = max(1, min(28, v + _pick(rng, (-3, -2, -1, 1, 2, 3))))
    elif v < 10:
        new = max(1, v + _pick(rng, (-1, 1, 1, 2)))
    else:
        zeros = len(m.group()) - len(m.group().rstrip("0"))
        unit = 10 ** min(zeros, max(0, len(m.group()) - 2))
        new = max(unit, round(v * (1 + _pick(rng, (-1, 1)) * (0.05 + rng.random() * 0.3)) / unit) * unit)
    if new == v:
        new = v - 1 if (after == "月" and v == 12) or (after in "日号" and v >= 28) else v + 1
    s[i] = s[i][:m.start()] + str(new) + s[i][m.end():]
    return True


def _follow_up(rng: random.Random, doc: dict, ordinal: int, first: datetime, t: datetime) -> str:
    day = f"{first.month}月{first.day}日"
    fmt = {"ordinal": _CN_ORDINAL[min(ordinal, 10)],
           "first_date": day if rng.random() < 0.6 else f"{first.year}年{day}",
           "gap_days": max(1, (t - first).days)}
    return _pick(rng, _FOLLOW_UPS).format_map(fmt)


def _edit_append(rng: random.Random, doc: dict, s: list[str], ordinal: int, first: datetime, t: datetime) -> None:
    if rng.random() < 0.8:
        s.append(_follow_up(rng, doc, ordinal, first, t))
    else:
        s.insert(0, _pick(rng, _REFILE_LEADS) if rng.random() < 0.6 else _follow_up(rng, doc, ordinal, first, t))


def _edit_greet(rng: random.Random, doc: dict, s: list[str], t: datetime) -> None:
    kind = rng.randrange(3)
    if kind in (0, 2) and not s[0].lstrip().startswith(("尊敬", "领导", "您好", "你好", "各位", "市长")):
        s.insert(0, _pick(rng, _GREETINGS))
    elif kind == 0:
        kind = 1
    if kind in (1, 2):
        sign = _pick(rng, _SIGNOFFS)
        s.append(sign.format(name=doc["name"] or doc["person"]["name"], phone=doc["phone"] or doc["person"]["phone"],
                             sign_date=f"{t.year}年{t.month}月{t.day}日"))


def _edit_contact(rng: random.Random, doc: dict) -> None:
    p = doc["person"]
    if rng.random() < 0.5:
        if rng.random() < 0.6:
            doc["phone"] = _phone(rng)
        else:
            ph = p["phone"]
            doc["phone"] = _pick(rng, (f"{ph[:3]}-{ph[3:7]}-{ph[7:]}", f"{ph[:3]} {ph[3:7]} {ph[7:]}", f"+86{ph}",
                                       f"{ph}（微信同号）"))
    else:
        if rng.random() < 0.8:
            style = (p["address_style"] + _int(rng, 1, 4)) % 5
            doc["address"] = _address(rng, p, style)
        else:  # moved, or gave another flat of the family
            moved = dict(p)
            if p["rural"]:
                moved["group"], moved["house"] = _int(rng, 1, 12), _int(rng, 1, 150)
            else:
                moved["community"] = _pick(rng, _COMMUNITIES_ALL)
                moved["building"], moved["floor"] = _int(rng, 1, 32), _int(rng, 1, 30)
                moved["room"] = f"{moved['floor']}0{_int(rng, 1, 4)}"
            doc["address"] = _address(rng, moved, p["address_style"])


def _edit_title(rng: random.Random, doc: dict, ordinal: int) -> None:
    r, title = rng.random(), doc["title"] or ""
    if r < 0.4:
        new = _pick(rng, _TITLE_PREFIXES) + title
    elif r < 0.65:
        new = title + _pick(rng, _TITLE_SUFFIXES).format(ordinal=_CN_ORDINAL[min(ordinal, 10)])
    else:
        new = _title(rng, doc["topic"], doc["slots"], doc.get("matter", "*"))
    if len(new) > 30 or new == title:
        new = _title(rng, doc["topic"], doc["slots"], doc.get("matter", "*"))
    if new == title:
        new = title.translate(_PUNCT_TO_HALF) + "!" if len(title) < 30 else title[:-1]
    doc["title"] = new


_EDITS = ("space", "width", "typo", "append", "greet", "drop", "swap", "number", "contact", "title", "reword")
_EDIT_WEIGHTS = (18, 13, 18, 12, 12, 7, 7, 7, 8, 6, 5)


def _refile(rng: random.Random, parent: dict, ordinal: int, first: datetime, t: datetime) -> dict:
    doc = {**parent, "sents": list(parent["sents"]), "created_at": t}
    n = _weighted(rng, (1, 2, 3), (45, 35, 20))
    edits: list[str] = []
    while len(edits) < n:
        e = _weighted(rng, _EDITS, _EDIT_WEIGHTS)
        if e not in edits:
            edits.append(e)
    s = doc["sents"]
    for e in edits:
        if e == "space":
            _edit_space(rng, s)
        elif e == "width":
            _edit_width(rng, s)
            if rng.random() < 0.3 and doc["title"]:
                doc["title"] = doc["title"].translate(_PUNCT_TO_HALF)
        elif e == "typo":
            _edit_typo(rng, s)
        elif e == "append":
            _edit_append(rng, doc, s, ordinal, first, t)
        elif e == "greet":
            _edit_greet(rng, doc, s, t)
        elif e == "drop":
            if len(s) > 3:
                del s[rng.randrange(len(s))]
            else:
                _edit_typo(rng, s)
        elif e == "swap":
            if len(s) >= 3:
                i = rng.randrange(len(s) - 1)
                j = i + 1 if rng.random() < 0.6 else rng.randrange(len(s))
                if i == j:
                    j = (i + 1) % len(s)
                s[i], s[j] = s[j], s[i]
            else:
                _edit_space(rng, s)
        elif e == "number":
            if not _edit_number(rng, s):
                _edit_typo(rng, s)
        elif e == "contact":
            _edit_contact(rng, doc)
        elif e == "reword":  # a sentence or two typed again in other words
            for i in _sample(rng, range(len(s)), _int(rng, 1, 3)):
                s[i] = _paraphrase(rng, s[i], 0.8)
        else:
            _edit_title(rng, doc, ordinal)
    if (s, doc["title"], doc["phone"], doc["address"]) == (parent["sents"], parent["title"], parent["phone"],
                                                             parent["address"]):
        s[-1] = s[-1] + "\n"
    doc["edits"] = tuple(edits)
    return doc


# --- short complaints ------------------------------------------------------------------------


def _short_norm(text: str) -> str:
    return re.sub(r"[\s，。！？、,.!?；;：:]", "", text)


def _short(rng: random.Random, topic: _Topic, person: dict, t: datetime) -> dict:
    slots = _Slots(rng, topic, t, person["rural"], _person_slots(person))
    text = _pick(rng, _pools(topic, person["rural"])["shorts"]).format_map(slots)
    if rng.random() < 0.3:
        tail = _pick(rng, _SHORT_TAILS)
        if len(text) + len(tail) <= 52:
            text += tail
    if rng.random() < 0.25:
        title = re.sub(r"[，。！？]+$", "", text)[:24]
        title = title.split("，")[0] if len(title.split("，")[0]) >= 6 else title
    else:
        title = _pick(rng, topic.short_titles)
    return {"topic": topic, "person": person, "slots": slots, "sents": [text], "title": title,
            "name": person["name"], "phone": person["phone"], "address": person["address"], "created_at": t}


def _refile_short(rng: random.Random, parent: dict, t: datetime) -> dict:
    text = parent["sents"][0]
    for _ in range(_weighted(rng, (1, 2), (60, 40))):
        kind = _weighted(rng, ("punct", "space", "typo", "greet"), (30, 25, 25, 20))
        if kind == "greet":
            extra = _pick(rng, _SHORT_GREETINGS) if rng.random() < 0.5 else _pick(rng, _SHORT_SIGNOFFS)
            if len(text.strip()) + len(extra) <= 60:
                text = extra + text if extra in _SHORT_GREETINGS else text + extra
                continue
            kind = "punct"
        if kind == "typo":
            text = _typo_in(rng, text) or _slip(rng, text)
        elif kind == "space":
            r = rng.random()
            if r < 0.5:
                at = _int(rng, 1, max(1, len(text) - 1))
                text = text[:at] + _pick(rng, (" ", "  ", "\u3000")) + text[at:]
            else:
                text = text + _pick(rng, ("\n", " ", "\r\n")) if r < 0.8 else " " + text
        else:
            r = rng.random()
            if r < 0.3:
                text = text.translate(_COMMA_TO_HALF)
            elif r < 0.55 and text.endswith("。"):
                text = text[:-1]
            elif r < 0.8:
                text = re.sub(r"[。！]?$", "！", text, count=1)
            else:
                text = text.translate(_PUNCT_TO_HALF)
    if text == parent["sents"][0]:
        text = text + " "
    title = parent["title"] if rng.random() < 0.7 else _pick(rng, parent["topic"].short_titles)
    return {**parent, "sents": [text], "title": title, "created_at": t}


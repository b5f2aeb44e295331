"""Edits that turn a demo petition into a near-duplicate copy, and the edge rows (empty, short, long, odd)."""

from __future__ import annotations

import random
import re

from .draws import homophone_edit
from .vocabulary import sentences
from .writing import _ACTIONS, _IMPACTS, _PLACE_KEYS, _TOPICS, _int, _person, _petition, _pick, _sample, _Slots

_FOLLOW_UPS = sentences("follow_ups")
_GREETINGS = sentences("greetings")
_HOMOPHONES = sentences("homophones")
_PUNCT_TO_HALF = str.maketrans({"，": ",", "。": ".", "；": ";", "：": ":", "！": "!", "？": "?",
                                "（": "(", "）": ")", "、": ","})
_COMMA_TO_HALF = str.maketrans({"，": ","})
_DIGIT_RUN = re.compile(r"[0-9]+")
_DIGITS_TO_FULL = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(ord("0"), ord("9") + 1)})
_FULLWIDTH_SENTENCES = sentences("fullwidth_sentences")


# ---------------------------------------------------------------------------------------------
# Edits that turn a base petition into a near-duplicate copy


def _width_edit(rng: random.Random, text: str) -> str:
    kind = rng.randrange(3)
    runs = [m.span() for m in _DIGIT_RUN.finditer(text)] if kind == 0 else []
    if runs:  # one or two numbers typed in full-width mode
        for a, b in sorted(_sample(rng, runs, min(len(runs), _int(rng, 1, 2))), reverse=True):
            text = text[:a] + text[a:b].translate(_DIGITS_TO_FULL) + text[b:]
        return text
    if kind == 1:
        return text.translate(_COMMA_TO_HALF)
    return text.translate(_PUNCT_TO_HALF)


def _whitespace_edit(rng: random.Random, text: str) -> str:
    kind = rng.randrange(4)
    if kind == 0:  # line breaks after some sentences
        parts = text.split("。")
        for i in _sample(rng, range(1, len(parts)), min(3, len(parts) - 1)):
            parts[i] = _pick(rng, ("\n", "\r\n", "\n\n")) + parts[i]
        return "。".join(parts)
    if kind == 1:  # stray spaces
        chars = list(text)
        for i in sorted(_sample(rng, range(len(chars)), min(3, len(chars))), reverse=True):
            chars.insert(i, _pick(rng, (" ", "  ", "\u3000")))
        return "".join(chars)
    if kind == 2:
        return _pick(rng, ("  ", "\n", "\u3000\u3000")) + text + _pick(rng, (" ", "\n", "\r\n", ""))
    return text.replace("，", _pick(rng, ("， ", " ，")), _int(rng, 1, 4))


def _homophone_edit(rng: random.Random, text: str) -> str | None:
    return homophone_edit(rng, text, _HOMOPHONES)


def _copy(rng: random.Random, base: dict, collective: bool) -> dict:
    row = {k: base[k] for k in ("name", "phone", "address", "category", "title", "content")}
    if collective:
        person = _person(rng, near=base["_person"])
        row.update(name=person["name"], phone=person["phone"], address=person["address"])
        edits = _sample(rng, ("width", "space"), _pick(rng, (0, 1, 1)))
    else:
        edits = _sample(rng, ("width", "space", "append", "prepend", "homophone", "drop"), _pick(rng, (1, 1, 2)))
    text = row["content"]
    for edit in edits:
        if edit == "width":
            text = _width_edit(rng, text)
            row["title"] = row["title"].translate(_PUNCT_TO_HALF)
        elif edit == "space":
            text = _whitespace_edit(rng, text)
        elif edit == "append":
            text = text + _pick(rng, _FOLLOW_UPS)
        elif edit == "prepend":
            text = _pick(rng, _GREETINGS) + text
        elif edit == "homophone":
            text = _homophone_edit(rng, text) or _whitespace_edit(rng, text)
        else:
            row[_pick(rng, ("name", "phone", "address"))] = None
    row["content"] = text
    return row


# ---------------------------------------------------------------------------------------------
# Edge rows

_EDGE_KINDS = ("none", "blank", "short", "short", "short", "short", "long", "fullwidth", "fullwidth", "fullwidth")


def _edge_row(rng: random.Random, kind: str, shorts: list, odd_sentences: list) -> dict:
    if kind == "none":
        return dict(name=None, phone=None, address=None, category=None, title=None, content=None)
    if kind == "blank":
        return dict(name="", phone=" ", address="\t", category="", title="  ", content="\n \u3000 \n")
    person = _person(rng)
    row = {k: person[k] for k in ("name", "phone", "address")}
    if kind == "short":
        topic, text = shorts.pop()
        slots = _Slots(rng, topic, **{k: person[k] for k in _PLACE_KEYS if k in person})
        row.update(category=topic.name, title=_pick(rng, topic.titles).format_map(slots), content=text)
        return row
    row.update(_petition(rng, person))
    if kind == "long":  # a petitioner recounting years of attempts
        topic = next(t for t in _TOPICS if t.name == row["category"])
        parts = [row["content"]]
        total = len(row["content"])
        while total < 5200:
            slots = _Slots(rng, topic, district=person["district"], street=person["street"])
            pool = topic.problems + _ACTIONS + _IMPACTS
            s = f"{slots['date']}，" + "".join(x.format_map(slots) for x in _sample(rng, pool, 3))
            parts.append(s)
            total += len(s)
        row["content"] = "".join(parts)
    else:  # fullwidth
        slots = _Slots(rng, next(t for t in _TOPICS if t.name == row["category"]))
        extra = odd_sentences.pop().format_map(slots)
        cut = row["content"].find("。") + 1
        row["content"] = row["content"][:cut] + extra + row["content"][cut:]
    return row


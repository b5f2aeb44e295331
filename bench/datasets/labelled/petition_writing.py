"""Writing one labelled petition: its petitioner, a plan of templates in order, rendered in the author's habits."""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from bench.datasets.labelled.petition_slots import _int, _name, _phone, _pick, _sample, _Slots, _weighted
from bench.datasets.labelled.petition_vocab import (
    _ACTIONS, _CLOSINGS, _COLLECTIVE_EXTRAS, _COMMA_TO_HALF, _COMMUNITIES_ALL, _CONNECTORS, _DEMAND_FIRST, _DEMANDS,
    _DIGITS_TO_FULL, _DISTRICTS, _IMPACTS, _LEX_GROUP, _LEX_RE, _NARRATIVE, _OPENINGS, _PUNCT_TO_HALF, _ROADS_ALL,
    _STREETS, _Topic, _TOPIC_CUMULATIVE, _TOPICS, _TOWNS, _VILLAGES, _WINDUP,
)


def _paraphrase(rng: random.Random, template: str, strength: float) -> str:
    return _LEX_RE.sub(lambda m: _pick(rng, _LEX_GROUP[m.group()]) if rng.random() < strength else m.group(),
                       template)


# ---------------------------------------------------------------------------------------------
# Petitioners

_RURAL_ONLY = ("{village}", "{town}", "村", "镇", "{group}", "亩", "征地", "青苗")
_URBAN_ONLY = ("{community}", "小区", "{street}", "业主", "{building}", "楼上", "楼下", "楼道", "居委会", "{room}", "物业")
_PERSON_KEYS_URBAN = ("district", "street", "community", "building", "unit", "floor", "room", "name", "phone")
_PERSON_KEYS_RURAL = ("district", "town", "village", "group", "name", "phone")
_PERSONAL_KEYS = ("building", "unit", "floor", "room", "group", "name", "phone", "age_old", "grade", "year_move",
                  "family")


def _fits(template, rural: bool) -> bool:
    text = template if isinstance(template, str) else template[0]
    banned = _URBAN_ONLY if rural else _RURAL_ONLY
    return not any(b in text for b in banned)


def _address(rng: random.Random, p: dict, style: int) -> str:
    if p["rural"]:
        if style % 2 == 0:
            return f"{p['district']}{p['town']}{p['village']}{p['group']}组{p['house']}号"
        return f"{p['town']}{p['village']}{p['group']}组"
    b, u, room = p["building"], p["unit"], p["room"]
    return (
        f"{p['district']}{p['street']}{p['community']}{b}栋{u}单元{room}室",
        f"{p['district']}{p['community']}{b}号楼{u}单元{room}",
        f"{p['district']}{p['road']}{p['road_no']}号{p['community']}{b}-{u}-{room}",
        f"{p['community']}{b}幢{room}室",
        f"本市{p['district']}{p['street']}{p['community']}{'' if p['community'].endswith('小区') else '小区'}{b}号楼{room}",
    )[style % 5]


def _person(rng: random.Random, rural: bool, near: dict | None = None) -> dict:
    """A petitioner; with ``near``, a neighbour (same community or village) for collective complaints."""
    p = {"rural": rural, "district": near["district"] if near else _pick(rng, _DISTRICTS)}
    if rural:
        p["town"] = near["town"] if near else _pick(rng, _TOWNS)
        p["village"] = near["village"] if near else _pick(rng, _VILLAGES)
        p["group"] = _int(rng, 1, 12)
        p["house"] = _int(rng, 1, 150)
    else:
        for k, maker in (("street", lambda: _pick(rng, _STREETS)), ("community", lambda: _pick(rng, _COMMUNITIES_ALL)),
                         ("road", lambda: _pick(rng, _ROADS_ALL)), ("road_no", lambda: _int(rng, 1, 400))):
            p[k] = near[k] if near else maker()
        p["building"] = _int(rng, 1, 32)
        p["unit"] = _int(rng, 1, 4)
        p["floor"] = _int(rng, 1, 30)
        p["room"] = f"{p['floor']}0{_int(rng, 1, 4)}"
    p["name"] = _name(rng)
    p["phone"] = _phone(rng)
    p["address_style"] = rng.randrange(5)
    p["address"] = _address(rng, p, p["address_style"])
    return p


def _person_slots(p: dict) -> dict:
    return {k: p[k] for k in (_PERSON_KEYS_RURAL if p["rural"] else _PERSON_KEYS_URBAN)}


def _pick_topic(rng: random.Random, pred=None) -> _Topic:
    if pred is None:
        return _TOPICS[bisect.bisect(_TOPIC_CUMULATIVE, rng.random() * _TOPIC_CUMULATIVE[-1])]
    pool = [t for t in _TOPICS if pred(t)]
    return _weighted(rng, pool, [t.weight for t in pool])


# ---------------------------------------------------------------------------------------------
# Writing a petition: a plan (templates in order) rendered with slots and the author's habits


@dataclass
class _Style:
    """An author's habits, kept when the same person writes again."""

    connect: float  # chance a narrative sentence starts with a connector
    punct: int  # 0 normal, 1 half-width commas, 2 half-width punctuation, 3 full-width digits, 4 space after comma
    paragraphs: bool
    rewording: float  # chance each interchangeable wording is written another way


def _style(rng: random.Random) -> _Style:
    punct = _weighted(rng, (0, 1, 2, 3, 4), (85, 6, 3, 3, 3))
    return _Style(rng.random() * 0.25, punct, rng.random() < 0.22, 0.4 + rng.random() * 0.5)


def _apply_style(text: str, style: _Style) -> str:
    if style.punct == 1:
        text = text.translate(_COMMA_TO_HALF)
    elif style.punct == 2:
        text = text.translate(_PUNCT_TO_HALF)
    elif style.punct == 3:
        text = text.translate(_DIGITS_TO_FULL)
    elif style.punct == 4:
        text = text.replace("，", "， ")
    return text


_POOLS: dict = {}


def _pools(topic: _Topic, rural: bool, matter: str = "*") -> dict:
    """The templates a petition on ``topic`` about ``matter`` may use, for a villager or a town dweller."""
    key = (topic.key, rural, matter)
    if key not in _POOLS:
        def keep(seq):
            return tuple(x for x in seq if _fits(x, rural))

        def mine(name):
            tags = topic.tags[name]
            return tuple(x for x, tag in zip(getattr(topic, name), tags)
                         if (matter == "*" or tag in ("*", matter)) and _fits(x, rural))
        _POOLS[key] = {
            "facts": tuple(i for i, (f, tag) in enumerate(zip(topic.facts, topic.tags["facts"]))
                           if (matter == "*" or tag in ("*", matter)) and _fits(f, rural)),
            "background": mine("background"), "contacts": mine("contacts"), "demands": mine("demands"),
            "titles": mine("titles"), "shorts": keep(topic.shorts),
            "openings": keep(_OPENINGS), "actions": keep(_ACTIONS), "impacts": keep(_IMPACTS),
            "narrative": keep(_NARRATIVE), "windup": keep(_WINDUP), "gen_demands": keep(_DEMANDS),
            "extras": keep(_COLLECTIVE_EXTRAS),
        }
    return _POOLS[key]


def _matters(topic: _Topic, rural: bool) -> list[str]:
    """The matters of ``topic`` that have enough to say for this kind of petitioner."""
    letters = sorted({tag for tag in topic.tags["facts"] if tag != "*"})
    ok = [m for m in letters if len(_pools(topic, rural, m)["facts"]) >= 4 and _pools(topic, rural, m)["titles"]]
    return ok or ["*"]


def _variant(rng: random.Random, t):
    return t if isinstance(t, str) else _pick(rng, t)


def _plan(rng: random.Random, topic: _Topic, slots: _Slots, style: _Style, target: int, *, matter="*",
          opening=True, closing=True, exclude=(), opening_template: str | None = None,
          min_facts=3) -> tuple[list[str], list[int], str | None]:
    """Templates of one petition in order, about ``target`` characters; also its facts and opening."""
    P = _pools(topic, slots.rural, matter)
    fact_ids = [i for i in P["facts"] if i not in exclude]
    long = target > 700
    # a letter tells only part of what could be said about its matter, so two letters on one matter
    # share a sentence template now and then, not most of them
    cap = max(min_facts, -(-len(fact_ids) * (8 if long else 5) // 10))
    chosen = _sample(rng, fact_ids, min(cap, _int(rng, min_facts, min_facts + 1)))
    rest = [i for i in fact_ids if i not in chosen][:max(0, cap - len(chosen))]
    head = None
    if opening_template is not None:
        head = opening_template
    elif opening and rng.random() < 0.7:
        head = _pick(rng, P["openings"])
    bg = _sample(rng, P["background"], _weighted(rng, (0, 1, 2), (35, 50, 15)))
    facts = [_variant(rng, topic.facts[i]) for i in chosen]
    own, general = P["demands"], P["gen_demands"]
    k = _weighted(rng, (1, 2), (65, 35))
    demands = _sample(rng, own, k) if rng.random() < 0.7 else _sample(rng, own, k - 1) + _sample(rng, general, 1)
    demands = _sample(rng, demands, len(demands)) or _sample(rng, general, k)
    tail = [_pick(rng, _CLOSINGS)] if closing and rng.random() < 0.3 else []
    if "{date}" in "".join(([head] if head else []) + bg + facts):
        slots["date"]  # noqa: B018 - draw {date} before {date2} so the later date follows it

    def size(ts):
        return sum(len(t.format_map(slots)) for t in ts)

    total = size(([head] if head else []) + bg + facts + demands + tail)
    optional = ([("fact", _variant(rng, topic.facts[i]), i) for i in rest]
                + [("contact", t, None) for t in _sample(rng, P["contacts"], 2)]
                + [("contact", t, None) for t in _sample(rng, P["actions"], 4 if long else 2)]
                + [("impact", t, None) for t in _sample(rng, P["impacts"], 4 if long else 2)]
                + [("narrative", t, None) for t in _sample(rng, P["narrative"], 4 if long else 2)]
                + [("windup", t, None) for t in _sample(rng, P["windup"], 2 if long else 1)])
    weight = {"fact": 6.0, "contact": 2.0, "impact": 1.0, "narrative": 0.6, "windup": 0.5}
    keys = [rng.random() ** (1.0 / weight[kind]) for kind, _, _ in optional]  # weighted order without replacement
    optional = [o for _, o in sorted(zip(keys, optional), key=lambda x: -x[0])]
    contacts, impacts, narrative, windup = [], [], [], []
    for kind, t, i in optional:
        if total >= target:
            break
        total += size([t])
        if kind == "fact":
            facts.append(t)
            chosen.append(i)
        else:
            {"contact": contacts, "impact": impacts, "narrative": narrative, "windup": windup}[kind].append(t)

    body = _sample(rng, facts, len(facts))
    for t in impacts:
        body.insert(_int(rng, 1, len(body)), t)
    connectable = set(body)
    if bg:
        if rng.random() < 0.8:
            body = bg + body
        else:
            for t in bg:
                body.insert(_int(rng, 0, len(body)), t)
    if contacts:
        if rng.random() < 0.7:
            body = body + contacts
        else:
            at = _int(rng, 0, min(2, len(body)))
            body = body[:at] + contacts + body[at:]
    body = body + narrative + windup
    for i in range(1, len(body)):
        if body[i] in connectable and rng.random() < style.connect:
            body[i] = _pick(rng, _CONNECTORS) + body[i]
    if style.paragraphs and len(body) > 3:
        cut = _int(rng, 1, len(body) - 1)
        body[cut - 1] = body[cut - 1] + "\n"
    plan = [head] if head else []
    if head and style.paragraphs:
        plan[0] = head + "\n"
    if rng.random() < 0.15:
        plan += demands + [_pick(rng, _DEMAND_FIRST)] + body + tail
    else:
        plan += body + (["\n"] if style.paragraphs else []) + demands + tail
    plan = [_paraphrase(rng, t, style.rewording) for t in _merge_breaks(plan)]
    return plan, chosen, head


def _merge_breaks(plan: list[str]) -> list[str]:
    out: list[str] = []
    for t in plan:
        if t == "\n" and out:
            out[-1] += "\n"
        elif t != "\n":
            out.append(t)
    return out


def _render(plan: list[str], slots: _Slots, style: _Style) -> list[str]:
    return [_apply_style(t.format_map(slots), style) for t in plan]


def _title(rng: random.Random, topic: _Topic, slots: _Slots, matter: str = "*") -> str:
    titles = _pools(topic, slots.rural, matter)["titles"] or _pools(topic, slots.rural)["titles"]
    for _ in range(6):
        t = _pick(rng, titles).format_map(slots)
        if 8 <= len(t) <= 30:
            return t
    return t


def _third_person(text: str) -> str:
    return text.replace("我们", "他们").replace("我家", "其家").replace("本人", "来电人").replace("我", "其")


def _wrap(rng: random.Random, bp: tuple, slots: _Slots, body: list[str]) -> list[str]:
    _, opening, closing, third = bp
    if third:
        body = [_third_person(s) for s in body]
    return [opening.format_map(slots)] + body + [closing]


# ---------------------------------------------------------------------------------------------
# Time


_START = datetime(2023, 1, 1)
_DAYS = 730
_END = _START + timedelta(days=_DAYS)
_HOUR_WEIGHTS = (1, 1, 1, 1, 1, 1, 2, 4, 7, 9, 9, 8, 6, 7, 8, 8, 8, 7, 6, 6, 7, 7, 5, 3)


def _time(rng: random.Random, lo_day: int = 0, hi_day: int = _DAYS - 1) -> datetime:
    hour = _weighted(rng, range(24), _HOUR_WEIGHTS)
    return _START + timedelta(days=_int(rng, lo_day, hi_day), hours=hour, seconds=rng.randrange(3600))


def _later(rng: random.Random, t: datetime) -> datetime:
    kind = _weighted(rng, (0, 1, 2), (25, 50, 25))
    if kind == 0:
        gap = timedelta(hours=_int(rng, 1, 72), seconds=rng.randrange(3600))
    elif kind == 1:
        gap = timedelta(days=_int(rng, 3, 45), seconds=rng.randrange(86400))
    else:
        gap = timedelta(days=_int(rng, 45, 120), seconds=rng.randrange(86400))
    new = t + gap
    if new >= _END:
        new = t + timedelta(seconds=_int(rng, 60, 3600))
    return new


# ---------------------------------------------------------------------------------------------
# Petitions


def _new(rng: random.Random, topic: _Topic, person: dict, t: datetime, *, style: _Style | None = None,
         target: int | None = None, exclude=(), opening_template=None, known=(), boilerplate=None,
         matter: str | None = None) -> dict:
    """One petition by ``person`` at ``t``: a dict with its sentences and what made them."""
    style = style or _style(rng)
    matter = matter or _pick(rng, _matters(topic, person["rural"]))
    slots = _Slots(rng, topic, t, person["rural"], {**_person_slots(person), **dict(known)})
    if target is None:
        r = rng.random()
        target = _int(rng, 800, 1250) if r < 0.03 else int(rng.triangular(150, 760, 260))
    title = _title(rng, topic, slots, matter)
    if boilerplate is None:
        plan, used, head = _plan(rng, topic, slots, style, target, matter=matter, exclude=exclude,
                                 opening_template=opening_template)
        sents = _render(plan, slots, style)
    else:
        slots["title"] = title
        fixed = len(boilerplate[1].format_map(slots)) + len(boilerplate[2])
        share = 0.33 + rng.random() * 0.19
        body_target = int(fixed * (1 - share) / share)
        plan, used, head = _plan(rng, topic, slots, style, body_target, matter=matter, opening=False,
                                 closing=False, exclude=exclude, min_facts=2)
        plan = _trim_to_share(rng, plan, slots, fixed)
        sents = _wrap(rng, boilerplate, slots, _render(plan, slots, style))
    return {"topic": topic, "matter": matter, "person": person, "slots": slots, "style": style, "plan": plan,
            "facts": used, "opening": head, "sents": sents, "title": title, "name": person["name"],
            "phone": person["phone"],
            "address": person["address"], "created_at": t, "boilerplate": boilerplate}


def _trim_to_share(rng: random.Random, plan: list[str], slots: _Slots, fixed: int) -> list[str]:
    """Drop sentences until the wrapper is at least 30 % of the text."""
    plan = list(plan)
    while len(plan) > 2 and fixed / (fixed + sum(len(t.format_map(slots)) for t in plan)) < 0.31:
        del plan[_int(rng, 0, len(plan) - 2)]
    return plan


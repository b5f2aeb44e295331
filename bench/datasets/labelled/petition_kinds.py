"""The rows behind the hard cases of the labelled petitions: short, collective and same-person complaints."""

from __future__ import annotations

import random
from datetime import timedelta

from bench.datasets.labelled.petition_edits import _edit_space, _edit_typo, _edit_width, _short, _short_norm
from bench.datasets.labelled.petition_slots import _int, _pick, _Slots
from bench.datasets.labelled.petition_vocab import _COLLECTIVE_OPENINGS, _GREETINGS, _MATTERS, _Topic
from bench.datasets.labelled.petition_writing import (
    _DAYS, _matters, _new, _person, _person_slots, _PERSONAL_KEYS, _pick_topic, _plan, _pools, _render, _style, _time,
    _title,
)


def _unique_short(rng: random.Random, topic: _Topic, seen: set[str]) -> dict:
    for _ in range(50):
        doc = _short(rng, topic, _person(rng, rng.random() < topic.rural), _time(rng, 0, _DAYS - 100))
        key = _short_norm(doc["sents"][0])
        if key not in seen and 10 <= len(doc["sents"][0]) <= 60:
            seen.add(key)
            return doc
        topic = _pick_topic(rng)
    return doc


def _collective(rng: random.Random, size: int) -> list[dict]:
    topic = _pick_topic(rng, lambda t: t.collective)
    rural = topic.rural >= 1.0 or rng.random() < topic.rural
    wages = topic.key == "欠薪"
    base = _person(rng, rural)
    t0 = _time(rng, 0, _DAYS - 30)
    style = _style(rng)
    slots = _Slots(rng, topic, t0, rural, _person_slots(base))
    if wages:
        opening = _COLLECTIVE_OPENINGS[4]
    elif rural:
        opening = _COLLECTIVE_OPENINGS[3]
    else:
        opening = _pick(rng, _COLLECTIVE_OPENINGS[:3])
    allowed = _MATTERS.get(topic.key, {}).get("collective")
    matters = [m for m in _matters(topic, rural) if allowed is None or m in allowed]
    matter = _pick(rng, matters or _matters(topic, rural))
    plan, _, _ = _plan(rng, topic, slots, style, int(rng.triangular(180, 650, 300)), matter=matter,
                       opening_template=opening)
    title = _title(rng, topic, slots, matter)
    extras = _pools(topic, rural)["extras"]
    docs, t = [], t0
    for m in range(size):
        person = base if m == 0 else (_person(rng, rural) if wages else _person(rng, rural, near=base))
        own = slots.fork(drop=_PERSONAL_KEYS)
        own.update(_person_slots(person) if not wages else {"name": person["name"], "phone": person["phone"]})
        own_plan = list(plan)
        if m > 0 and rng.random() < 0.5:
            extra = _pick(rng, extras)
            own_plan.insert(1 if rng.random() < 0.6 else max(1, len(own_plan) - 1), extra)
        if m > 0 and rng.random() < 0.1 and len(own_plan) > 4:
            del own_plan[_int(rng, 1, len(own_plan) - 2)]
        sents = _render(own_plan, own, style)
        if m > 0 and rng.random() < 0.25:
            e = _pick(rng, ("space", "width", "typo", "greet"))
            if e == "space":
                _edit_space(rng, sents)
            elif e == "width":
                _edit_width(rng, sents)
            elif e == "typo":
                _edit_typo(rng, sents)
            else:
                sents.insert(0, _pick(rng, _GREETINGS))
        own_title = title if m == 0 or rng.random() < 0.75 else _title(rng, topic, own, matter)
        docs.append({"topic": topic, "matter": matter, "person": person, "slots": own, "style": style,
                     "plan": own_plan, "facts": [],
                     "opening": opening, "sents": sents, "title": own_title, "name": person["name"],
                     "phone": person["phone"], "address": person["address"], "created_at": t, "boilerplate": None})
        t = t + timedelta(hours=_int(rng, 0, 72), seconds=rng.randrange(3600))
    return docs


def _other_complaint(rng: random.Random, prior: dict) -> dict:
    """The same petitioner with a different complaint: another topic, or the same topic about another matter."""
    person, topic = prior["person"], prior["topic"]
    others = [m for m in _matters(topic, person["rural"]) if m != prior["matter"]]
    free = [i for i in _pools(topic, person["rural"], prior["matter"])["facts"] if i not in prior["facts"]]
    known = {k: prior["slots"][k] for k in ("years", "age") if k in prior["slots"]}
    matter = None
    if rng.random() < 0.5 and (others or len(free) >= 4):
        exclude = prior["facts"]  # never the same facts: a different matter
        matter = _pick(rng, others) if others and (prior["matter"] == "*" or rng.random() < 0.8) else prior["matter"]
        if matter == "*" and len(free) < 4:
            matter = prior["matter"]
        if rng.random() < 0.6:  # same company, same place: another matter with the same party
            known.update({k: prior["slots"][k] for k in ("brand", "company", "school", "hospital", "shop", "road",
                                                          "restaurant") if k in prior["slots"]})
    else:
        exclude = ()
        topic = _pick_topic(rng, lambda t: t is not prior["topic"]
                            and (t.rural > 0 if person["rural"] else t.rural < 1))
    opening = prior["opening"] if prior.get("opening") and rng.random() < 0.35 else None
    bp = prior["boilerplate"] if prior.get("boilerplate") and rng.random() < 0.3 else None
    return _new(rng, topic, person, _time(rng), style=prior["style"], exclude=exclude, opening_template=opening,
                known=known, boilerplate=bp, matter=matter)


"""TUNING set for issue 22 (session 36): brief complaints on a few dozen topics, each one sentence or
two of 60-100 characters whose only own details are small-range numbers (building, unit, month,
day, days, floor) and the community in its title. At tens of thousands of rows two unrelated
incidents on one topic share half their numbers by chance (the failure the numbers must not fall
into as the table grows); 5 % of complaints are a new incident at an earlier one's place.
Session 36, second helper (prompted by session 36's held-out diagnosis: the true links a brief bar lost there
differ by one number token): a third of refiles edit one number or mistype its unit character
(zh.number_edit), and 40 % of neighbours name their own building.

    python -m bench.datasets.tuning22.places_brief --rows 50000 --seed 0 --out /tmp/t22/brief-50k

Vocabulary and topics are this folder's own (zh.py, topics_zh.py); never the held-out sets'.
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from . import topics_zh, zh
from .output import cli, numbered

KINDS = ("original", "refiled", "neighbour", "new_incident")
NEW_INCIDENT = 0.05
OWN_BUILDING = 0.4  # share of neighbours naming their own building, the next one (session 36, i22-places2)
BRIEF = (  # slots: thing wrong harm ask, bld unit month day days floor times
    "{bld}号楼{unit}单元的{thing}{wrong}，从{month}月{day}日起已经{days}天，{harm}，请{ask}。",
    "{month}月{day}日以来{bld}号楼{unit}单元{thing}{wrong}，{floor}楼的住户{harm}，反映了{times}次，请{ask}。",
    "我住{bld}号楼{unit}单元{floor}楼，{thing}{wrong}已经{days}天了，{month}月{day}日找过物业，请{ask}。",
)

CLOSINGS = ("物业和社区都说会处理，到现在还没有结果。", "希望有关部门重视，早日解决。", "这个问题拖了很久，大家意见很大。")


def facts(rng: random.Random) -> dict:
    """One incident's small-range numbers."""
    return {"bld": rng.randint(1, 30), "unit": rng.randint(1, 6), "month": rng.randint(1, 12),
            "day": rng.randint(1, 28), "days": rng.randint(3, 60), "floor": rng.randint(2, 30),
            "times": rng.randint(2, 9)}


def write(rng: random.Random, topic: tuple, fx: dict, form: int) -> str:
    thing, wrong, harm, ask = topic
    return BRIEF[form].format(thing=thing, wrong=wrong, harm=harm, ask=ask, **fx) + CLOSINGS[form]


def generate(n_rows: int, seed: int = 0) -> Labelled:
    rng = random.Random(seed)
    docs: list[tuple[dict, str, str]] = []
    earlier: list[tuple[tuple, str, str]] = []
    for c in range(10 ** 9):
        if len(docs) >= n_rows:
            break
        lab = f"b{c}"
        if earlier and rng.random() < NEW_INCIDENT:  # same topic and place, other numbers, another person
            topic, dist, comm = rng.choice(earlier)
            kind = "new_incident"
        else:
            topic, dist, comm = rng.choice(topics_zh.TOPICS), zh.district(rng), zh.community(rng)
            earlier.append((topic, dist, comm))
            kind = "original"
        fx, form = facts(rng), rng.randrange(len(BRIEF))
        text, title = write(rng, topic, fx, form), f"{comm}{topic[0]}问题"
        who = {"name": zh.name(rng, common=rng.random() < 0.2), "phone": zh.phone(rng),
               "address": zh.address(rng, dist, comm)}
        docs.append(({**who, "title": title, "content": text}, kind, lab))
        r = rng.random()
        for _ in range(rng.randint(1, 2) if r < 0.15 and kind == "original" else 0):
            again = zh.number_edit(rng, text) if rng.random() < zh.NUMBER_EDIT else text
            their, again = zh.any_typo(rng, title, again)  # session 37: a typo anywhere, the place name too
            docs.append(({**who, "title": their, "content": zh.edit(rng, again, ["请尽快处理。"])}, "refiled", lab))
        for _ in range(rng.randint(1, 3) if 0.15 <= r < 0.25 and kind == "original" else 0):
            other = {"name": zh.name(rng), "phone": zh.phone(rng), "address": zh.address(rng, dist, comm)}
            if rng.random() < OWN_BUILDING:  # the same words, their own building (the next one)
                own = write(rng, topic, {**fx, "bld": fx["bld"] % 30 + 1}, form)
            else:
                own = write(rng, topic, fx, rng.randrange(len(BRIEF))) if rng.random() < 0.3 else text
            docs.append(({**other, "title": title, "content": zh.edit(rng, own)}, "neighbour", lab))
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 50000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

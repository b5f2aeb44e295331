"""TUNING set for issue 22: complaints on a few dozen topics that differ by place and numbers.

    python -m bench.datasets.tuning22.places --rows 3000 --seed 0 --out /tmp/t22/places-3k

Every row is written from the shared topic templates (bench/datasets/tuning22/topics_zh.py) with its own
district, community, company, dates and numbers. Duplicates: the same person refiling (a small
edit) and neighbours filing the same facts (same community and numbers, their own name, phone and
flat, sometimes one sentence more or less). Two rows on one topic with other details are distinct.
With ``new_incident`` (bench/datasets/tuning22/places_hard.py) that share of complaints are hard
negatives: a new incident on an earlier complaint's topic at its place (same district, community,
company and building; other dates and numbers, another person).
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from . import topics_zh, zh
from .output import cli, numbered

KINDS = ("original", "refiled", "neighbour", "new_incident")
SAME_PLACE = ("dist", "comm", "comp", "bld")  # what a new incident at an earlier complaint's place keeps


def generate(n_rows: int, seed: int = 0, new_incident: float = 0.0) -> Labelled:
    rng = random.Random(seed)
    docs: list[tuple[dict, str, str]] = []
    t0 = datetime(2025, 1, 1)
    topics = topics_zh.TOPICS
    earlier: list[tuple[tuple, dict]] = []
    for c in range(10 ** 9):
        if len(docs) >= n_rows:
            break
        lab = f"t{c}"
        if new_incident and earlier and rng.random() < new_incident:  # same topic and place, new facts
            topic, before = rng.choice(earlier)
            fx = {**topics_zh.facts(rng), **{k: before[k] for k in SAME_PLACE}}
            text = topics_zh.body(rng, topic, fx, rng.randint(4, 7))
            who = {"name": zh.name(rng), "phone": zh.phone(rng), "address": zh.address(rng, fx["dist"], fx["comm"])}
            docs.append(({**who, "title": f"{fx['comm']}{topic[0]}问题", "content": text}, "new_incident", lab))
            continue
        topic, fx = rng.choice(topics), topics_zh.facts(rng)
        if new_incident:
            earlier.append((topic, fx))
        text = topics_zh.body(rng, topic, fx, rng.randint(4, 7))
        who = {"name": zh.name(rng, common=rng.random() < 0.2), "phone": zh.phone(rng),
               "address": zh.address(rng, fx["dist"], fx["comm"])}
        title = f"{fx['comm']}{topic[0]}问题"
        docs.append(({**who, "title": title, "content": text}, "original", lab))
        r = rng.random()
        for _ in range(rng.randint(1, 2) if r < 0.2 else 0):
            docs.append(({**who, "title": title, "content": zh.edit(rng, text, ["请尽快处理。"])}, "refiled", lab))
        for _ in range(rng.randint(1, 3) if 0.2 <= r < 0.3 else 0):
            other = {"name": zh.name(rng), "phone": zh.phone(rng), "address": zh.address(rng, fx["dist"], fx["comm"])}
            own = topics_zh.body(random.Random(text), topic, fx, rng.randint(4, 7)) if rng.random() < 0.3 else text
            docs.append(({**other, "title": title, "content": zh.edit(rng, own)}, "neighbour", lab))
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, t0)


def main() -> None:
    cli(__doc__, generate, 3000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

"""TUNING set for issue 22 (session 42): one-sentence complaints under 60 characters (a short content:
rule short_identity keeps a pair with an identity field equal from J 0.2) on this folder's topics,
half of them by people of common names, so namesakes at other communities write the same sentence
with their own numbers. A refile keeps the name and address, its phone changed 40 % of the time (the
name and address then the identities it shares), a number or the title sometimes edited.

    python -m bench.datasets.tuning22.places_namesakes --rows 5000 --seed 0 --out /tmp/t22/pn-5k

Vocabulary and topics are this folder's own (zh.py, topics_zh.py); never the held-out sets'.
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from . import topics_zh, zh
from .output import cli, numbered
from .places_brief import facts

KINDS = ("original", "refiled")
SHORT = ("{bld}号楼{unit}单元{thing}{wrong}，{month}月{day}日起{days}天了，请{ask}。",
         "{month}月{day}日起{bld}号楼{unit}单元{thing}{wrong}，请{ask}。")


def generate(n_rows: int, seed: int = 0) -> Labelled:
    rng = random.Random(seed)
    docs: list[tuple[dict, str, str]] = []
    for c in range(10 ** 9):
        if len(docs) >= n_rows:
            break
        thing, wrong, _, ask = rng.choice(topics_zh.TOPICS)
        dist, comm = zh.district(rng), zh.community(rng)
        text = rng.choice(SHORT).format(thing=thing, wrong=wrong.split("，")[0], ask=ask, **facts(rng))
        title = f"{comm}{thing}问题"
        who = {"name": zh.name(rng, common=rng.random() < 0.5), "phone": zh.phone(rng),
               "address": zh.address(rng, dist, comm)}
        docs.append(({**who, "title": title, "content": text}, "original", f"n{c}"))
        for _ in range(rng.randint(1, 2) if rng.random() < 0.2 else 0):
            again = zh.number_edit(rng, text) if rng.random() < zh.NUMBER_EDIT else text
            their, again = zh.any_typo(rng, title, again) if rng.random() < 0.3 else (title, again)
            phone = zh.phone(rng) if rng.random() < 0.4 else who["phone"]
            docs.append(({**who, "phone": phone, "title": their, "content": zh.edit(rng, again)}, "refiled", f"n{c}"))
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

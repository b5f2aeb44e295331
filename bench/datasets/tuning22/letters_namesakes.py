"""TUNING set for issue 22 (session 45): long letters by namesakes, and refiles under a new phone.

    python -m bench.datasets.tuning22.letters_namesakes --rows 5000 --seed 0 --out /tmp/t22/ln-5k

Why (bench/results/topic3-s44.md): bands of 2 values make a namesake's own letter a candidate, and
rule ``content_identity`` (J >= 0.45, an identity field equal) kept it on the name alone, the phone
another. No tuning set held such pairs at the long identity bar, so no sweep could weigh a guard there.

* ``original``: a letter (4-7 of this folder's template sentences or this set's plain ones, 40 % wrapped in one of the
  forms of ``forms.py``) on a topic with its own place, company, dates and numbers; half the rows
  give no address (a web form), a third of the names common.
* ``namesake`` (15 % of letters): another person of an earlier letter's name (their own phone, address or none, and
  place), writing on the same topic: their own incident, dates and numbers; half pick the same
  sentences, a third wrap it in the same form. Its own cluster: a hard negative.
* ``refiled``: the same person filing again, the phone changed 60 % of the time (the guard's cost),
  the address kept; a small edit, a third also a number edited, 40 % several edits at once.

Vocabulary and topics are this folder's own (zh.py, topics_zh.py, forms.py); never the held-out sets'.
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from . import topics_zh, zh
from .forms import _forms
from .output import cli, numbered

KINDS = ("original", "namesake", "refiled")
# sentences naming no numbers (this set's own, in this folder's writing): a letter of few numbers is one
# that rule numbers_against cannot judge (both rows must name at least numbers_least)
PLAIN = ("我是{dist}{comm}的居民，小区的{thing}{wrong}。", "我们多次向{comp}反映，对方一直推诿扯皮。",
         "{comm}的居民对此意见很大，{harm}。", "请相关部门尽快到{comm}现场查看，{ask}。",
         "{thing}的问题已经影响到整个小区的正常生活。", "{comp}至今没有给出任何书面答复。")
SENTENCES = (*topics_zh.TEMPLATES, *PLAIN)


def _letter(rng: random.Random, topic: tuple, fx: dict, picked: list[int], form) -> str:
    """The template sentences ``picked`` about ``topic`` with the details ``fx``, in ``form`` if any."""
    thing, wrong, harm, ask = topic
    body = "".join(SENTENCES[i].format(thing=thing, wrong=wrong, harm=harm, ask=ask, **fx) for i in picked)
    return form[0] + body + form[1] if form else body


def _picks(rng: random.Random) -> list[int]:
    """The sentences of a letter: the first (a date) or its plain twin, then 3-6 others; a third of
    the letters from the plain ones only."""
    first = 0 if rng.random() < 0.5 else len(topics_zh.TEMPLATES)
    rest = range(len(topics_zh.TEMPLATES) + 1, len(SENTENCES)) if rng.random() < 0.33 else range(1, len(SENTENCES))
    rest = [i for i in rest if i != len(topics_zh.TEMPLATES)]
    return [first] + sorted(rng.sample(rest, min(len(rest), rng.randint(3, 6))))


def _person(rng: random.Random, name: str | None = None) -> dict:
    return {"name": name or zh.name(rng, common=rng.random() < 0.33), "phone": zh.phone(rng),
            "address": zh.address(rng) if rng.random() < 0.5 else None}


def _refile(rng: random.Random, who: dict, title: str, text: str, fx: dict) -> tuple[dict, str, str]:
    """A refile of ``text`` by ``who``: another phone 60 % of the time, the edits above."""
    text = zh.number_edit(rng, text) if rng.random() < zh.NUMBER_EDIT else text
    text = zh.edit(rng, text, ["请尽快处理。", f"{fx['date']}又发生了同样的情况。"])
    title, text = zh.any_typo(rng, title, text)
    if rng.random() < 0.4:
        title, text = zh.several_edits(rng, title, text)
    return ({**who, "phone": zh.phone(rng)} if rng.random() < 0.6 else who), title, text


def generate(n_rows: int, seed: int = 0) -> Labelled:
    rng = random.Random(seed)
    forms = _forms()
    docs: list[tuple[dict, str, str]] = []
    earlier: list[tuple[str, tuple, list[int], object]] = []  # (name, topic, picks, form) of each original
    for c in range(10 ** 9):
        if len(docs) >= n_rows:
            break
        topic, fx = rng.choice(topics_zh.TOPICS), topics_zh.facts(rng)
        if earlier and rng.random() < 0.15:  # a namesake of an earlier letter's writer, on its topic
            name, topic, picks, form = rng.choice(earlier)
            who, kind = _person(rng, name), "namesake"
            picks = picks if rng.random() < 0.5 else _picks(rng)
            form = form if rng.random() < 0.33 else None
        else:
            who, kind, picks = _person(rng), "original", _picks(rng)
            form = rng.choice(forms) if rng.random() < 0.4 else None
            earlier.append((who["name"], topic, picks, form))
        text, title = _letter(rng, topic, fx, picks, form), f"{fx['comm']}{topic[0]}问题"
        docs.append(({**who, "title": title, "content": text}, kind, f"l{c}"))
        for _ in range(rng.randint(1, 2) if rng.random() < 0.2 else 0):
            again, their, body = _refile(rng, who, title, text, fx)
            docs.append(({**again, "title": their, "content": body}, "refiled", f"l{c}"))
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

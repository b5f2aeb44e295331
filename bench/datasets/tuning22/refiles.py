"""TUNING set for issue 22 (session 42): long petitions refiled by the same person with 1 to 8 edits
each, beside the same person's new complaints at the same place (never the held-out generators).

    python -m bench.datasets.tuning22.refiles --rows 5000 --seed 0 --out /tmp/t22/refiles-5k

Session 41 (bench/results/petrecall-s41.md) found the held-out petitions' misses to be same-person
refiles of long letters that the identity bar or rule ``numbers_against`` refuse, and the labelled
petitions' refiles (1 to 3 edits) to be found: there was nothing on the tuning sets to choose a fix on.
Built from the labelled petitions' writing (bench/datasets/labelled: its topics, templates and
edits), with the edits of a letter typed again several times over:

* ``long_refiled``: a letter of 300 to 900 characters filed again by its writer 1 to 3 times, each
  copy with 1 to 8 edits (sentences inserted, dropped or swapped, typos, whitespace anywhere (also
  between a number and its unit), a number changed, a number's unit mistyped, punctuation of the
  other width); the name kept, the phone or address sometimes another.
* ``same_person_new``: the same person's genuinely new complaint, half of them at the same place
  with the same company (labelled ``_other_complaint``); a new incident is NOT a duplicate.
* ``same_person_again``: the same person's letter written again for a new incident at the same
  place: the same sentences, places, parties and background, other dates, counts and amounts (with
  0 to 2 of the refile edits). NOT a duplicate: what only the numbers tell apart.
* ``boilerplate``: other people's letters wrapped in one of the labelled web forms (not duplicates).
* ``original``: other people's letters on the same topics (not duplicates).
"""

from __future__ import annotations

import random

from bench.datasets.labelled.common import Labelled
from bench.datasets.labelled.petition_edits import (
    _edit_contact, _edit_number, _edit_space, _edit_typo, _edit_width, _follow_up, _slip,
)
from bench.datasets.labelled.petition_kinds import _other_complaint
from bench.datasets.labelled.petition_slots import _pick
from bench.datasets.labelled.petition_vocab import _BOILERPLATES
from bench.datasets.labelled.petition_writing import _later, _new, _person, _pick_topic, _pools, _render, _time
from bench.datasets.labelled.petitions import _finish

from . import zh
from .output import cli

KINDS = ("original", "long_refiled", "same_person_new", "same_person_again", "boilerplate")
KEEP_AGAIN = ("district", "street", "community", "building", "unit", "floor", "room", "road", "road2", "town", "village",
              "group", "home", "river", "school", "hospital", "shop", "restaurant", "noise_src", "hometown", "media",
              "bank", "brand", "company", "subject", "boss", "official", "neighbor", "relative", "name", "phone",
              "year_built", "year_built2", "year_old", "year_work", "year_work2", "year_retire", "year_move")
EDITS = ("insert", "drop", "swap", "typo", "slip", "space", "number_space", "number", "unit", "width")


def _number_space(rng: random.Random, s: list[str]) -> None:
    """Whitespace typed between a number and its unit (12 天): the number token is another."""
    spots = [(i, k) for i, x in enumerate(s) for k in range(1, len(x)) if x[k - 1].isdigit() and not x[k].isdigit()]
    if spots:
        i, k = _pick(rng, spots)
        s[i] = s[i][:k] + _pick(rng, (" ", "  ", "\u3000")) + s[i][k:]
    else:
        _edit_space(rng, s)


def _unit_typo(rng: random.Random, s: list[str]) -> None:
    """A number's unit mistyped (5号 / 5好): zh.number_edit on one sentence, its unit path where it can."""
    i = rng.randrange(len(s))
    s[i] = zh.number_edit(rng, s[i])


def edit(rng: random.Random, doc: dict, s: list[str], kind: str, first, t) -> None:
    """One edit of a refile's sentences ``s`` (in place)."""
    if kind == "insert":
        extra = _render([_pick(rng, _pools(doc["topic"], doc["person"]["rural"])["extras"])], doc["slots"], doc["style"])
        new = extra[0] if rng.random() < 0.5 else _follow_up(rng, doc, 2, first, t)
        s.insert(rng.randrange(1, len(s) + 1), new)
    elif kind == "drop" and len(s) > 3:
        del s[rng.randrange(1, len(s))]
    elif kind == "swap" and len(s) >= 3:
        i = rng.randrange(len(s) - 1)
        s[i], s[i + 1] = s[i + 1], s[i]
    elif kind == "slip":
        i = rng.randrange(len(s))
        s[i] = _slip(rng, s[i])
    elif kind == "space":
        _edit_space(rng, s)
    elif kind == "number_space":
        _number_space(rng, s)
    elif kind == "number" and _edit_number(rng, s):
        pass
    elif kind == "unit":
        _unit_typo(rng, s)
    elif kind == "width":
        _edit_width(rng, s)
    else:
        _edit_typo(rng, s)


def refile(rng: random.Random, parent: dict, first, t) -> dict:
    """A copy of ``parent`` by its writer with 1 to 8 edits; its contact sometimes changed."""
    doc = {**parent, "sents": list(parent["sents"]), "created_at": t}
    for kind in [rng.choice(EDITS) for _ in range(rng.randint(1, 8))]:
        edit(rng, doc, doc["sents"], kind, first, t)
    if rng.random() < 0.3:
        _edit_contact(rng, doc)
    if doc["sents"] == parent["sents"]:
        doc["sents"][-1] += "\n"
    return doc


def again(rng: random.Random, prior: dict, t) -> dict:
    """``prior``'s writer on a new incident at the same place in the same words: its plan rendered
    with its places, parties and background kept and its dates and numbers drawn again."""
    slots = prior["slots"].fork(ref=t, keep=KEEP_AGAIN)
    doc = {**prior, "slots": slots, "sents": _render(prior["plan"], slots, prior["style"]), "created_at": t}
    for _ in range(rng.randint(0, 2)):
        edit(rng, doc, doc["sents"], rng.choice(EDITS), t, t)
    return doc


def generate(n_rows: int, seed: int = 0) -> Labelled:
    """``n_rows`` letters: 40 % in refile clusters (2 to 4 letters), 10 % the same person's new
    complaints, 5 % the same person's letter again for a new incident, 6 % form letters, the rest
    single letters on the same topics."""
    rng = random.Random(seed)
    out: list[tuple[dict, str, str]] = []
    originals: list[dict] = []
    labels = iter(range(1, 10 ** 9))
    while len(out) < 0.4 * n_rows:
        topic = _pick_topic(rng)
        person = _person(rng, rng.random() < topic.rural)
        first = _time(rng, 0, 500)
        doc = _new(rng, topic, person, first, target=int(rng.triangular(300, 900, 450)))
        lab = f"c{next(labels):06d}"
        docs, t = [doc], first
        for _ in range(rng.choice((1, 1, 2, 3))):
            t = _later(rng, t)
            docs.append(refile(rng, docs[0] if rng.random() < 0.5 else docs[-1], first, t))
        out += [(d, "original" if k == 0 else "long_refiled", lab) for k, d in enumerate(docs)]
        originals.append(doc)
    for _ in range(round(0.1 * n_rows)):
        out.append((_other_complaint(rng, _pick(rng, originals)), "same_person_new", f"s{next(labels):06d}"))
    for _ in range(round(0.05 * n_rows)):
        prior = _pick(rng, originals)
        out.append((again(rng, prior, _later(rng, prior["created_at"])), "same_person_again", f"s{next(labels):06d}"))
    for _ in range(round(0.06 * n_rows)):
        topic = _pick_topic(rng)
        doc = _new(rng, topic, _person(rng, rng.random() < topic.rural), _time(rng), boilerplate=_pick(rng, _BOILERPLATES))
        out.append((doc, "boilerplate", f"s{next(labels):06d}"))
    while len(out) < n_rows:
        topic = _pick_topic(rng)
        doc = _new(rng, topic, _person(rng, rng.random() < topic.rural), _time(rng), target=int(rng.triangular(150, 900, 400)))
        out.append((doc, "original", f"s{next(labels):06d}"))
    return _finish(rng, out[:n_rows])


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

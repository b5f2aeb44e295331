"""A labelled benchmark of Chinese petitions (信访): planted duplicates and planted hard negatives.

The table decides how detection quality is judged, so it is built to be realistic rather than easy
for any one method:

* **Duplicates** (rows sharing a ``truth`` label):

  - ``original`` + ``refiled``: the same person files the same complaint again, each copy with 1–3
    edits chosen at random: pinyin-input homophone typos, full-/half-width punctuation and digits,
    whitespace and line breaks, an appended follow-up sentence, a greeting or sign-off, one sentence
    dropped, two sentences swapped, a number or date changed, the phone or address changed, the
    title reworded. Copies are made from the original or from the previous copy (edits accumulate).
  - ``collective``: neighbours / workmates (different name, phone, address) filing one shared text
    template, each with small personal variations (own building number, one extra sentence...).
  - ``short`` + ``short_refiled``: one- or two-sentence complaints (10–60 characters) refiled with
    punctuation, whitespace, one typo or a greeting.

* **Hard negatives** (each row its own label):

  - ``same_person_other_complaint``: same name/phone/address as an earlier petition, but another
    topic, or the same topic (same company, same place) about a different matter;
  - ``boilerplate``: different complaints wrapped in one of several long web-form / hotline
    templates (30–50 % of the row's characters);
  - ``short_same_topic``: very short complaints on one topic that differ in place and details.

* ``original`` rows that are not in a cluster are ordinary distinct complaints; on one topic they
  share vocabulary and sentence templates but not their facts (places, companies, amounts, dates),
  their sentence choice or sentence order, and each author has a few writing habits of their own.

Only ``random.Random(seed)`` is used (no ``hash()``, no set iteration), so ``(n_rows, seed)`` always
gives the same table.

    python -m bench.datasets.labelled.petitions --rows 20000 --seed 0 --out /tmp/petitions
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
from collections import Counter

from bench.datasets.labelled.common import Labelled, write_sqlite_table, write_truth_csv
from bench.datasets.labelled.petition_edits import _refile, _refile_short
from bench.datasets.labelled.petition_kinds import _collective, _other_complaint, _unique_short
from bench.datasets.labelled.petition_slots import _int, _pick, _weighted
from bench.datasets.labelled.petition_vocab import _BOILERPLATES, _Topic
from bench.datasets.labelled.petition_writing import _DAYS, _later, _new, _person, _pick_topic, _time

__all__ = ["Labelled", "generate_petitions", "write_sqlite", "write_truth_csv", "KINDS"]

KINDS = (
    "original", "refiled", "collective", "short", "short_refiled",
    "same_person_other_complaint", "boilerplate", "short_same_topic",
)


# ---------------------------------------------------------------------------------------------
# The mix


_COLLECTIVE_SIZES = tuple(range(3, 16))
_COLLECTIVE_WEIGHTS = (20, 18, 15, 12, 9, 7, 5, 4, 3, 2, 2, 1.5, 1.5)
_REFILED_SIZES = (2, 3, 4, 5, 6)
_REFILED_WEIGHTS = (52, 25, 12, 7, 4)


def _mix(rng: random.Random, n: int) -> dict:
    """How many clusters of each kind and how many single rows; sizes add up to n."""
    def sizes(target, values, weights):
        out, total = [], 0
        while total < target:
            s = _weighted(rng, values, weights)
            if total + s > target + 1:
                s = max(values[0], target - total)
                if total + s > target + 1:
                    break
            out.append(s)
            total += s
        return out

    collective = sizes(round(n * 0.025), _COLLECTIVE_SIZES, _COLLECTIVE_WEIGHTS) if n >= 200 else []
    short = sizes(round(n * 0.035), (2, 3), (80, 20))
    in_clusters = round(n * 0.45)
    refiled = sizes(in_clusters - sum(collective) - sum(short), _REFILED_SIZES, _REFILED_WEIGHTS)
    negatives = {"boilerplate": round(n * 0.06), "same_person_other_complaint": round(n * 0.06),
                 "short_same_topic": round(n * 0.03)}
    used = sum(collective) + sum(short) + sum(refiled) + sum(negatives.values())
    while used > n:  # tiny tables
        for group in (refiled, short, collective):
            if group and used > n:
                used -= group.pop()
        for k in negatives:
            if negatives[k] and used > n:
                negatives[k] -= 1
                used -= 1
    return {"collective": collective, "short": short, "refiled": refiled, **negatives, "single": n - used}


def generate_petitions(n_rows: int, seed: int = 0) -> Labelled:
    """``n_rows`` petitions with ids 1..n_rows in random order, their cluster labels and how each was made."""
    if n_rows < 0:
        raise ValueError("n_rows must be >= 0")
    rng = random.Random(seed)
    mix = _mix(rng, n_rows)
    out: list[tuple[dict, str, str]] = []  # (doc, kind, label)
    labels = itertools.count(1)
    originals: list[dict] = []  # petitions a person may follow with another complaint

    def cluster_label() -> str:
        return f"c{next(labels):06d}"

    def single_label() -> str:
        return f"s{next(labels):06d}"

    def rural_for(topic: _Topic) -> bool:
        return rng.random() < topic.rural

    # refiled complaints: an original and 1..5 later copies by the same person
    for size in mix["refiled"]:
        topic = _pick_topic(rng)
        person = _person(rng, rural_for(topic))
        bp = _pick(rng, _BOILERPLATES) if rng.random() < 0.1 else None
        first = _time(rng, 0, _DAYS - 150)
        doc = _new(rng, topic, person, first, boilerplate=bp)
        label = cluster_label()
        out.append((doc, "original", label))
        originals.append(doc)
        docs, t = [doc], first
        for k in range(1, size):
            t = _later(rng, t)
            parent = docs[0] if rng.random() < 0.55 else docs[-1]
            docs.append(_refile(rng, parent, k + 1, first, t))
            out.append((docs[-1], "refiled", label))

    # distinct single complaints
    for _ in range(mix["single"]):
        topic = _pick_topic(rng)
        doc = _new(rng, topic, _person(rng, rural_for(topic)), _time(rng))
        out.append((doc, "original", single_label()))
        originals.append(doc)

    # collective complaints: one text, many neighbours / workmates
    for size in mix["collective"]:
        for doc in _collective(rng, size):
            out.append((doc, "collective", ""))
        label = cluster_label()
        out[-size:] = [(d, k, label) for d, k, _ in out[-size:]]

    # short complaints refiled with small edits
    seen_short: set[str] = set()
    for size in mix["short"]:
        topic = _pick_topic(rng)
        doc = _unique_short(rng, topic, seen_short)
        label = cluster_label()
        out.append((doc, "short", label))
        t = doc["created_at"]
        for _ in range(1, size):
            t = _later(rng, t)
            out.append((_refile_short(rng, doc, t), "short_refiled", label))

    # hard negatives
    for _ in range(mix["short_same_topic"]):
        topic = _pick_topic(rng)
        out.append((_unique_short(rng, topic, seen_short), "short_same_topic", single_label()))
    for _ in range(mix["boilerplate"]):
        topic = _pick_topic(rng)
        doc = _new(rng, topic, _person(rng, rural_for(topic)), _time(rng), boilerplate=_pick(rng, _BOILERPLATES))
        out.append((doc, "boilerplate", single_label()))
    chain: list[dict] = []
    for _ in range(mix["same_person_other_complaint"]):
        if not originals:
            break
        prior = _pick(rng, chain) if chain and rng.random() < 0.15 else _pick(rng, originals)
        doc = _other_complaint(rng, prior)
        chain.append(doc)
        out.append((doc, "same_person_other_complaint", single_label()))
    while len(out) < n_rows:  # only when no prior petition existed for a same-person row
        topic = _pick_topic(rng)
        out.append((_new(rng, topic, _person(rng, rural_for(topic)), _time(rng)), "original", single_label()))

    return _finish(rng, out)


def _finish(rng: random.Random, out: list[tuple[dict, str, str]]) -> Labelled:
    n = len(out)
    ids = list(range(1, n + 1))
    rng.shuffle(ids)
    _spread(rng, ids, [label for _, _, label in out])
    rows, truth, kinds = [], {}, {}
    for (doc, kind, label), i in zip(out, ids):
        fields = {k: (None if rng.random() < 0.02 else doc[k]) for k in ("name", "phone", "address", "title")}
        rows.append({"id": i, **fields, "content": "".join(doc["sents"]),
                     "created_at": doc["created_at"], "updated_at": doc["created_at"]})
        truth[i] = label
        kinds[i] = kind
    rows.sort(key=lambda r: r["id"])
    return Labelled(rows=rows, truth=dict(sorted(truth.items())), kinds=dict(sorted(kinds.items())))


def _spread(rng: random.Random, ids: list[int], labels: list[str]) -> None:
    """Swap ids so that no two rows of one cluster get neighbouring ids (while that is possible)."""
    n = len(ids)
    if n < 4:
        return
    at = {i: k for k, i in enumerate(ids)}  # id -> position in out

    def label_of(i: int) -> str | None:
        return labels[at[i]] if 1 <= i <= n else None

    def clash(i: int) -> bool:
        lab = label_of(i)
        return lab[0] == "c" and (label_of(i - 1) == lab or label_of(i + 1) == lab)

    for i in range(1, n + 1):
        tries = 0
        while clash(i) and tries < 30:
            j = _int(rng, 1, n)
            a, b = at[i], at[j]
            ids[a], ids[b] = j, i
            at[i], at[j] = b, a
            if clash(i) or clash(j) or (j > 1 and clash(j - 1)) or (j < n and clash(j + 1)):
                ids[a], ids[b] = i, j
                at[i], at[j] = a, b
            tries += 1


# ---------------------------------------------------------------------------------------------
# Output


def write_sqlite(labelled: Labelled, path: str | os.PathLike, table: str = "petitions") -> None:
    """(Re)create ``table`` in the SQLite file at ``path`` with all rows."""
    write_sqlite_table(labelled, path, table, ("name", "phone", "address", "title", "content"))


def summary(labelled: Labelled) -> str:
    """Counts per kind, cluster sizes and content-length percentiles, as text."""
    kinds = Counter(labelled.kinds.values())
    sizes = Counter(Counter(labelled.truth.values()).values())
    lengths = sorted(len(r["content"]) for r in labelled.rows)
    n = len(lengths)
    in_clusters = sum(s * c for s, c in sizes.items() if s >= 2)
    lines = [f"rows {n}; in clusters of size >= 2: {in_clusters} ({in_clusters / max(n, 1):.1%})", "kinds:"]
    lines += [f"  {k:<28} {kinds.get(k, 0):>6} ({kinds.get(k, 0) / max(n, 1):.1%})" for k in KINDS]
    lines.append("cluster sizes: " + ", ".join(f"{s}: {sizes[s]}" for s in sorted(sizes)))
    if n:
        pct = {p: lengths[min(n - 1, int(p / 100 * n))] for p in (1, 5, 10, 25, 50, 75, 90, 95, 99)}
        lines.append("content length percentiles: " + ", ".join(f"p{p} {v}" for p, v in pct.items()))
        lines.append(f"content 150-800 chars: {sum(150 <= x <= 800 for x in lengths) / n:.1%}; "
                     f"under 61: {sum(x <= 60 for x in lengths) / n:.1%}; "
                     f"over 800: {sum(x > 800 for x in lengths) / n:.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Write the labelled petitions benchmark (SQLite + truth CSV).")
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=".", help="directory for petitions.db and truth.csv")
    args = ap.parse_args(argv)
    labelled = generate_petitions(args.rows, args.seed)
    os.makedirs(args.out, exist_ok=True)
    write_sqlite(labelled, os.path.join(args.out, "petitions.db"))
    write_truth_csv(labelled, os.path.join(args.out, "truth.csv"))
    print(summary(labelled))


if __name__ == "__main__":
    main()

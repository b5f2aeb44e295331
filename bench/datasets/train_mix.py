"""A *training* edit mix (mine, for tuning only): bench/datasets/labelled/petitions rows plus extra clusters of

* ``short_mix``: a short complaint (from the set's own short/short_same_topic rows, or a long
  complaint's first sentence cut to 25-60 characters) refiled 1-3 times by the same person with
  2-3 of: the phone field changed, a phone number in the text added/changed, a number in the text
  changed, a "（第二次）"-style title prefix, 1-3 character typos, full/half-width punctuation;
* ``collective_mix``: a complaint's content filed by 2-6 *different* people (other name, phone,
  address and title, taken from unrelated rows), each copy with 0-3 typos and punctuation-width flips.

    rows, truth, kinds = generate(n, seed)     # n base rows + ~8 % extra rows
"""
from __future__ import annotations

import random
import re

from bench.datasets.labelled.petitions import generate_petitions

_TYPO_CHARS = "的地得在再做作已以那哪他她它们门问间向象像到倒道其期及即既"
_PREFIXES = ("（第二次）", "（第三次）", "(第二次)", "再次反映：", "【重复】")
_W2H = str.maketrans({"，": ",", "。": ".", "：": ":", "！": "!", "？": "?", "（": "(", "）": ")", "；": ";"})
_H2W = str.maketrans({",": "，", ".": "。", ":": "：", "!": "！", "?": "？", "(": "（", ")": "）", ";": "；"})


def _phone(rng):
    return "1" + rng.choice("3578") + "".join(rng.choice("0123456789") for _ in range(9))


def _typos(rng, s, k):
    s = list(s)
    cjk = [i for i, ch in enumerate(s) if "\u4e00" <= ch <= "\u9fff"]
    for i in rng.sample(cjk, min(k, len(cjk))):
        s[i] = rng.choice(_TYPO_CHARS)
    return "".join(s)


def _width(rng, s):
    return s.translate(_W2H if rng.random() < 0.5 else _H2W)


def _change_number(rng, s):
    runs = list(re.finditer(r"[0-9]+", s))
    if not runs:
        return s
    m = rng.choice(runs)
    new = str(int(m.group()) + rng.randint(1, 9)) if len(m.group()) < 9 else _phone(rng)
    return s[:m.start()] + new + s[m.end():]


def generate(n: int, seed: int):
    data = generate_petitions(n, seed)
    rng = random.Random(1000 + seed)
    rows = [dict(r) for r in data.rows]
    truth = {r["id"]: data.truth[r["id"]] for r in rows}
    kinds = dict(data.kinds)
    next_id = max(truth) + 1
    people = [(r["name"], r["phone"], r["address"]) for r in rows]
    titles = [r["title"] for r in rows if r["title"]]
    shorts = [r for r in rows if kinds[r["id"]] in ("short_same_topic",)]
    longs = [r for r in rows if kinds[r["id"]] == "original" and len(r["content"] or "") > 150]
    label = 0

    def add(row, lab, kind):
        nonlocal next_id
        row = dict(row, id=next_id)
        rows.append(row)
        truth[next_id], kinds[next_id] = lab, kind
        next_id += 1

    for _ in range(max(1, n // 60)):  # short refiles
        base = dict(rng.choice(shorts)) if rng.random() < 0.5 else None
        label += 1
        lab = truth[base["id"]] if base is not None else f"mix-s{label}"  # a copy of a row joins its cluster
        if base is None:
            src = rng.choice(longs)
            text = re.split(r"(?<=[。！？])", src["content"])[0][:rng.randint(25, 60)]
            name, phone, addr = rng.choice(people)
            base = dict(src, content=text, name=name, phone=phone, address=addr)
        if rng.random() < 0.4:
            base["content"] = base["content"] + f"联系电话{_phone(rng)}。"
        add(base, lab, "short_mix")
        for _ in range(rng.randint(1, 3)):
            c = dict(base)
            for e in rng.sample(("phone", "textphone", "number", "prefix", "typo", "width"), rng.randint(2, 3)):
                if e == "phone":
                    c["phone"] = _phone(rng)
                elif e == "textphone":
                    c["content"] = re.sub(r"1[0-9]{10}", lambda m: _phone(rng), c["content"]) \
                        if re.search(r"1[0-9]{10}", c["content"]) else c["content"] + f"电话{_phone(rng)}"
                elif e == "number":
                    c["content"] = _change_number(rng, c["content"])
                elif e == "prefix":
                    c["title"] = rng.choice(_PREFIXES) + (c["title"] or "")
                elif e == "typo":
                    c["content"] = _typos(rng, c["content"], rng.randint(1, 3))
                else:
                    c["content"] = _width(rng, c["content"])
            add(c, lab, "short_mix")
    for _ in range(max(1, n // 150)):  # collective
        src = rng.choice(longs)
        lab = truth[src["id"]]  # the source row and its own refiles are in the cluster too
        for _ in range(rng.randint(1, 5)):
            name, phone, addr = rng.choice(people)
            c = dict(src, name=name, phone=phone, address=addr, title=rng.choice(titles))
            c["content"] = _typos(rng, c["content"], rng.randint(0, 3))
            if rng.random() < 0.6:
                c["content"] = _width(rng, c["content"])
            add(c, lab, "collective_mix")
    return rows, truth, kinds

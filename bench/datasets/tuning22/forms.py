"""TUNING set for issue 22: form letters and mass petitions (never the held-out generators).

    python -m bench.datasets.tuning22.forms --rows 5000 --seed 0 --out /tmp/t22/forms-5k

* ``form``: a letter wrapped in one of six long standard forms (an opening and a closing of about
  150 characters together, the same text in every letter of that form) around its own body of 40 to
  160 characters about something else; about 4 % of the rows. Letters of one form are NOT
  duplicates of each other.
* ``mass``: one text filed by many people (a mass petition), each copy with its filer's name,
  phone and address, a quarter with a small edit; one truth cluster per text, however large.
* ``refiled``: the same person filing an earlier letter (plain or form) again with a small edit
  (session 36, i22-places2: a third also edit one number or mistype its unit, zh.number_edit).
* ``original``: ordinary letters, each on a topic with its own details.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from bench.datasets.labelled.common import Labelled
from . import topics_zh, zh
from .output import cli

KINDS = ("original", "refiled", "form", "mass")
_PHRASES = (
    "尊敬的信访接待中心领导：您好！", "本人现就以下事项向贵单位提出信访请求，", "恳请领导在百忙之中予以关注，",
    "依据《信访工作条例》的有关规定，", "本人承诺所反映的情况全部属实，", "如有虚假愿意承担相应的法律责任。",
    "现将具体情况反映如下：", "为维护自身合法权益，", "特此提出书面申请，", "请贵单位依法依规受理，",
    "并在法定期限内书面答复本人。", "随信附上相关证明材料复印件，", "联系方式见信访登记表，", "此致敬礼！",
    "多次通过电话和网络渠道反映均未得到回应，", "希望各级领导高度重视群众的诉求，", "切实解决群众的急难愁盼问题，",
    "本人将积极配合有关部门的调查核实工作，", "如需补充材料请及时通知本人。", "感谢领导对人民群众的关心！",
    "信访人签字按手印后生效，", "本信访件一式两份，", "同时抄送市人民政府督查室和区纪委监委，",
)


def _forms() -> list[tuple[str, str]]:
    """Six forms: (opening, closing), fixed whatever the set's seed."""
    rng = random.Random(2022)
    out = []
    for _ in range(6):
        picked = rng.sample(_PHRASES, 11)
        out.append(("".join(picked[:6]), "".join(picked[6:])))
    return out


def generate(n_rows: int, seed: int = 0, several: float = 0.0) -> Labelled:
    """``several``: the share of refiles rewritten with several edits at once (zh.several_edits), each
    also under another phone or none, half of those at another address (forms_several.py; 0: the set
    as before, the same rows)."""
    rng = random.Random(seed)
    forms = _forms()
    docs: list[tuple[dict, str, str]] = []  # (row, kind, label)
    label = iter(range(1, 10 ** 9))
    t0 = datetime(2025, 1, 1)

    def person() -> dict:
        return {"name": zh.name(rng, common=rng.random() < 0.2), "phone": zh.phone(rng), "address": zh.address(rng)}

    def letter(kind: str, content: str, title: str, who: dict, lab: str) -> None:
        docs.append(({**who, "title": title, "content": content,
                      "created_at": t0 + timedelta(minutes=rng.randrange(500_000))}, kind, lab))

    mass_rows = int(n_rows * 0.015)
    while mass_rows > 0:
        size = min(mass_rows, rng.randint(max(5, n_rows // 500), max(10, n_rows // 150)))
        mass_rows -= size
        topic, fx = rng.choice(topics_zh.TOPICS), topics_zh.facts(rng)
        text, lab = topics_zh.body(rng, topic, fx, rng.randint(4, 8)), f"m{next(label)}"
        for _ in range(size):
            who = {**person(), "address": zh.address(rng, fx["dist"], fx["comm"])}
            letter("mass", zh.edit(rng, text) if rng.random() < 0.25 else text, f"关于{fx['comm']}{topic[0]}问题的联名信", who, lab)
    while len(docs) < n_rows:
        lab, who = f"c{next(label)}", person()
        topic, fx = rng.choice(topics_zh.TOPICS), topics_zh.facts(rng)
        kind = "form" if rng.random() < 0.04 else "original"
        if kind == "form":
            opening, closing = rng.choice(forms)
            text = opening + topics_zh.body(rng, topic, fx, rng.randint(1, 3))[:rng.randint(40, 160)] + closing
        else:
            text = topics_zh.body(rng, topic, fx, rng.randint(3, 6))
        title = f"{fx['comm']}{topic[0]}问题"
        letter(kind, text, title, who, lab)
        for _ in range(rng.choice((1, 1, 2)) if rng.random() < 0.12 else 0):
            text = zh.number_edit(rng, text) if rng.random() < zh.NUMBER_EDIT else text  # session 36, i22-places2
            text = zh.edit(rng, text, ["请尽快处理。", f"{fx['date']}又发生了同样的情况。"])
            again = {**who, "phone": zh.phone(rng)} if rng.random() < 0.2 else who
            their = title if rng.random() < 0.8 else f"再次反映{topic[0]}问题"
            their, text = zh.any_typo(rng, their, text)  # session 37: a typo anywhere, the place name too
            if several and rng.random() < several:  # session 38: several edits, the identity fields changed
                their, text = zh.several_edits(rng, their, text)
                again = {**again, "phone": zh.phone(rng) if rng.random() < 0.6 else None}
                again = {**again, "address": zh.address(rng)} if rng.random() < 0.5 else again
            letter("refiled", text, their, again, lab)
    docs = docs[:n_rows]
    rng.shuffle(docs)
    rows, truth, kinds = [], {}, {}
    for i, (row, kind, lab) in enumerate(docs, start=1):
        rows.append({"id": i, **row, "updated_at": row["created_at"]})
        truth[i], kinds[i] = lab, kind
    return Labelled(rows, truth, kinds)


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

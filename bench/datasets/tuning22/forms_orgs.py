"""TUNING set for issue 22, session 45: form letters whose own detail is an organisation's name.

    python -m bench.datasets.tuning22.forms_orgs --rows 5000 --seed 0 --out /tmp/t22/orgs-5k

The rows of ``forms.py`` (its letters, forms, mass petitions and refiles), and a tenth of the table
``org_form``: a letter in one of ``forms.py``'s six standard forms around one of a few body templates
about a workplace, a shop, a school or a hospital, the organisation (XX置业有限公司, XX超市, XX学校,
XX医院 ...) its only named detail: no community, half the templates with a date and a number of their own,
half with none. Letters of one form and template by different people are NOT duplicates; they
differ in the organisation's name (and date and number) alone. ``org_refiled``: the same person
filing again with a small edit (forms.py's edits, a typo anywhere), the organisation kept.
Written from this folder's own writing (zh.py, forms.py), never the held-out generators'.
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from . import forms, zh
from .output import cli, numbered

KINDS = (*forms.KINDS, "org_form", "org_refiled")
SHARE = 0.10  # of the rows: organisation form letters and their refiles
NAMES = zh.PLACE_A + zh.GIVEN  # an organisation's two-character name: any two of these
# (kind of organisation, its endings, body templates: {org} its name, {date} and {n} the letter's own)
ORGS = (
    ("firm", ("置业有限公司", "物流公司", "科技有限公司", "食品厂有限公司", "建材公司"),
     ("本人是{org}的员工，{org}自{date}起拖欠全体员工工资共{n}个月，多次讨要无果，恳请劳动监察部门责令其足额支付。",
      "我在{org}工作，单位一直不给缴纳社会保险，也不签订劳动合同，要求{org}依法补缴并签订合同。")),
    ("shop", ("超市", "商场", "药店"),
     ("{date}本人在{org}购买的商品已经过期变质，与{org}协商退货被拒，共损失{n}元，请市场监管部门查处。",
      "本人在{org}办理的会员卡突然不能使用，{org}拒绝退还卡内余额，请有关部门督促其退款。")),
    ("school", ("学校", "中学", "幼儿园"),
     ("我的孩子在{org}就读，{org}自{date}起每学期额外收取费用{n}元且不开收据，请教育部门调查。",
      "{org}擅自延长学生在校时间并组织有偿补课，家长意见很大，请教育主管部门予以纠正。")),
    ("hospital", ("医院", "人民医院", "卫生院"),
     ("{date}本人在{org}就诊时被多收检查费用{n}元，向{org}反映后至今没有答复，请卫生健康部门核查。",
      "本人家属在{org}住院期间护理不到位，向{org}投诉后没有任何处理结果，请卫生部门督促整改。")),
)


def org_letter(rng: random.Random, form: tuple[str, str], template: str, org: str) -> str:
    """One letter on ``form`` around ``template`` naming ``org``, with its own date and number."""
    opening, closing = form
    return opening + template.format(org=org, date=zh.date(rng), n=rng.randint(2, 9800)) + closing


def org_name(rng: random.Random, endings: tuple[str, ...]) -> str:
    """An organisation's name: two characters, for a firm a trade too (置业, 物流 ... in its ending)."""
    return rng.choice(NAMES) + rng.choice(NAMES) + rng.choice(endings)


def generate(n_rows: int, seed: int = 0) -> Labelled:
    """``forms.generate``'s rows with a tenth of the table organisation form letters and their refiles."""
    rng = random.Random(seed + 4500)
    want = int(n_rows * SHARE)
    base = forms.generate(n_rows - want, seed)
    docs = [({k: v for k, v in r.items() if k not in ("id", "created_at", "updated_at")},
             base.kinds[r["id"]], base.truth[r["id"]]) for r in base.rows]
    made, label, shapes = 0, 0, forms._forms()
    while made < want:
        label += 1
        _, endings, templates = rng.choice(ORGS)
        form, template = rng.choice(shapes), rng.choice(templates)
        org = org_name(rng, endings)
        who = {"name": zh.name(rng, common=rng.random() < 0.2), "phone": zh.phone(rng), "address": zh.address(rng)}
        title = rng.choice(("关于" + org + "的投诉", "信访事项", "请求处理" + org + "问题"))
        text = org_letter(rng, form, template, org)
        docs.append(({**who, "title": title, "content": text}, "org_form", f"o{label}"))
        made += 1
        for _ in range(rng.choice((1, 1, 2)) if rng.random() < 0.3 and made < want else 0):
            again = {**who, "phone": zh.phone(rng)} if rng.random() < 0.2 else who
            their, text = zh.any_typo(rng, title, zh.edit(rng, text, ["请尽快处理。"]))
            docs.append(({**again, "title": their, "content": text}, "org_refiled", f"o{label}"))
            made += 1
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

"""Issue 22: rule ``distinct`` keeps a neighbour's rewording of one incident (its place and numbers
the same, its whole text under match.threshold) and not another incident on the same topic
template at another place: what the table shares (the template) is left out of the second measure."""

from __future__ import annotations

import random

import numpy as np

from dedup.index.bands import TextVerifier
from dedup.text.rarity import ContentModel
from dedup.text.signature import DISTINCT_PERMS, TextSignature

ON = 0.55  # distinct_floor as the tuning sets chose it (the rule is off by default: 0.75, the threshold)

TEMPLATE = "{o}{p}小区{b}号楼的电梯从{m}月{d}日开始三天两头停运，最长一次停了{n}天，住在{f}楼的老人只能爬楼梯。物业和维保公司互相推诿，{c}"
PLACES = ("幸福路阳光花园", "建设街东湖苑", "人民路金桂园", "解放路翠竹园", "胜利街锦绣家园", "和平路望江苑",
          "长江路春晖园", "黄河路丽景苑", "中山路银杏小筑", "新华街清水湾")


def _rows(seed: int = 7) -> list[dict]:
    """30 incidents on one template, each its own place and numbers, then a neighbour's rewording of the first."""
    rng = random.Random(seed)
    rows = []
    for k in range(30):
        facts = {"p": PLACES[k % len(PLACES)] + "二三四五六七八九"[k // len(PLACES)] + "期", "b": rng.randint(1, 40),
                 "m": rng.randint(1, 12), "d": rng.randint(1, 28), "n": rng.randint(3, 30), "f": rng.randint(6, 33)}
        rows.append({"content": TEMPLATE.format(o="我是附近的住户，", c="请有关部门尽快处理。", **facts),
                     "name": f"住户{k}", "phone": f"139{k:08d}", "facts": facts})
    rows.append({"content": TEMPLATE.format(o="本人是该小区的业主，", c="希望相关部门给个说法。", **rows[0]["facts"]),
                 "name": "邻居", "phone": "13800000000"})
    return rows


def _signatures(rows):
    sig = TextSignature(("content",), ("name", "phone"), distinct_perms=DISTINCT_PERMS)
    head, hashes, counts = sig.parts(rows)
    model = ContentModel.learn(hashes, len(rows), 0.002, 10, 0.3)
    return sig, model, hashes, counts, sig.finish(head, hashes, counts, model)


def test_the_signature_counts_the_features_the_table_does_not_share():
    sig, model, hashes, counts, s = _signatures(_rows())
    rare = model.weights(hashes) >= 1.0
    per_row = np.add.reduceat(rare.astype(np.int64), np.cumsum(counts) - counts)
    assert s[:, sig.distinct_at].tolist() == per_row.tolist()
    assert 0 < per_row.max() < counts.min()  # the template is common, each row keeps its own details


def test_a_neighbours_rewording_is_kept_by_its_details_and_other_places_are_not():
    _, _, _, _, s = _signatures(_rows())
    v = TextVerifier(2, distinct_floor=ON)
    n = len(s)
    i, j = np.triu_indices(n, 1)
    j_est = v.scores(s[i], s[j])
    neighbour = (i == 0) & (j == n - 1)
    assert j_est[neighbour][0] < v.threshold  # the whole texts alone would not do
    d, _ = v.distinct_scores(s[i], s[j])
    assert d[neighbour][0] >= v.distinct_threshold > np.median(d[~neighbour])  # other places and numbers count against
    keep = v(s[i], s[j])
    assert keep[neighbour].all() and not keep[~neighbour].any()
    assert v.rules(s[:1], s[-1:]) == ["distinct"]
    off = TextVerifier(2)
    assert not off(s[:1], s[-1:]).any()  # the rule (off by default) is what keeps it


def test_in_a_table_that_shares_nothing_yet_the_whole_text_bars_alone_decide():
    """Before a full run has learned a common template (model None: every feature distinctive), a
    row is all its own words: rule distinct would only lower the bar, so it stays off."""
    rows = _rows()
    sig = TextSignature(("content",), ("name", "phone"), distinct_perms=DISTINCT_PERMS)
    s = sig.of_rows([rows[0], rows[-1]])
    v = TextVerifier(2, distinct_floor=ON)
    assert v.scores(s[:1], s[1:])[0] >= v.distinct_floor  # the pair would clear the rule's other bars ...
    assert not v.mostly_shared(s).any() and not v(s[:1], s[1:]).any()  # ... but no row is mostly shared text
    assert v.mostly_shared(_signatures(rows)[-1][[0, -1]]).all()  # learned: the template is what the table shares


def _stamp(**match):
    from dedup.config.parse import parse_config
    from dedup.runs.recipe import Recipe
    config = parse_config({"source": {"url": "sqlite://"}, "match": match,
                           "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})
    recipe = Recipe.of(config)
    return recipe.method.stamp(), recipe.method.signature.words


def test_the_rule_is_in_the_stamp_and_the_signature_only_when_on():
    """Off (the default) a stored table keeps its stamp and signature width: no needless `dedup full`;
    turned on, both change, so a stored table asks for one."""
    off, off_words = _stamp()
    on, on_words = _stamp(distinct_floor=ON)
    assert not any(k.startswith("distinct") for k in (*off["verify"], *off["signature"]))
    assert on["verify"]["distinct_floor"] == ON and on["signature"]["distinct_perms"] == 32
    assert on_words == off_words + 17

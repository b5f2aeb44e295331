"""Issue 22, session 39: rule ``content_rare_identity``. A long re-filing by the same person rewritten
with several edits (its estimate between 0.35 and 0.45) is kept at `match.identity_rare_threshold`
only when the equal identity value is rare: the full run saw it in at most `match.identity_rare_rows`
rows (frozen with the learned counts, as the common values are). Under a name many rows carry it
needs `identity_threshold` as before (bench/results/zhbar-s39.md: every false pair the lower bar
added on the tuning forms at 200,000 rows was such a name)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import config_for, make_table, petition
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (mongo_live_url: the live server fixture)
from test_identity_bar import AGAIN, FIRST, OTHERS, explained
from test_identity_bar import _groups as groups_of
from test_incremental import append, memberships

from dedup.config.model import MatchConfig
from dedup.index.bands import GENERIC, TextVerifier
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import mark_identity

RARE = {"identity_rare_threshold": 0.35, "identity_rare_rows": 5}
FILLER = ["小区门口的垃圾桶三天没有人清理，气味很大，蚊蝇很多，请环卫部门尽快处理。",
          "楼上装修已经两个月，每天早上七点开始电钻施工，严重影响休息，请城管部门查处。",
          "附近工地夜间施工噪音太大，凌晨两点还在运输渣土，居民无法入睡，希望有关部门管一管。",
          "我在超市买到过期的牛奶，找商家退货被拒绝，还态度恶劣，请市场监管部门处理。",
          "公交十二路改线以后老人看病很不方便，希望恢复原来的站点，方便附近居民出行。",
          "孩子所在的幼儿园乱收费，每学期额外收取所谓的兴趣班费用，家长意见很大，请教育局调查。"]
FIELDS = {"name": "short", "phone": "short", "title": "short", "content": "text"}  # title: the address


def _rows(generic: bool) -> list[dict]:
    """Two unrelated letters, then (``generic``) six more letters by 吴六 at one address about other
    things, then 吴六's letter there and its re-filing under another phone (name and address equal,
    so they share an identity key); the re-filing last."""
    at = "幸福路阳光花园3号楼"
    rows = [petition(1, OTHERS[0], "钱二", "13900000002", "人民路"), petition(2, OTHERS[1], "孙三", "13900000003", "建设路")]
    if generic:
        rows += [petition(10 + k, FILLER[k], "吴六", f"1380000001{k}", at) for k in range(6)]
    return rows + [petition(30, FIRST, "吴六", "13900000007", at), petition(31, AGAIN, "吴六", "13900000099", at)]


def _groups(tmp_path, rows, match=None) -> list:
    return groups_of(tmp_path, rows, match, FIELDS)


def test_the_rule_ships_on_at_the_swept_point():
    m = MatchConfig()
    assert (m.identity_rare_threshold, m.identity_rare_rows, m.identity_threshold) == (0.35, 5, 0.45)


def test_the_generic_bit_marks_values_in_more_than_identity_rare_rows_rows():
    raw = np.array([[7], [7], [7], [9], [11]], np.uint64) | GENERIC  # hashes with the top bit set by chance
    model = ContentModel.learn(raw.ravel(), 5, 0.002, 10, 0.3, IDENTITY_SALT, keep_rows=2)
    ids = raw.copy()
    mark_identity(ids, model)
    assert (ids[:3, 0] & GENERIC == GENERIC).all() and not (ids[3:, 0] & GENERIC).any()  # 7 in 3 rows > 2
    assert not model.common_values(raw).any()  # kept for the rule, yet not common (3 <= 10): not left out
    j = np.array([0.40, 0.40])
    v = TextVerifier(1, identity_threshold=0.45, identity_rare_threshold=0.35)
    a = np.array([[200, int(ids[0, 0])], [200, int(ids[3, 0])]], np.uint64)
    rare = v.persons(a, a)[1]
    assert rare.tolist() == [False, True] and (rare & (j >= v.identity_rare_threshold)).tolist() == [False, True]


def test_a_rare_name_keeps_the_refiling_a_generic_name_does_not(tmp_path):
    assert _groups(tmp_path / "a", _rows(False), match=RARE) == [["30", "31"]]
    assert _groups(tmp_path / "b", _rows(True), match=RARE) == []  # 吴六 in 8 rows: identity_threshold 0.45
    assert _groups(tmp_path / "c", _rows(True), match={**RARE, "identity_rare_rows": 10}) == [["30", "31"]]
    assert _groups(tmp_path / "d", _rows(False), match={"identity_rare_threshold": 0.45}) == []  # the rule off
    assert _groups(tmp_path / "e", _rows(False)) == [["30", "31"]]  # the shipped defaults: on


def test_explain_names_the_rare_identity_rule(tmp_path):
    _groups(tmp_path, _rows(False), match=RARE)
    view = explained(tmp_path, "{identity_rare_threshold: 0.35, identity_rare_rows: 5}",
                     "{name: short, phone: short, title: short, content: text}", "30", "31")
    assert view["rule"] == {"rule": "content_rare_identity", "name": "content with a rare identity value equal",
                            "threshold": 0.35, "knob": "match.identity_rare_threshold"}
    assert 0.35 <= view["similarity"] < 0.45


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    """Every store: SQLite, PostgreSQL, MariaDB, mongomock and a live MongoDB server."""
    return store_url_of(request.param, request, tmp_path, monkeypatch)


@pytest.mark.parametrize("generic, want", [(False, [["30", "31"]]), (True, [])])
def test_a_full_then_incremental_run_decides_as_one_full_run(store_url, tmp_path, generic, want):
    """The generic mark is frozen with the full run's counts: the re-filing read by an incremental
    run is judged as one full run over every row judges it, on every store."""
    rows, src = _rows(generic), f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, rows[:-1])
    cfg = config_for(src, store_url, fields=FIELDS, watermark="updated_at", match=RARE)
    run_full(cfg)
    assert memberships(cfg) == []
    append(src, rows[-1:])
    assert run_incremental(cfg).rows_read == 1
    ref = config_for(src, f"sqlite:///{tmp_path / 'ref.db'}", fields=FIELDS, watermark="updated_at", match=RARE)
    run_full(ref)
    assert memberships(cfg) == memberships(ref) == want

"""Issue 22, session 45 (bench/results/namesakes-s45.md): a namesake's own long letter on the same topic,
the name equal and the phone other, reached rule ``content_identity`` (J 0.45-0.6) on the name alone. The
guard ``rare_places`` (TextVerifier.namesakes) tells it from the same person's re-filing under a new phone
by what the two rows name: other places, none the same, is another incident; a re-filing keeps its place."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from helpers import config_for, make_table, petition
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (mongo_live_url: the live server fixture)
from test_identity_bar import OTHERS, explained
from test_identity_bar import _groups as groups_of
from test_incremental import append, memberships

import dedup.methods.text as text_method
from dedup.index.bands import TextVerifier
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental

FIELDS = {"name": "short", "phone": "short", "content": "text"}
FIRST = ("我是青山区阳光花园的居民，小区的下水道经常堵塞，污水漫到路面。我们多次向华安物业管理有限公司反映，对方一直推诿扯皮。"
         "阳光花园的居民对此意见很大，出行极不方便。请相关部门尽快到阳光花园现场查看，彻底疏通改造管网。下水道的问题已经影响到整个小区的正常生活。")
NAMESAKE = FIRST.replace("青山区", "龙泉区").replace("阳光花园", "金桂家园").replace("华安物业管理有限公司", "兴盛建筑工程公司")
AGAIN = ("领导您好，我是青山区阳光花圆的居民，上回的答复没有解决实际问题，小区的下水到经常赌塞，污水漫到路面上。我们多次向华安物业管理有限公司反映过。"
         "阳光花园的居民意见很大，出行极不方便,请相关部们尽快到阳光花园现场查看处理，彻底疏通管网.这个问题已经影响到小区的正常生活。盼复。")


@dataclass(frozen=True)
class _Places(TextVerifier):
    namesakes: str = "rare_places"


@dataclass(frozen=True)
class _Rare(TextVerifier):
    namesakes: str = "rare"  # session 44's guard: the rare-value bar only


def _rows() -> list[dict]:
    """Two unrelated letters, 吴六's letter, a namesake 吴六's own at another place, 吴六's re-filing under a new phone."""
    return [petition(1, OTHERS[0], "钱二", "13900000002"), petition(2, OTHERS[1], "孙三", "13900000003"),
            petition(3, FIRST, "吴六", "13900000007"), petition(5, AGAIN, "吴六", "13900000009"),
            petition(4, NAMESAKE, "吴六", "13900000008")]


def test_a_namesake_at_another_place_is_not_kept_and_a_refiling_under_a_new_phone_is(tmp_path, monkeypatch):
    monkeypatch.setattr(text_method, "TextVerifier", _Rare)
    assert groups_of(tmp_path / "a", _rows(), fields=FIELDS) == [["3", "4", "5"]]  # the name alone kept both
    view = explained(tmp_path / "a", "{}", "{name: short, phone: short, content: text}", "3", "4")
    assert view["rule"]["rule"] == "content_identity" and 0.45 <= view["similarity"] < 0.75
    monkeypatch.setattr(text_method, "TextVerifier", _Places)
    assert groups_of(tmp_path / "b", _rows(), fields=FIELDS) == [["3", "5"]]


def test_the_guard_asks_the_places_only_of_pairs_whose_fields_differ_as_much_as_they_agree():
    """persons(): the name equal and the phone other is a namesake where the incidents are apart; the
    name and phone equal never is."""
    from dedup.index.persons import persons  # here: the module is new (session 44's patch), the other tests run on main
    a = np.array([[9, 11, 21], [9, 11, 22], [9, 11, 23]], np.uint64)
    b = np.array([[9, 11, 31], [9, 11, 22], [9, 11, 33]], np.uint64)
    apart = np.array([True, True, False])
    same, _ = persons(a, b, 2, False, "rare_places", apart)
    assert same.tolist() == [False, True, True]


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    """Every store: SQLite, PostgreSQL, MariaDB, mongomock and a live MongoDB server."""
    return store_url_of(request.param, request, tmp_path, monkeypatch)


def test_a_full_then_incremental_run_decides_the_namesake_as_one_full_run(store_url, tmp_path, monkeypatch):
    """The namesake read last by an incremental run is judged as one full run judges it."""
    monkeypatch.setattr(text_method, "TextVerifier", _Places)
    rows, src = _rows(), f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, rows[:-1])
    cfg = config_for(src, store_url, fields=FIELDS, watermark="updated_at")
    run_full(cfg)
    assert memberships(cfg) == [["3", "5"]]
    append(src, rows[-1:])
    assert run_incremental(cfg).rows_read == 1
    ref = config_for(src, f"sqlite:///{tmp_path / 'ref.db'}", fields=FIELDS, watermark="updated_at")
    run_full(ref)
    assert memberships(cfg) == memberships(ref) == [["3", "5"]]

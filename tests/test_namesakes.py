"""Issue 22, session 44 (bench/results/topic3-s44.md): with bands of 2 values a namesake's other letter
became a candidate, and rule ``content_rare_identity`` kept it on the name alone (held-out tickets: another
Ben Taylor, another email, J 0.359). ``TextVerifier.namesakes`` ("rare", chosen on the tuning sets): an
equal rare value beside as many identity fields that differ is no evidence for that bar; the same person's
re-filing with a new phone (name and address equal) still is."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from helpers import config_for, make_table, petition
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (mongo_live_url: the live server fixture)
from test_identity_bar import AGAIN, FIRST, OTHERS, explained
from test_identity_bar import _groups as groups_of
from test_incremental import append, memberships
from test_numbers_places import _stamp
from test_rare_identity import FIELDS as WITH_ADDRESS

import dedup.methods.text as text_method
from dedup.index.bands import TextVerifier
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental

FIELDS = {"name": "short", "phone": "short", "content": "text"}
AT = "幸福路阳光花园3号楼"


@dataclass(frozen=True)
class _Off(TextVerifier):
    namesakes: str = ""  # the guard off: main before session 44


def _rows(phone: str = "13900000099", address: str | None = None) -> list[dict]:
    """Two unrelated letters, 吴六's letter, then a rewritten one (J 0.375) by 吴六 under ``phone``."""
    at = {"title": AT} if address else {}
    return [petition(1, OTHERS[0], "钱二", "13900000002", "人民路"), petition(2, OTHERS[1], "孙三", "13900000003", "建设路"),
            {**petition(30, FIRST, "吴六", "13900000007"), **at}, {**petition(31, AGAIN, "吴六", phone), **at}]


def test_the_guard_ships_on_the_rare_value_bar_and_is_in_the_stamp():
    """Session 45: ``rare_places`` is ``rare`` and, where the rows name other places, every identity bar."""
    assert TextVerifier(2).namesakes == "rare_places" and _stamp()["verify"]["namesakes"] == "rare_places"


def test_a_namesake_under_another_phone_is_not_kept_by_the_rare_name(tmp_path, monkeypatch):
    assert groups_of(tmp_path / "a", _rows(), fields=FIELDS) == []  # the name equal, the phone other
    view = explained(tmp_path / "a", "{}", "{name: short, phone: short, content: text}", "30", "31")
    assert view["rule"]["rule"] == "content_identity" and 0.35 <= view["similarity"] < 0.45  # the bar it missed
    assert view["blocks"]  # a candidate (bands of 2 values)
    monkeypatch.setattr(text_method, "TextVerifier", _Off)
    assert groups_of(tmp_path / "b", _rows(), fields=FIELDS) == [["30", "31"]]  # the guard off: kept by the rare name


def test_a_refiling_with_a_new_phone_at_the_same_address_is_kept(tmp_path):
    """Name and address equal, the phone other: more fields equal than differ, still the same person."""
    assert groups_of(tmp_path, _rows(address=AT), fields=WITH_ADDRESS) == [["30", "31"]]


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    """Every store: SQLite, PostgreSQL, MariaDB, mongomock and a live MongoDB server."""
    return store_url_of(request.param, request, tmp_path, monkeypatch)


@pytest.mark.parametrize("guard, want", [("rare", []), ("", [["30", "31"]])])
def test_a_full_then_incremental_run_decides_as_one_full_run(store_url, tmp_path, monkeypatch, guard, want):
    """The namesake read last by an incremental run is judged as one full run judges it, guard on and off."""
    if not guard:
        monkeypatch.setattr(text_method, "TextVerifier", _Off)
    rows, src = _rows(), f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, rows[:-1])
    cfg = config_for(src, store_url, fields=FIELDS, watermark="updated_at")
    run_full(cfg)
    assert memberships(cfg) == []
    append(src, rows[-1:])
    assert run_incremental(cfg).rows_read == 1
    ref = config_for(src, f"sqlite:///{tmp_path / 'ref.db'}", fields=FIELDS, watermark="updated_at")
    run_full(ref)
    assert memberships(cfg) == memberships(ref) == want

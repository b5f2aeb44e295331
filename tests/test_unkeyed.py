"""Issue 22, session 47 (bench/results/topic5-s47.md): with ``wide_keys`` W, a pair sharing no band of W
MinHash values and no identity key (what the keys before bands of 2 found) is kept only on the plain
content bars or by rule ``numbers`` at a place both rows name: bands of 2 then find the neighbours'
refiles at one community without letting in namesakes kept on the name alone."""

from __future__ import annotations

import numpy as np

import dedup.methods.text as text_method
from dedup.config.model import MatchConfig
from dedup.config.parse import parse_config
from dedup.index.bands import TextVerifier
from dedup.index.unkeyed import keyed, wide_bands
from dedup.runs.recipe import Recipe
from mongo_fixtures import mongo_live_url  # noqa: F401
from test_cluster_gather import full_then_last_row
from test_incremental import store_url  # noqa: F401  (the four-backend fixture)
from test_numbers_places import DANCE, _verifier
from test_numbers_rule import _signatures
from helpers import petition

M = MatchConfig()
PERMS = 64


def _rows() -> list[dict]:
    rows = [petition(k + 1, f"第{k}个问题：{'东南西北中'[k % 5]}{'山河湖海'[k // 5]}路的路灯坏了{k + 3}天，晚上出行很不方便，请有关部门尽快维修。",
                     f"住户{k}", f"139{k:08d}") for k in range(20)]
    return [*rows, petition(101, DANCE.format(c="北江小区", x="大家意见很大。"), "李军", "13900000101"),
            petition(102, "领导您好，" + DANCE.format(c="北江小区", x="物业一直没有处理。"), "王五", "13900000102")]


def _halved(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b`` with a's MinHash values, but two of every band of 4 (values 4k+2, 4k+3: word 2k+1) set
    apart: J 0.5, a band of 2 shared, no band of 4."""
    out = b.copy()
    start = 1 + 2  # the length, two identity words
    out[:, start:start + PERMS // 2] = a[:, start:start + PERMS // 2]
    out[:, start + 1:start + PERMS // 2:2] ^= np.uint64(0x0001_0001_0001_0001)
    return out


def _pair(same_name: bool, same_phone: bool, numbers_from: int = -1):
    sig, s = _signatures(_rows())
    a = s[-2:-1].copy()
    b = _halved(a, s[numbers_from:][:1] if numbers_from != -1 else s[-1:])
    b[:, 0] = a[:, 0]  # a long pair
    b[:, 1] = a[:, 1] if same_name else b[:, 1]
    b[:, 2] = a[:, 2] if same_phone else b[:, 2]
    return sig, a, b


def test_a_pair_sharing_only_a_band_of_two_is_unkeyed():
    sig, a, b = _pair(True, False)
    assert TextVerifier(2).scores(a, b)[0] == 0.5
    assert wide_bands(2, PERMS, 4) == 15 and wide_bands(3, PERMS, 4) == 13
    assert not keyed(a, b, 2, PERMS, 4).any() and keyed(a, a, 2, PERMS, 4).all()
    _, a, b = _pair(True, True)
    assert keyed(a, b, 2, PERMS, 4).all()  # two identity fields equal: the identity key finds it


def test_a_namesake_found_only_by_narrow_bands_is_not_kept_on_the_name():
    """Name equal, phone other, J 0.5: rule content_identity keeps it without the guard."""
    sig, a, b = _pair(True, False, numbers_from=0)  # another complaint's numbers: rule numbers cannot keep it
    off, on = _verifier(sig, True), _verifier(sig, True, wide_keys=4)
    assert off(a, b).all() and off.rules(a, b) == ["content_identity"]
    assert not on(a, b).any() and on.rules(a, b) == ["unkeyed"]


def test_the_same_person_by_two_fields_is_kept_as_before():
    sig, a, b = _pair(True, True, numbers_from=0)
    on = _verifier(sig, True, wide_keys=4)
    assert on(a, b).all() and on.rules(a, b) == ["content_identity"]


def test_a_neighbour_at_the_same_place_is_kept_by_rule_numbers():
    """Another person at 北江小区, the numbers alike: rule numbers keeps it, the guard too."""
    sig, a, b = _pair(False, False)
    on = _verifier(sig, True, wide_keys=4)
    assert on.numbers_alike(a, b)[0][0] == 1.0
    assert on(a, b).all() and on.rules(a, b) == ["numbers"]


def test_numbers_alike_at_no_place_named_are_not_enough():
    """The same pair with its place names taken off (no place both name): the guard refuses it."""
    sig, a, b = _pair(False, False)
    at = sig.numbers_at
    for x in (a, b):
        x[:, at] &= np.uint64(0xFFFF_FFFF)  # the count word: no place names
        words = x[:, at + 1:].view(np.uint32)
        words[words >= np.uint32(0x8000_0000)] = 0
    off, on = _verifier(sig, False), _verifier(sig, False, wide_keys=4)
    assert off(a, b).all() and off.rules(a, b) == ["numbers"]
    assert not on(a, b).any() and on.rules(a, b) == ["unkeyed"]


def test_the_plain_bar_is_kept():
    sig, a, _ = _pair(False, False)
    on = _verifier(sig, True, wide_keys=4)
    assert on(a, a).all()


def _stamp(**match) -> dict:
    config = parse_config({"source": {"url": "sqlite://"}, "match": match,
                           "tables": {"t": {"key": "id", "fields": {"name": "short", "content": "text"}}}})
    return Recipe.of(config).method.stamp()


def test_the_guard_and_the_bands_are_in_the_stamp(monkeypatch):
    """Both change what a stored table compares: on, a stored text table asks for one `dedup full`."""
    monkeypatch.setattr(text_method, "WIDE_KEYS", 0)
    monkeypatch.setattr(text_method, "BAND_VALUES", 4)
    assert "wide_keys" not in _stamp()["verify"] and _stamp()["keys"]["r"] == 4  # off: the stamp before
    monkeypatch.setattr(text_method, "WIDE_KEYS", 4)
    monkeypatch.setattr(text_method, "BAND_VALUES", 2)
    assert _stamp()["verify"]["wide_keys"] == 4 and _stamp()["keys"]["r"] == 2


def _namesakes() -> list[dict]:
    """_rows() and, last, a namesake of 101 (李军, another phone) on the same template at 北江小区 with other numbers."""
    other = DANCE.replace("2025年8月26日", "2024年3月2日").replace("29号楼", "7号楼")
    return [*_rows(), petition(103, other.format(c="北江小区", x="希望有关部门管一管。"), "李军", "13900000999")]


def _incremental_equals_full(store: str, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(text_method, "WIDE_KEYS", 4)
    monkeypatch.setattr(text_method, "BAND_VALUES", 2)
    before, incremental, full = full_then_last_row(_namesakes(), store, tmp_path)
    assert incremental == full and ["101", "102"] in before


def test_full_then_incremental_equals_one_full_run(store_url, tmp_path, monkeypatch):  # noqa: F811
    _incremental_equals_full(store_url, tmp_path, monkeypatch)


def test_full_then_incremental_equals_one_full_run_on_a_live_mongo(mongo_live_url, tmp_path, monkeypatch):  # noqa: F811
    _incremental_equals_full(mongo_live_url, tmp_path, monkeypatch)

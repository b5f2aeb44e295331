"""Star clustering's merging (dedup.index.clusters ``merge``, issue 22): a row that joins a group
joins to it the later-centred group of another partner when it matches half of that group's head
and a third of the pairs of the two heads verify; text tables merge; a full then incremental run
merges as one full run does."""

from __future__ import annotations

from dedup.config import parse_config
from dedup.index.clusters import cluster
from dedup.index.decisions import Decision
from dedup.index.groups import Pair
from dedup.methods.text import TextMinHash
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from test_clusters import close, fps
from helpers import config_for, make_table, pooled_copies
from test_cluster_gather import full_then_last_row
from test_incremental import memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)

# 1 and 2 one group, 3 and 4 another (1 and 3 never a candidate pair); 5 pairs with 2 and with 4
PAIRS = [Pair("1", "2", 1), Pair("3", "4", 1), Pair("2", "5", 1), Pair("4", "5", 1)]
LINKED = {frozenset(p) for p in ("12", "34", "25", "45")}


def groups(check, merge, decisions=()):
    return [g.keys for g in cluster(PAIRS, fps("12345"), check, decisions, gather=True, merge=merge)]


def test_a_row_matching_two_groups_whose_heads_match_merges_them():
    check = close(LINKED | {frozenset("14"), frozenset("23")})  # 2 of the 4 head pairs hold
    assert groups(check, merge=False) == [["1", "2", "5"], ["3", "4"]]  # 5 joins the first centre only
    (g,) = cluster(PAIRS, fps("12345"), check, gather=True, merge=True)
    assert g.keys == ["1", "2", "3", "4", "5"]  # in key order: the head stays the lowest keys
    assert {(p.a, p.b) for p in g.pairs} == {("1", "2"), ("3", "4"), ("2", "5"), ("4", "5")}  # 4-5: the bridge


def test_groups_whose_heads_do_not_match_stay_apart():
    assert groups(close(LINKED | {frozenset("14")}), merge=True) == [["1", "2", "5"], ["3", "4"]]  # 1 of 4


def test_the_row_must_match_half_of_the_other_head():
    # 3, 4, 6 a group of three; 5 pairs with 4 only of its head: 1 of 3
    pairs = [Pair("1", "2", 1), Pair("3", "4", 1), Pair("3", "6", 1), Pair("2", "7", 1), Pair("4", "7", 1)]
    heads = {frozenset(p) for p in ("12", "34", "36", "46", "27", "47", "13", "14", "16", "23", "24", "26")}
    keys = "1234567"
    assert [g.keys for g in cluster(pairs, fps(keys), close(heads), gather=True, merge=True)] == \
        [["1", "2", "7"], ["3", "4", "6"]]
    merged = cluster(pairs, fps(keys), close(heads | {frozenset("37")}), gather=True, merge=True)
    assert [g.keys for g in merged] == [["1", "2", "3", "4", "6", "7"]]  # 2 of 3


def test_a_decision_different_keeps_the_groups_apart():
    check = close(LINKED | {frozenset("14"), frozenset("23")})
    apart = [Decision("1", "3", "different")]
    assert groups(check, merge=True, decisions=apart) == [["1", "2", "5"], ["3", "4"]]


def test_text_and_record_tables_merge_and_say_so_in_the_stamp():
    def recipe(fields):
        return Recipe.of(parse_config({"source": {"url": "sqlite://"}, "tables": {"t": {"key": "id", "fields": fields}}}),
                         "t")
    text, persons = recipe({"content": "text"}), recipe({"name": "short", "phone": "short", "id_number": "short"})
    assert text.merge and text.stamp["merge"] is True  # a stored text table asks for one full run
    assert persons.merge and persons.stamp["merge"] is True  # record tables too (s37, recmerge-s37.md)


# --- a full then incremental run merges as one full run does ---------------------------------------

def _copies() -> list[dict]:
    """20 unrelated petitions, then five copies of one petition by five people: twelve shared
    segments and four of their own from a pool (A1 pqrs, B1 xyzw, B2 xyzv, A2 pqxy, U pxyz).
    A1 and B1 are too far apart to pair, so A1 and B1 start groups of their own; A2 joins A1's
    and matches B's rows, but A1 matches none of B's: no merge; U, last, joins A and merges B.
    Seed 1: the estimates fall so (the test asserts the groups with U and without it)."""
    return pooled_copies({21: "pqrs", 22: "xyzw", 23: "xyzv", 24: "pqxy", 25: "pxyz"}, "pqrsxyzwv", 12)


def test_a_text_table_merges_in_a_full_then_incremental_run_as_in_one_full_run(store_url, tmp_path):  # noqa: F811
    before, incremental, full = full_then_last_row(_copies(), store_url, tmp_path)
    assert before == [["21", "24"], ["22", "23"]]  # two groups of one petition
    assert incremental == full == [["21", "22", "23", "24", "25"]]  # U merged them in both


def test_without_merging_the_copies_stay_in_two_groups(tmp_path, monkeypatch):
    monkeypatch.setattr(TextMinHash, "merges", False)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, _copies())
    cfg = config_for(src, f"sqlite:///{tmp_path / 'st.db'}", watermark="updated_at")
    run_full(cfg)
    assert memberships(cfg) == [["21", "24", "25"], ["22", "23"]]

"""Star clustering's widening (dedup.index.clusters ``widen``, issue 22 stop 38): a row that matches
no group's head (0 or 1 of its first three rows) joins the first group most of whose first WIDE
rows it matches, at least two; a chain's next link does not; text tables widen (the stamp says so);
a full then incremental run widens as one full run does, on every store."""

from __future__ import annotations

from dedup.config import parse_config
from dedup.index.clusters import WIDE, cluster
from dedup.index.decisions import Decision
from dedup.index.groups import Pair
from dedup.methods.text import TextMinHash
from dedup.runs.recipe import Recipe
from test_clusters import close, fps
from helpers import pooled_copies
from test_cluster_gather import runs_alike
from mongo_fixtures import mongo_live_url  # noqa: F401  (a live MongoDB-protocol server)
from test_incremental import store_url  # noqa: F401  (store_url: the four-backend fixture)

# 1..5 one group (each of 2..5 matches 1, 2 and 3); 6 matches 3, 4 and 5: 1 of the head's 3, 3 of 5
GROUP = {frozenset(p) for p in ("12", "13", "14", "15", "23", "24", "25", "34", "35", "45")}
KEYS = "123456"


def placed(links: set[frozenset], widen: bool, decisions=()) -> list[list[str]]:
    pairs = [Pair(*sorted(p), 1) for p in sorted(links, key=sorted)]
    return [g.keys for g in cluster(pairs, fps(KEYS), close(links), decisions, gather=True, merge=True,
                                    widen=widen)]


def test_a_row_matching_most_of_the_group_but_one_head_row_joins_when_widening():
    links = GROUP | {frozenset("36"), frozenset("46"), frozenset("56")}
    assert placed(links, widen=False) == [["1", "2", "3", "4", "5"]]  # 1 of 3 head rows: alone
    assert placed(links, widen=True) == [["1", "2", "3", "4", "5", "6"]]  # 3 of the first 5 rows


def test_a_chain_link_matching_two_of_five_rows_stays_out():
    links = GROUP | {frozenset("36"), frozenset("56")}  # 2 of 5: not most
    assert placed(links, widen=True) == [["1", "2", "3", "4", "5"]]


def test_a_decision_different_keeps_the_row_out():
    links = GROUP | {frozenset("36"), frozenset("46"), frozenset("56")}
    assert placed(links, widen=True, decisions=[Decision("1", "6", "different")]) == [["1", "2", "3", "4", "5"]]


def test_only_the_first_wide_rows_count():
    # rows 01..n one group (each matches 01, 02, 03); the last matches 03, 04 and every row after the
    # first WIDE: most of the group's rows, but 2 of its first WIDE
    n = WIDE + 8
    keys = [f"{k:02d}" for k in range(1, n + 2)]
    group = {frozenset((a, b)) for a in keys[:3] for b in keys[:n] if a != b}
    late = {frozenset((k, keys[-1])) for k in keys[2:4] + keys[WIDE:n]}
    assert 2 * len(late) > n
    pairs = [Pair(*sorted(p), 1) for p in group | late]
    got = cluster(pairs, {k: i for i, k in enumerate(keys)}, close(group | late), gather=True, merge=True, widen=True)
    assert [g.keys for g in got] == [keys[:n]]


def test_text_tables_widen_and_say_so_in_the_stamp():
    def recipe(fields):
        return Recipe.of(parse_config({"source": {"url": "sqlite://"}, "tables": {"t": {"key": "id", "fields": fields}}}),
                         "t")
    text, persons = recipe({"content": "text"}), recipe({"name": "short", "phone": "short", "id_number": "short"})
    assert text.widen and text.stamp["widen"] == WIDE  # a stored text table asks for one full run
    assert not persons.widen and "widen" not in persons.stamp  # record tables: not measured


# --- a full then incremental run widens as one full run does -----------------------------------------

def _copies() -> list[dict]:
    """20 unrelated petitions, then seven copies of one petition by seven people: fourteen shared
    segments and six of their own from a pool (21 abcdef, 22 abcdgh, 23 abcdij, 24 abcdik,
    25 abcdjl, 26 cdijkl, 27 abcdem). 22..25 match the head rows 21..23; 26 matches 23, 24 and 25
    only (1 of the head's 3, 3 of the group's 5); 27 matches the head. Seed 1: the estimates fall so
    (the tests assert the groups with and without widening)."""
    return pooled_copies({21: "abcdef", 22: "abcdgh", 23: "abcdij", 24: "abcdik", 25: "abcdjl", 26: "cdijkl",
                          27: "abcdem"}, "abcdefghijklm", 14)


def test_a_widened_row_read_by_an_incremental_run_joins_as_in_one_full_run(store_url, tmp_path):  # noqa: F811
    runs_alike(_copies()[:-1], store_url, tmp_path,
               [["21", "22", "23", "24", "25"]],
               [["21", "22", "23", "24", "25", "26"]])


def test_a_widened_row_re_placed_by_an_incremental_run_stays(store_url, tmp_path):  # noqa: F811
    runs_alike(_copies(), store_url, tmp_path,
               [["21", "22", "23", "24", "25", "26"]],  # 26 widened in by the full run
               [["21", "22", "23", "24", "25", "26", "27"]])  # 27 re-places the group


def test_without_widening_the_row_stays_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(TextMinHash, "widens", False)
    runs_alike(_copies(), f"sqlite:///{tmp_path / 'st.db'}", tmp_path,
               [["21", "22", "23", "24", "25"]],
               [["21", "22", "23", "24", "25", "27"]])


def test_a_widened_row_re_placed_by_an_incremental_run_stays_on_a_live_mongodb(mongo_live_url, tmp_path):  # noqa: F811
    """The same on a real MongoDB-protocol server (DEDUP_TEST_MONGO_URI; SecantusDB 0.7.0b3 here)."""
    runs_alike(_copies(), mongo_live_url, tmp_path,
               [["21", "22", "23", "24", "25", "26"]],
               [["21", "22", "23", "24", "25", "26", "27"]])

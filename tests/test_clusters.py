"""Star clustering (dedup.index.clusters): chains are cut, decisions are hard, copies are cheap."""

from __future__ import annotations

import numpy as np
import pytest

from dedup.index.clusters import QUORUM, cluster, star_clusters
from dedup.index.decisions import Decision
from dedup.index.groups import Pair
from dedup.index.keys import key_sort


def close(allowed: set[frozenset]):
    """A check that holds for the pairs in ``allowed`` only, and counts what it was asked."""
    asked: list[tuple[str, str]] = []

    def check(pairs):
        asked.extend(pairs)
        return [frozenset(p) in allowed for p in pairs]
    check.asked = asked
    return check


def fps(keys):
    return {k: i for i, k in enumerate(keys)}


def test_a_chain_of_pairs_is_cut_where_a_row_does_not_match_the_head():
    # 1~2~3~4~5~6: each neighbour similar, nothing else
    keys = "123456"
    pairs = [Pair(a, b, 1) for a, b in zip(keys, keys[1:])]
    check = close({frozenset(p) for p in zip(keys, keys[1:])})
    # 3 matches 2 (1 of the head 1, 2: half); 4 matches 3 only (1 of 1, 2, 3): a group of its own
    assert star_clusters(pairs, key_sort, check) == [["1", "2", "3"], ["4", "5", "6"]]
    assert check.asked == [("1", "4"), ("2", "4")]  # only where the pairs found do not decide
    # connected components (no check) keep the chain whole
    assert [g.keys for g in cluster(pairs, fps(keys), None)] == [list(keys)]


def test_a_row_joins_a_group_whose_head_it_mostly_matches():
    pairs = [Pair("1", "2", 1), Pair("2", "3", 1), Pair("3", "4", 1), Pair("2", "5", 1)]
    # 3 matches 1 and 2 (the whole head); 4 matches 2 and 3 but not the centre 1 (2 of 3);
    # 5 matches only 2 (1 of 3): not the group
    check = close({frozenset(p) for p in [("1", "2"), ("1", "3"), ("2", "3"), ("2", "4"), ("3", "4"), ("2", "5")]})
    (g,) = cluster(pairs, fps("12345"), check)
    assert g.keys == ["1", "2", "3", "4"]
    assert [(p.a, p.b) for p in g.pairs] == [("1", "2"), ("2", "3"), ("2", "4")]  # each to the first head row it matched


def test_different_decisions_take_a_row_out_even_when_other_links_hold_it():
    keys = ["1", "2", "3", "4", "5"]
    pairs = [Pair(a, b, 0) for i, a in enumerate(keys) for b in keys[i + 1:]]  # every pair found
    every = close({frozenset((a, b)) for a in keys for b in keys})
    out = [Decision("3", k, "different") for k in keys if k != "3"]  # take 3 out
    assert [g.keys for g in cluster(pairs, fps(keys), every, out)] == [["1", "2", "4", "5"]]


def test_a_split_group_stays_split_when_a_new_row_links_across():
    keys = ["1", "2", "3", "4", "5", "6"]  # 6: a later row that matches everything
    pairs = [Pair(a, b, 0) for i, a in enumerate(keys) for b in keys[i + 1:]]
    every = close({frozenset((a, b)) for a in keys for b in keys})
    split = [Decision(a, b, "different") for a in ("1", "2", "3") for b in ("4", "5")]
    groups = [g.keys for g in cluster(pairs, fps(keys), every, split)]
    assert groups == [["1", "2", "3", "6"], ["4", "5"]]
    assert [g.keys for g in cluster(pairs, fps(keys), None, split)] == [keys]  # components: 6 joins them again


def test_a_same_decision_joins_the_two_rows_groups():
    pairs = [Pair("1", "2", 1), Pair("1", "3", 1), Pair("3", "4", 1), Pair("4", "5", 1)]
    nothing = close(set())  # 4 matches 3 only (1 of the head 1, 2, 3); 5 matches 4
    assert [g.keys for g in cluster(pairs, fps("12345"), nothing)] == [["1", "2", "3"], ["4", "5"]]
    (joined,) = cluster(pairs, fps("12345"), nothing, [Decision("2", "4", "same")])
    assert joined.keys == ["1", "2", "3", "4", "5"]
    assert [(p.a, p.b) for p in joined.pairs] == [("1", "2"), ("1", "3"), ("2", "4"), ("4", "5")]


def test_a_different_decision_beats_a_same_one_reaching_the_same_group():
    pairs = [Pair("1", "2", 1), Pair("1", "3", 1), Pair("3", "4", 1), Pair("4", "5", 1)]
    decisions = [Decision("2", "4", "same"), Decision("1", "5", "different")]
    assert [g.keys for g in cluster(pairs, fps("12345"), close(set()), decisions)] == [["1", "2", "3"], ["4", "5"]]


def test_fifty_thousand_copies_are_one_group_for_a_few_verifications():
    n = 50_000
    keys = [str(i) for i in range(n + 1)]
    # row 0 is an edit; 1.. are copies of one text, linked to their first row (as dedup.index.pairs
    # links identical rows), and 1 is linked to the edit
    pairs = [Pair("0", "1", 2)] + [Pair("1", k, 0) for k in keys[2:]]
    sketch = {k: np.array([7], np.uint64) for k in keys[1:]}
    sketch["0"] = np.array([5], np.uint64)
    calls = []

    def check(ps):
        calls.append(len(ps))
        return [True] * len(ps)
    from dedup.runs.recipe import Recipe  # the recipe's cache of identical rows answers the copies
    recipe = Recipe.__new__(Recipe)
    object.__setattr__(recipe, "clustering", "star")
    object.__setattr__(recipe, "verify", lambda a, b: np.asarray(check(list(zip(a, b)))))
    cached = Recipe.centre_check(recipe, lambda ks: np.array([sketch[k] for k in ks]))
    (g,) = cluster(pairs, fps(keys), cached)
    assert g.size == n + 1 and g.keys[0] == "0"
    assert sum(calls) <= QUORUM  # one a head row: the copies after it are answered from the first


@pytest.mark.parametrize("order", [0, 1, 2])
def test_clusters_do_not_depend_on_the_order_pairs_come_in(order):
    rng = np.random.default_rng(order)
    keys = [str(i) for i in range(40)]
    pairs = [Pair(keys[a], keys[b], 0) for a, b in rng.integers(0, 40, (80, 2)) if a != b]
    allowed = {frozenset((keys[a], keys[b])) for a, b in rng.integers(0, 40, (300, 2))}
    allowed |= {frozenset((p.a, p.b)) for p in pairs}
    first = star_clusters(pairs, key_sort, close(allowed))
    shuffled = [pairs[i] for i in rng.permutation(len(pairs))]
    assert star_clusters(shuffled, key_sort, close(allowed)) == first


def test_a_stored_group_facing_the_same_head_is_not_checked_again():
    from dedup.index.groups import Group

    pairs = [Pair("1", "2", 0), Pair("1", "3", 0), Pair("2", "4", 0), Pair("4", "9", 0)]
    every = close({frozenset((a, b)) for a in "12349" for b in "12349"})
    (stored,) = cluster(pairs[:3], fps("1234"), every)
    assert stored.keys == ["1", "2", "3", "4"] and every.asked == [("1", "4"), ("3", "4")]  # 2 of 1, 2, 3
    again = close(set())  # would refuse everything: the stored placements stand, 9 is checked
    (g,) = cluster([*stored.pairs, pairs[3]], fps("12349"), again, settled=[stored])
    assert g.keys == ["1", "2", "3", "4"] and again.asked == [("1", "9"), ("2", "9"), ("3", "9")]

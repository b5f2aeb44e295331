import numpy as np

from dedup.index.blocks import BlockLayout
from dedup.index.candidates import near_pairs
from dedup.index.groups import Pair, UnionFind, build_groups
from dedup.index.pairs import row_pairs


def test_union_find_components():
    uf = UnionFind()
    for a, b in [(1, 2), (3, 4), (2, 3), (5, 6)]:
        uf.union(a, b)
    assert sorted(map(sorted, uf.components())) == [[1, 2, 3, 4], [5, 6]]


def test_groups_ordered_by_lowest_key_with_distances_to_it():
    keys = ["10", "9", "100", "7"]
    fps = np.array([0b0, 0b1, 0b11, 0xFFFF], dtype=np.uint64)
    pairs = [Pair("9", "10", 1), Pair("10", "100", 2)]
    (g,) = build_groups(keys, fps, pairs)
    assert g.id == 1
    assert g.keys == ["9", "10", "100"]  # numeric order, not string order
    assert g.distances == [0, 1, 1]  # to key 9 (fingerprint 0b1)
    assert [(p.a, p.b) for p in g.pairs] == [("9", "10"), ("10", "100")]


def _near3(sketches):
    """The k = 3 search on the fingerprints (word 0) of distinct sketches."""
    return near_pairs(np.ascontiguousarray(sketches[:, 0]), BlockLayout.for_distance(3))


def test_identical_fingerprints_link_to_their_first_row_only():
    n = 500
    keys = [str(i) for i in range(n)]
    fps = np.full(n, 42, dtype=np.uint64)
    pairs = row_pairs(keys, fps, _near3)
    assert len(pairs) == n - 1  # not n(n-1)/2
    assert {p.a for p in pairs} == {"0"}
    (g,) = build_groups(keys, fps, pairs)
    assert g.size == n and set(g.distances) == {0}


def test_identical_and_near_rows_form_one_group():
    keys = ["1", "2", "3", "4"]
    fps = np.array([0xF0, 0xF0, 0xF3, 1 << 40 | 0xFFFF], dtype=np.uint64)
    pairs = row_pairs(keys, fps, _near3)
    assert sorted((p.a, p.b, p.distance) for p in pairs) == [("1", "2", 0), ("1", "3", 2)]
    groups = build_groups(keys, fps, pairs)
    assert [g.keys for g in groups] == [["1", "2", "3"]]


def test_no_pairs_no_groups():
    assert build_groups([], np.empty(0, np.uint64), []) == []
    assert row_pairs([], np.empty(0, np.uint64), lambda u: (u, u, u)) == []


def test_a_group_keeps_a_spanning_tree_of_its_closest_pairs():
    """Every pair of a 40-row clique is verified, but the group keeps 39: each row's closest link."""
    rng = np.random.default_rng(4)
    keys = [str(k) for k in range(40)]
    fps = rng.integers(0, 2**63, size=40, dtype=np.uint64)
    dist = {(a, b): int(rng.integers(0, 30)) for a in range(40) for b in range(a + 1, 40)}
    pairs = [Pair(str(a), str(b), d) for (a, b), d in dist.items()]
    pairs.append(Pair("50", "51", 3))
    g, other = build_groups(keys + ["50", "51"], np.append(fps, [1, 2]).astype(np.uint64), pairs)
    assert len(g.pairs) == g.size - 1 == 39 and [(p.a, p.b) for p in other.pairs] == [("50", "51")]
    uf = UnionFind()
    for p in g.pairs:
        uf.union(p.a, p.b)
    assert sorted(map(sorted, uf.components())) == [sorted(keys)]  # the tree spans the group
    # minimum total distance (Kruskal's), which no other spanning tree beats
    edges = sorted(dist.items(), key=lambda e: e[1])
    best, uf = 0, UnionFind()
    for (a, b), d in edges:
        if uf.find(a) != uf.find(b):
            uf.union(a, b)
            best += d
    assert sum(p.distance for p in g.pairs) == best

"""The Spark run's groups, made in the executors: connected components, then the local clustering
in each.

A row's group depends only on the rows its pairs and "same" decisions link it to (star clustering
places a row by its earlier partners' groups; a "different" decision only bars rows of one
component from each other), so the groups of the whole table are those of each connected
component, made apart. The components are found in Spark by large-star / small-star rounds
(Kiveris et al., "Connected Components in MapReduce and Beyond", 2014) on the pair edges; each
component's rows are brought together with their sketches (star clustering verifies (centre,
row) pairs with them) and the component is clustered by Recipe.grouped, the local run's code.
The driver collects the groups (keys, distances, pairs), never a sketch or a fingerprint, and
numbers them from their lowest key as the local run does.
"""

from __future__ import annotations

import numpy as np

from ..index.decisions import SAME, verdicts
from ..index.groups import Group, Pair
from ..index.keys import key_sort
from .spark_search import task_recipe


def components(edges):
    """(key, component id: its component's least key) of every key of ``edges``, an RDD of (a, b)."""
    from pyspark import StorageLevel

    edges = edges.filter(lambda e: e[0] != e[1]).map(lambda e: (max(e), min(e))).distinct()
    edges = edges.persist(StorageLevel.MEMORY_AND_DISK)
    while True:
        after = _small_star(_large_star(edges)).persist(StorageLevel.MEMORY_AND_DISK)
        changed = not (after.subtract(edges).isEmpty() and edges.subtract(after).isEmpty())
        edges.unpersist()
        edges = after
        if not changed:
            break
    # every edge is now (row, its component's least row): the least rows label themselves
    return edges.union(edges.map(lambda e: (e[1], e[1])).distinct())


def _large_star(edges):
    """Each node's larger neighbours linked to the least node of its neighbourhood."""
    def star(kv):
        u, vs = kv
        vs = set(vs)
        m = min(vs | {u})
        return [(v, m) for v in vs if v > u]
    return edges.flatMap(lambda e: [e, (e[1], e[0])]).groupByKey().flatMap(star).distinct()


def _small_star(edges):
    """Each node and its smaller neighbours linked to the least of them."""
    def star(kv):
        u, vs = kv
        vs = set(vs)
        m = min(vs)
        return [(v, m) for v in vs if v != m] + [(u, m)]
    return edges.map(lambda e: (max(e), min(e))).groupByKey().flatMap(star).distinct()


def spark_groups(sc, keyed, pairs, decisions, task: tuple) -> list[Group]:
    """The groups of the verified ``pairs`` (an RDD of (a, b, distance)) after the ``decisions``,
    made in the executors and numbered as Recipe.grouped numbers them; ``keyed``: (key, sketch
    bytes) of every row, ``task``: the search's (dedup.runs.spark_search)."""
    said = verdicts(decisions)
    same = [(a, b) for (a, b), v in said.items() if v == SAME]
    edges = pairs.map(lambda p: (p[0], p[1]))
    if same:
        edges = edges.union(sc.parallelize(same, max(1, sc.defaultParallelism)))
    comp = components(edges)
    decided = sc.broadcast(_by_key(decisions)) if decisions else None
    rows = comp.join(keyed).map(lambda kv: (kv[1][0], (kv[0], kv[1][1])))  # (component, (key, sketch))
    linked = pairs.map(lambda p: (p[0], p)).join(comp).map(lambda kv: (kv[1][1], kv[1][0]))  # (component, pair)
    made = rows.cogroup(linked).flatMap(lambda c: _clustered(task, list(c[1][0]), list(c[1][1]),
                                                             decided.value if decided else {}))
    groups = [Group(0, keys, dist, [Pair(*p) for p in gp]) for keys, dist, gp in made.collect()]
    groups.sort(key=lambda g: key_sort(g.keys[0]))
    for n, g in enumerate(groups, 1):
        g.id = n
    return groups


def _by_key(decisions) -> dict[str, list[tuple[int, object]]]:
    """Key -> the decisions on it, each with its place in the list (the last on a pair counts)."""
    out: dict[str, list[tuple[int, object]]] = {}
    for n, d in enumerate(decisions):
        for k in d.pair:
            out.setdefault(k, []).append((n, d))
    return out


def _clustered(task: tuple, rows: list[tuple[str, bytes]], pairs: list, decided: dict) -> list:
    """A task: one component's groups, as (keys, distances, pairs) tuples."""
    recipe = task_recipe(task)
    sketch_of = dict(rows)
    fps = np.array([np.frombuffer(s, np.uint64, 1)[0] for _k, s in rows], np.uint64)
    mine = [d for _n, d in sorted({n: d for k, _s in rows for n, d in decided.get(k, ())}.items())]
    def sketches(ks):
        return np.vstack([np.frombuffer(sketch_of[k], np.uint64) for k in ks])
    groups = recipe.grouped([k for k, _s in rows], fps, [Pair(a, b, int(d)) for a, b, d in pairs], mine,
                            recipe.centre_check(sketches), recipe.alone_check(sketches),
                            recipe.near_check(sketches), recipe.odd_check(sketches))
    return [(g.keys, g.distances, [(p.a, p.b, p.distance) for p in g.pairs]) for g in groups]

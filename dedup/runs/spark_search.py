"""The Spark run's search: the verified pairs and every row's block entries, made in the executors.

Rows with identical sketches are linked to the lowest-key one (as dedup.index.pairs.distinct_rows);
each distinct sketch is named once (Recipe.block_names, the learned recipe handed to the tasks in
``task``), its lowest-key row is exploded into its block names, grouped by name, and each bucket,
its members in key order, makes the pairs the local search makes in it (``bucket_pairs``: the
anchored-bucket rule of match.anchors) and verifies them (Recipe.verify). The same buckets file
the block entries as Recipe.block_entries does for the whole table: a bucket's first
``anchors`` distinct rows under the name, the others (and every copy of a distinct row) under the
ANCHORLESS name. The entries stay in Spark (the executors stage them into the store); only the
pairs reach the driver.
"""

from __future__ import annotations

import numpy as np

from ..index.anchors import ANCHORLESS
from ..index.keys import key_sort
from .recipe import Recipe

PAIR, ENTRY = 0, 1  # tags of ``searched``'s records


def searched(keyed, task: tuple):
    """From an RDD of (key, sketch bytes): an RDD of (PAIR, (lower key, higher key, distance,
    fingerprint of each)) for the verified pairs (a pair may come from several buckets) and
    (ENTRY, (block name, key, fingerprint)) for the block entries of every row."""
    by_sketch = keyed.map(lambda kv: (kv[1], kv[0])).groupByKey()
    named = by_sketch.mapPartitions(lambda it: _named(task, list(it)))
    around = named.flatMap(lambda g: _around(task, g))
    reps = named.flatMap(lambda g: [(name, (g[1][0], g[0])) for name in g[2]])
    found = reps.groupByKey().flatMap(lambda nm: _bucket(task, nm[0], list(nm[1])))
    return around.union(found)


_RECIPES: dict = {}  # in a Python worker: the last run's recipe, made once, not per bucket


def task_recipe(task: tuple) -> Recipe:
    token, config, table, learned_fields, _width = task
    if token not in _RECIPES:
        _RECIPES.clear()
        _RECIPES[token] = Recipe.of(config, table).using(learned_fields)
    return _RECIPES[token]


def _matrix(task: tuple, sketches: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(sketches), np.uint64).reshape(len(sketches), task[-1])


def _named(task: tuple, groups: list) -> list:
    """(sketch, its keys in key order, its block names) of each distinct sketch."""
    if not groups:
        return []
    names = task_recipe(task).block_names(_matrix(task, [s for s, _ in groups]))
    return [(s, sorted(keys, key=key_sort), row_names) for (s, keys), row_names in zip(groups, names)]


def _around(task: tuple, group: tuple) -> list:
    """A distinct sketch's rows: each copy paired with the lowest-key row at distance 0, and the
    entries the buckets do not decide (every row's, or without anchors only the copies', all
    under the ANCHORLESS name: a copy is never an anchor)."""
    sketch, keys, names = group
    fp = int(np.frombuffer(sketch, np.uint64, 1)[0])
    out: list = [(PAIR, (keys[0], k, 0, fp, fp)) for k in keys[1:]]
    if task_recipe(task).anchored:
        out += [(ENTRY, (n + ANCHORLESS, k, fp)) for k in keys[1:] for n in names]
    else:
        out += [(ENTRY, (n, k, fp)) for k in keys for n in names]
    return out


def _bucket(task: tuple, name: str, members: list[tuple[str, bytes]]) -> list:
    """A bucket's verified pairs, and with anchors its members' entries."""
    recipe = task_recipe(task)
    members.sort(key=lambda m: key_sort(m[0]))
    sk = _matrix(task, [s for _k, s in members])
    fps = sk[:, 0].tolist()
    out: list = []
    if recipe.anchored:
        first = recipe.method.anchors
        out += [(ENTRY, (name if r < first else name + ANCHORLESS, k, fps[r])) for r, (k, _s) in enumerate(members)]
    if len(members) < 2:
        return out
    i, j, dist = bucket_pairs(recipe, sk)
    if len(i) and recipe.method.verifies:
        keep = recipe.method.verify_pairs(sk, i, j)
        i, j, dist = i[keep], j[keep], dist[keep]
    out += [(PAIR, (members[a][0], members[b][0], d, fps[a], fps[b]))
            for a, b, d in zip(i.tolist(), j.tolist(), dist.tolist())]
    return out


def bucket_pairs(recipe: Recipe, sk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index pairs (i < j) and fingerprint distances among one bucket's distinct sketches (in key
    order) that the local search makes in this bucket (the method's ``bucket_pairs``: pairs within
    reach of the SimHash blocks, or for key methods every pair whose lower row is among the
    bucket's first match.anchors rows)."""
    return recipe.method.bucket_pairs(recipe.matrix(sk))

"""`dedup full --engine spark`: the full run on Apache Spark, with exactly the local run's groups.

The work is the local run's, cut where it parallelises, and every step calls the code the local
run calls (dedup.runs.stages.read_rows, Recipe.sketch / block_names / verify, key_pairs), so the
two cannot drift apart:

1. The driver cuts the table's keys into ranges of about equal rows (``Source.split_keys``); each
   Spark task reads its range with the keyset reader and featurises and sketches it (``read_part``).
   With IDF the tasks first count their terms' documents, the driver adds the counts up, and the
   tasks sketch with the table's TermModel.
2. The driver collects keys and sketches (they go to the store from there) and learns what a
   record recipe learns from the whole table.
3. Candidates in Spark: rows with identical sketches are linked to the lowest-key one (as
   ``distinct_rows``), the distinct ones are exploded into their block names, grouped by name, and
   each bucket, its members in key order, makes the pairs the local search makes in it
   (``bucket_pairs``: the anchored-bucket rule of match.anchors) and verifies them.
4. The verified pairs are collected; groups, block entries and the store write are the local
   run's (dedup.runs.full.store_full), so the store is the one a local full run leaves, version
   stamp included, and the next local ``dedup incremental`` goes on from it.

Limits: the driver holds every row's key, sketch and block entries while it writes the store (as
a local run does); the tasks read the source directly, so executors need its driver and network.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from ..config.model import Config
from ..db.source import Source
from ..index.keys import key_sort
from ..index.minhash import key_pairs
from ..store import Skipped
from ..text.terms import TermModel
from ..index.groups import Pair
from ..index.pairs import VERIFY_CHUNK
from .full import FullResult, learned, store_full
from .locking import table_run
from .recipe import Recipe, fingerprints_of
from .stages import NULL_KEY, Rows, read_rows

log = logging.getLogger(__name__)
DEFAULT_PARTITIONS = 0  # 0: two a core of the Spark context (defaultParallelism * 2)


@dataclass
class Part:
    """One key range's rows, as a task read them."""

    index: int
    rows: Rows
    sketches: np.ndarray | None = None


def spark_session(master: str | None = None):
    """The active Spark session, or a new one on ``master``, else $DEDUP_SPARK_MASTER, else the
    master of $PYSPARK_SUBMIT_ARGS (``--master ...``), else local[*]. A local master binds the
    driver to the loopback address."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors run this interpreter
    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active
    builder = SparkSession.builder.appName("dedup").config("spark.ui.showConsoleProgress", "false")
    master = master or os.environ.get("DEDUP_SPARK_MASTER") or (
        None if "--master" in os.environ.get("PYSPARK_SUBMIT_ARGS", "") else "local[*]")
    if master is not None:
        builder = builder.master(master)
    if master is not None and master.startswith("local"):
        builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
    return builder.getOrCreate()


def run_full_spark(config: Config, table: str | None = None, spark=None, partitions: int = DEFAULT_PARTITIONS,
                   master: str | None = None) -> FullResult:
    """A full run on Spark; the result and the store are those of ``dedup.runs.full.run_full``."""
    recipe = Recipe.of(config, table)
    started = time.perf_counter()
    spark = spark or spark_session(master)
    sc = spark.sparkContext
    with table_run(config, recipe.table, "full") as (source, store, run):
        cuts = source.split_keys(partitions or 2 * sc.defaultParallelism)
        ranges = list(enumerate(zip([None, *cuts], [*cuts, None])))
        tname, token = recipe.table.name, uuid.uuid4().hex
        parts = sc.parallelize(ranges, len(ranges)).map(lambda r: read_part(config, tname, *r))
        terms, featured = None, parts
        if recipe.idf:  # the term counts of the whole table first: the features are kept for the sketches
            featured = parts.cache()
            terms = merged_terms(featured.map(lambda p: TermModel.learn(p.rows.features)).collect())
        parts = featured.map(lambda p: _slim(sketched(config, tname, p, terms))).cache()
        rows, sketches, drop = merged_rows(sorted(parts.collect(), key=lambda p: p.index), recipe)
        featured.unpersist()
        log.debug("%s: %d rows read and sketched in %d key ranges, %.1f s", tname, rows.rows_read, len(ranges),
                  time.perf_counter() - started)
        recipe = learned(recipe, sketches)
        keyed = parts.flatMap(lambda p: [(k, p.sketches[i].tobytes()) for i, k in enumerate(p.rows.keys)
                                         if k not in drop])
        task = (token, config, tname, recipe.learned, sketches.shape[1])
        pairs = [Pair(a, b, int(d)) for a, b, d in candidate_pairs(keyed, task).collect()]
        parts.unpersist()
        log.debug("%s: %d verified pairs, %.1f s", tname, len(pairs), time.perf_counter() - started)
        decisions = store.decisions(recipe.table.name)
        groups = recipe.grouped(rows.keys, fingerprints_of(sketches, len(rows.keys)), pairs, decisions)
        return store_full(store, run, recipe, rows, terms, sketches, groups, started, decisions)


def read_part(config: Config, table: str, index: int, bounds: tuple) -> Part:
    """A task: read one key range with the keyset reader and featurise it (dedup.runs.stages)."""
    recipe = Recipe.of(config, table)
    with Source(config.source_url, recipe.table, config.batch_size) as source:
        source.within(*bounds)
        rows = read_rows(source, recipe)
    return Part(index, rows)


def sketched(config: Config, table: str, part: Part, terms: TermModel | None) -> Part:
    """A task: the part's sketches (Recipe.sketch, with the table's term counts under IDF)."""
    return replace(part, sketches=Recipe.of(config, table).sketch(part.rows.features, terms))


def _slim(part: Part) -> Part:
    """The part without its features (the driver needs keys and sketches only)."""
    return replace(part, rows=replace(part.rows, features=None))


def merged_terms(models: list[TermModel]) -> TermModel:
    """The document counts of the whole table from those of its parts (TermModel.learn of all rows)."""
    hashes = np.concatenate([m.hashes for m in models]) if models else np.empty(0, np.uint64)
    counts = np.concatenate([m.counts for m in models]) if models else np.empty(0, np.int64)
    uniq, where = np.unique(hashes, return_inverse=True)
    return TermModel(sum(m.documents for m in models), uniq, np.bincount(where, counts, len(uniq)).astype(np.int64))


def merged_rows(parts: list[Part], recipe: Recipe) -> tuple[Rows, np.ndarray, set[str]]:
    """One Rows (in key order, as one read gives), the sketches and the keys left out, of the
    parts read in key order.

    Every part counted the table's NULL keys: they are recorded once. A key text that two parts
    read (SQLite's 1 and '1' sort apart) is set aside as a duplicate, as one read would."""
    keys = [k for p in parts for k in p.rows.keys]
    sketches = np.vstack([p.sketches for p in parts]) if keys else np.empty((0, recipe.width), np.uint64)
    skipped = [s for p in parts for s in p.rows.skipped if s.reason != "null_key"]
    nulls = [s for p in parts for s in p.rows.skipped if s.reason == "null_key"]
    if nulls:
        skipped.append(max(nulls, key=lambda s: len(s.detail or "")))
        keys_ok = [k != NULL_KEY for k in keys]
    else:
        keys_ok = [True] * len(keys)
    twice = {k for k, n in Counter(keys).items() if n > 1}
    if twice:
        skipped = [s for s in skipped if s.key not in twice]
        skipped += [Skipped(k, "duplicate_key", f"{Counter(keys)[k]} rows have this key: none of them is fingerprinted")
                    for k in sorted(twice, key=key_sort)]
    keep = np.array([ok and k not in twice for k, ok in zip(keys, keys_ok)], dtype=bool)
    if not keep.all():
        keys, sketches = [k for k, ok in zip(keys, keep) if ok], sketches[keep]
    marks = [p.rows.watermark for p in parts if p.rows.watermark is not None]
    kept = set(keys)
    rows = Rows(keys, None, skipped, sum(p.rows.rows_read for p in parts), _furthest_mark(marks),
                sum(p.rows.truncated for p in parts), 0, parts[0].rows.null_keys if parts else 0,
                row_watermarks={k: w for p in parts for k, w in p.rows.row_watermarks.items() if k in kept})
    return rows, sketches, twice | ({NULL_KEY} if nulls else set())


def _furthest_mark(marks: list[dict]) -> dict | None:
    """The furthest (watermark, key) position of the parts' (each the furthest of its range)."""
    from ..db.watermark import watermark_from_json

    best = None
    for m in marks:
        try:
            if best is None or (watermark_from_json(m), m["key"]) > (watermark_from_json(best), best["key"]):
                best = m
        except TypeError:  # values of two types in one column (SQLite): the first type's order counts
            continue
    return best


def candidate_pairs(keyed, task: tuple):
    """The verified pairs (lower key, higher key, distance) of the rows ``keyed`` (an RDD of
    (key, sketch bytes)), as an RDD (the module doc, step 3)."""
    by_sketch = keyed.map(lambda kv: (kv[1], kv[0])).groupByKey().mapValues(lambda ks: sorted(ks, key=key_sort))
    copies = by_sketch.flatMap(lambda sv: [(sv[1][0], k, 0) for k in sv[1][1:]])
    reps = by_sketch.map(lambda sv: (sv[1][0], sv[0]))
    named = reps.mapPartitions(lambda it: _named(task, list(it)))
    found = named.groupByKey().mapPartitions(lambda it: (p for _name, ms in it for p in _bucket(task, list(ms))))
    return copies.union(found).distinct()


_RECIPES: dict = {}  # in a Python worker: the last run's recipe, made once, not per bucket


def _recipe(task: tuple) -> Recipe:
    token, config, table, learned_fields, _width = task
    if token not in _RECIPES:
        _RECIPES.clear()
        _RECIPES[token] = Recipe.of(config, table).using(learned_fields)
    return _RECIPES[token]


def _matrix(task: tuple, rows: list[tuple[str, bytes]]) -> np.ndarray:
    return np.frombuffer(b"".join(s for _k, s in rows), np.uint64).reshape(len(rows), task[-1])


def _named(task: tuple, reps: list[tuple[str, bytes]]) -> list:
    """(block name, (key, sketch)) of each distinct sketch's lowest-key row (Recipe.block_names)."""
    if not reps:
        return []
    names = _recipe(task).block_names(_matrix(task, reps))
    return [(name, rep) for rep, row_names in zip(reps, names) for name in row_names]


def _bucket(task: tuple, members: list[tuple[str, bytes]]) -> list:
    """The verified pairs (lower key, higher key, distance) a bucket's members make."""
    if len(members) < 2:
        return []
    recipe = _recipe(task)
    members.sort(key=lambda m: key_sort(m[0]))
    sk = _matrix(task, members)
    i, j, dist = bucket_pairs(recipe, sk)
    if len(i) and recipe.verifier is not None:
        keep = np.concatenate([recipe.verify(sk[i[lo:lo + VERIFY_CHUNK]], sk[j[lo:lo + VERIFY_CHUNK]])
                               for lo in range(0, len(i), VERIFY_CHUNK)])
        i, j, dist = i[keep], j[keep], dist[keep]
    return [(members[a][0], members[b][0], d) for a, b, d in zip(i.tolist(), j.tolist(), dist.tolist())]


def bucket_pairs(recipe: Recipe, sk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index pairs (i < j) and fingerprint distances among one bucket's distinct sketches (in key
    order) that the local search makes in this bucket: pairs within reach of the SimHash blocks
    (Recipe.near on the members), or for key schemes every pair whose lower row is among the
    bucket's first match.anchors rows (key_pairs on the one shared key)."""
    if recipe.scheme is None:
        return recipe.near(sk)
    anchors = recipe.scheme.anchors if recipe.anchored else None
    i, j = key_pairs(np.ones((len(sk), 1), np.uint64), anchors)
    return i, j, np.bitwise_count(sk[i, 0] ^ sk[j, 0]).astype(np.int64)

"""`dedup full --engine spark`: the full run on Apache Spark, with exactly the local run's groups and store.

The work is the local run's, cut where it parallelises, and every step calls the code the local
run calls (dedup.runs.stages.read_rows, Recipe.sketch / block_names / verify, the store's bulk
writes), so the two cannot drift apart. No row passes through the driver:

1. The driver cuts the table's keys into ranges of about equal rows (``Source.split_keys``); each
   Spark task reads its range with the keyset reader and featurises and sketches it
   (dedup.runs.spark_parts). What the sketches weigh by is learned from the whole table first
   (dedup.runs.spark_learn): with IDF the tasks count their terms' documents and the driver adds
   the counts up; a text table's common content features and identity values (match.common_share,
   the shipped default) are counted in the tasks and added up in a shuffle, only the common ones
   reaching the driver. The driver collects a PartInfo a range (counts, the furthest watermark,
   the rows set aside) and the keys two ranges both read (a shuffle of the keys); a record
   recipe's learning (Recipe.learn) gets the signature words of every row, collected for it.
2. The executors stage their rows into the store themselves (dedup.runs.spark_stage:
   Store.stage_rows, fingerprints with sketches and row watermarks, and skipped rows).
3. Candidates in Spark (dedup.runs.spark_search): identical sketches linked to the lowest-key
   row, the distinct ones named with the learned recipe and grouped by block name; each bucket
   makes and verifies the pairs the local search makes in it and files its rows' block entries,
   which the executors stage too (Store.stage_blocks).
4. The groups in Spark (dedup.runs.spark_groups): the connected components of the verified pairs
   and "same" decisions (large-star / small-star rounds), each clustered in an executor with its
   rows' sketches by the local run's code (Recipe.grouped). The driver collects the groups (keys,
   distances, pairs), gives them stable ids (dedup.runs.full.settle_groups) and swaps the staging
   in with groups, run history, terms and state in one step (Store.replace_table_staged): the
   store is the one a local full run leaves, version stamp included, and the next local
   ``dedup incremental`` goes on from it. A run that fails before the swap leaves the previous
   results in place; the next run deletes what it staged.

Limits: the driver holds the groups and the stored groups (lineage), the decisions, and the
records of skipped rows; with IDF the term counts of every key range (a range's distinct terms,
not its rows) and the table's; the common content features and identity values (few: those in
more than match.common_share of the rows); a record table's learning (``fingerprint: fields``)
collects every row's signature words. Everything else a row has stays in the executors, but one
executor holds a whole connected component's rows and sketches (a mass petition of 50,000
copies: one component). The tasks read the source and write the store directly, so executors
need both drivers and network access to both, and must import the same dedup as the driver (a
cluster's workers: install it there, or ``spark.executorEnv.PYTHONPATH`` / ``--py-files``).
A MongoDB store is swapped without a transaction (as a local full run): a run that fails during
the swap is repaired by running it again; a task re-run as part of a re-attempted Spark stage
(not a task retry) would double the MongoDB block documents it staged.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import uuid

import numpy as np

from ..config.model import Config
from .lineage import counts
from .featurise import learned
from .full import finish_full, settle_groups, snapshot
from .locking import table_run
from .recipe import Recipe
from .results import FullResult
from .spark_groups import spark_groups
from .spark_learn import learned_parts
from .spark_parts import Part, info_of, kept, merged, read_part, repeated_keys, sketched
from .spark_search import ENTRY, PAIR, searched
from .spark_stage import stage_entries, stage_part

log = logging.getLogger(__name__)
DEFAULT_PARTITIONS = 0  # 0: two a core of the Spark context (defaultParallelism * 2)


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
    """A full run on Spark; the groups and the store are those of ``dedup.runs.full.run_full``
    (the result holds no per-row data: ``keys`` and ``sketches`` are empty, ``fingerprinted``
    counts the rows)."""
    recipe = Recipe.of(config, table)
    started = time.perf_counter()
    spark = spark or spark_session(master)
    sc = spark.sparkContext
    with table_run(config, recipe.table, "full") as (source, store, run):
        tname = recipe.table.name
        parts, recipe, terms, got, width = _sketched_parts(sc, config, recipe, source.split_keys(
            partitions or 2 * sc.defaultParallelism), started)
        if recipe.learns:
            recipe = learned(recipe, signature_rows(parts, got.drop, recipe.words, width))
        store.begin_staging(tname, run.id)
        keyed, found, task = _staged_and_searched(parts, store, config, recipe, run.id, got, width, started)
        decisions = store.decisions(tname)
        pairs = found.filter(lambda t: t[0] == PAIR).map(lambda t: t[1][:3]).distinct()
        groups = spark_groups(sc, keyed, pairs, decisions, task)
        found.unpersist()
        parts.unpersist()
        log.debug("%s: %d groups made in the executors, %.1f s", tname, len(groups), time.perf_counter() - started)
        changes, rows_left = settle_groups(store, run, tname, groups)
        store.replace_table_staged(snapshot(run, recipe, terms, groups, changes, got.extra, got.rows.watermark))
        log.debug("%s: %d groups, staging swapped in, %.1f s", tname, len(groups), time.perf_counter() - started)
        r = got.rows
        result = FullResult(table=tname, terms=terms, groups=groups, skipped=r.skipped, rows_read=r.rows_read,
                            watermark=r.watermark, seconds=time.perf_counter() - started, truncated=r.truncated,
                            null_keys=r.null_keys, run_id=run.id, changes=counts(changes, rows_left),
                            truncated_rows=r.truncated_rows, fingerprinted=got.fingerprinted)
        return finish_full(store, run, result, decisions, limits=config.groups)


def _sketched_parts(sc, config: Config, recipe: Recipe, cuts: list, started: float):
    """Step 1: the key ranges read and sketched in the executors (an RDD of Parts, persisted), the
    recipe with what the table shares and its term counts under IDF (dedup.runs.spark_learn), the
    parts merged as one read (Merged) and the sketches' width."""
    from pyspark import StorageLevel

    ranges = list(enumerate(zip([None, *cuts], [*cuts, None])))
    tname = recipe.table.name
    parts = sc.parallelize(ranges, len(ranges)).map(lambda r: read_part(config, tname, *r))
    terms, featured, repeats = None, parts, None
    if recipe.idf or recipe.method.learns_content:  # learned from the whole table first: the features are kept
        featured = parts.persist(StorageLevel.MEMORY_AND_DISK)
        repeats = repeated_keys(featured)
        recipe, terms = learned_parts(featured, recipe, {k for k, n in repeats.items() if n > 1})
    content = (recipe.content_model, recipe.identity_model)
    parts = featured.map(lambda p: sketched(config, tname, p, terms, content)).persist(StorageLevel.MEMORY_AND_DISK)
    infos = parts.map(info_of).collect()
    featured.unpersist()
    got = merged(infos, repeats if repeats is not None else repeated_keys(parts))
    log.debug("%s: %d rows read and sketched in %d key ranges, %.1f s", tname, got.rows.rows_read, len(ranges),
              time.perf_counter() - started)
    return parts, recipe, terms, got, max((i.width for i in infos), default=recipe.width)


def _staged_and_searched(parts, store, config: Config, recipe: Recipe, run_id: int, got, width: int, started: float):
    """Steps 2 and 3: the executors stage the rows and, once the learned recipe names the blocks,
    the entries; the (key, sketch bytes) RDD, the search's records (persisted: its verified pairs
    make the groups) and the search's task."""
    from pyspark import StorageLevel

    tname, token = recipe.table.name, uuid.uuid4().hex
    target = (config.store_url, config.bucket_size, tname, run_id)
    drop, twice = got.drop, got.twice
    parts.foreach(lambda p: stage_part(target, p, drop, twice))
    keyed = parts.flatMap(lambda p: keyed_rows(p, drop))
    task = (token, config, tname, recipe.learned, width)
    found = searched(keyed, task).persist(StorageLevel.MEMORY_AND_DISK)
    entries = found.filter(lambda t: t[0] == ENTRY).map(lambda t: t[1])
    whole = store.whole_blocks
    if whole:
        entries = entries.map(lambda e: (e[0], (e[1], e[2]))).groupByKey()
    entries.foreachPartition(lambda it: stage_entries(target, it, whole))
    log.debug("%s: rows and block entries staged, %.1f s", tname, time.perf_counter() - started)
    return keyed, found, task


def keyed_rows(part: Part, drop: set[str]) -> list[tuple[str, bytes]]:
    """A task: (key, sketch bytes) of the part's rows, the dropped keys left out."""
    keys, sketches, _at = kept(part, drop)
    return [(k, sketches[i].tobytes()) for i, k in enumerate(keys)]


def signature_rows(parts, drop: set[str], words: int, width: int) -> np.ndarray:
    """The sketches of every row for Recipe.learn, with only the signature words collected (the
    SimHash words zero): what a record recipe learns is counted over the whole table's signatures."""
    sigs = parts.map(lambda p: kept(p, drop)[1][:, words:]).collect()
    sig = np.vstack(sigs) if sigs else np.empty((0, width - words), np.uint64)
    return np.hstack([np.zeros((len(sig), words), np.uint64), sig])

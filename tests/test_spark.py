"""`dedup full --engine spark` in Spark local mode (local[2]): the local run's groups, and its store.

Needs PySpark (the `spark` extra) and Java. Without them the tests are skipped with the reason,
except under CI (``CI`` set), where a missing Spark fails the run (.ci/run installs both).
"""

from __future__ import annotations

import dataclasses
import os
import shutil

import numpy as np
import pytest
import sqlalchemy as sa

from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.index.minhash import bucket_sizes
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.recipe import Recipe
from dedup.store import open_store
import helpers
from helpers import delete_rows
import mongo_fixtures
from mongo_fixtures import store_url_of

pytestmark = pytest.mark.slow  # minutes of Spark local mode: `python -m pytest -m slow` (.ci/run runs it)
IN_CI = bool(os.environ.get("CI"))
FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
mongo_live_url = mongo_fixtures.mongo_live_url  # a fixture
BIG_ROWS = 50_000
UNWEIGHTED = {"common_share": 1.0}  # nothing learned of what the table shares (the shipped defaults learn it)
config_for = helpers.config_for  # the shipped defaults: what the table shares is learned in Spark too


def _why_no_spark() -> str | None:
    try:
        import pyspark  # noqa: F401
    except ImportError as e:
        return f"PySpark is not installed (pip install '.[spark]'): {e}"
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        return "no Java runtime (java not on PATH, JAVA_HOME unset; Debian: apt-get install openjdk-17-jre-headless)"
    return None


@pytest.fixture(scope="module")
def spark():
    why = _why_no_spark()
    if why:
        if IN_CI:
            pytest.fail(f"Spark is required in CI: {why}")
        pytest.skip(why)
    from dedup.runs.spark import spark_session

    session = spark_session("local[2]")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def sample_db(tmp_path, rows: int, seed: int = 42, name: str = "src") -> tuple[str, SampleTable]:
    url = f"sqlite:///{tmp_path / f'{name}.db'}"
    sample = generate_petitions(rows, seed=seed)
    write_sample_db(url, sample)
    return url, sample


def configs(tmp_path, source_url: str, **kw):
    """Two configs on one source: the local run's store and the Spark run's."""
    return tuple(config_for(source_url, f"sqlite:///{tmp_path / f'{which}-store.db'}", fields=FIELDS,
                            watermark="updated_at", batch_size=250, **kw) for which in ("local", "spark"))


def groups_of(result) -> list:
    return [(g.keys, g.distances, [(p.a, p.b, p.distance) for p in g.pairs]) for g in result.groups]


def stored(config, names: list[str]) -> dict:
    """What a store holds for the table that a later run reads (run ids and times aside)."""
    store = open_store(config.store_url)
    try:
        state = store.state("petitions")
        fps = store.fingerprints("petitions")
        return {
            "version": state.version, "watermark": state.watermark, "fingerprints": fps,
            "sketches": store.sketches("petitions", list(fps)), "row_watermarks": store.row_watermarks("petitions", list(fps)),
            "groups": [(g.id, g.keys, g.distances, [(p.a, p.b, p.distance) for p in g.pairs])
                       for g in store.groups("petitions")],
            "skipped": sorted((s.key, s.reason) for s in store.skipped("petitions")),
            "blocks": {n: sorted(e) for n, e in store.block_entries("petitions", names).items()},
        }
    finally:
        store.close()


def block_names(config, result) -> list[str]:
    """Every block name the rows of a local result may be filed under (as anchors or not)."""
    recipe = Recipe.of(config, "petitions")
    return sorted(recipe.block_entries(result.keys, result.sketches, every_name=True).by_name())


def run_both(spark, tmp_path, source_url: str, **kw):
    from dedup.runs.spark import run_full_spark

    local_cfg, spark_cfg = configs(tmp_path, source_url, **kw)
    local = run_full(local_cfg, "petitions")
    far = run_full_spark(spark_cfg, "petitions", spark=spark)
    return local_cfg, spark_cfg, local, far


def test_demo_table_same_groups_and_same_store(spark, tmp_path):
    source_url, _ = sample_db(tmp_path, 2000)
    local_cfg, spark_cfg, local, far = run_both(spark, tmp_path, source_url)
    assert len(local.groups) > 50
    assert groups_of(far) == groups_of(local)
    assert far.summary() | {"seconds": 0, "started": ""} == local.summary() | {"seconds": 0, "started": ""}
    assert far.fingerprinted == len(local.keys) and far.keys == []  # the rows stayed in the executors
    names = block_names(local_cfg, local)
    assert stored(spark_cfg, names) == stored(local_cfg, names)


@pytest.mark.parametrize("kw", [
    pytest.param({"match": {"method": "simhash"}}, id="simhash"),
    pytest.param({"text": {"idf": True}}, id="idf"),
    pytest.param({"match": {"anchors": 2}}, id="anchors-2"),
    pytest.param({"match": UNWEIGHTED}, id="nothing-common"),
])
def test_other_recipes_same_groups(spark, tmp_path, kw):
    """The SimHash recipe (Recipe.near in a bucket), IDF (term counts added up over the key ranges)
    and a bucket rule that cuts pairs (2 anchors: buckets of more rows exist here)."""
    source_url, _ = sample_db(tmp_path, 1200, seed=7)
    local_cfg, spark_cfg, local, far = run_both(spark, tmp_path, source_url, **kw)
    if "anchors" in kw.get("match", {}):
        recipe = Recipe.of(local_cfg, "petitions")
        assert bucket_sizes(recipe.scheme.keys(recipe.signatures(local.sketches))).max() > 2
    assert local.groups and groups_of(far) == groups_of(local)
    names = block_names(local_cfg, local)
    assert stored(spark_cfg, names) == stored(local_cfg, names)


def test_spark_store_then_local_incremental_is_local_full_then_incremental(spark, tmp_path):
    source_url, sample = sample_db(tmp_path, 1600, seed=11)
    later = sample.rows[1200:]
    engine = sa.create_engine(source_url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.delete().where(tbl.c.id > 1200))
    local_cfg, spark_cfg, local, far = run_both(spark, tmp_path, source_url)
    assert groups_of(far) == groups_of(local)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), later)
    engine.dispose()
    inc_local = run_incremental(local_cfg, "petitions")
    inc_spark = run_incremental(spark_cfg, "petitions")  # refuses a store of another version stamp
    assert inc_local.summary() | {"seconds": 0, "started": ""} == inc_spark.summary() | {"seconds": 0, "started": ""}
    whole_cfg = config_for(source_url, f"sqlite:///{tmp_path / 'whole-store.db'}", fields=FIELDS,
                           watermark="updated_at")
    whole = run_full(whole_cfg, "petitions")
    names = block_names(whole_cfg, whole)
    after_spark, after_local = stored(spark_cfg, names), stored(local_cfg, names)
    assert after_spark == after_local
    assert len(after_local["groups"]) > len(local.groups)  # the new rows made or joined groups


def test_cli_engine_spark(spark, tmp_path):
    from click.testing import CliRunner

    from dedup.cli import main

    source_url, _ = sample_db(tmp_path, 400)
    local_cfg, spark_cfg = configs(tmp_path, source_url)
    config_file = tmp_path / "dedup.yaml"
    config_file.write_text(
        f"source: {{url: '{source_url}'}}\nstore: {{url: '{spark_cfg.store_url}'}}\n"
        "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n    fields: {name: short, phone: short, "
        "address: short, title: text, content: text}\n", encoding="utf-8")
    got = CliRunner().invoke(main, ["-c", str(config_file), "full", "--engine", "spark", "--partitions", "3"])
    assert got.exit_code == 0, got.output
    local = run_full(local_cfg, "petitions")
    assert f"{len(local.groups)} groups" in got.output
    store = open_store(spark_cfg.store_url)
    try:
        assert [g.keys for g in store.groups("petitions")] == [g.keys for g in local.groups]
    finally:
        store.close()


@pytest.mark.spark_big
def test_generated_table_of_50k_rows_same_groups(spark, tmp_path):
    """The issue's 50,000-row table (minutes on two cores: the local run, then the Spark run)."""
    source_url, _ = sample_db(tmp_path, BIG_ROWS, seed=5)
    _local_cfg, _spark_cfg, local, far = run_both(spark, tmp_path, source_url)
    assert len(local.groups) > 1000
    assert groups_of(far) == groups_of(local)


def test_record_table_same_groups(spark, tmp_path):
    """A record table (fingerprint: fields): what the full run learns from the whole table is
    learned on the driver from the collected sketches and handed to the bucket tasks."""
    from bench.datasets.labelled.persons import FIELDS as PERSON_FIELDS, generate_persons, write_sqlite
    from dedup.config import parse_config
    from dedup.runs.spark import run_full_spark

    db = tmp_path / "persons.sqlite"
    write_sqlite(generate_persons(1500, seed=4), str(db))
    local_cfg, spark_cfg = (parse_config({
        "source": {"url": f"sqlite:///{db}"}, "store": {"url": f"sqlite:///{tmp_path / f'{which}.db'}"},
        "tables": {"persons": {"key": "id", "fingerprint": "fields", "fields": {f: "short" for f in PERSON_FIELDS}}},
    }) for which in ("local", "spark"))
    local = run_full(local_cfg, "persons")
    far = run_full_spark(spark_cfg, "persons", spark=spark)
    assert Recipe.of(local_cfg, "persons").learns and len(local.groups) > 50
    assert groups_of(far) == groups_of(local)
    stores = [open_store(c.store_url) for c in (local_cfg, spark_cfg)]
    try:
        assert stores[0].state("persons").version == stores[1].state("persons").version
        assert stores[0].fingerprints("persons") == stores[1].fingerprints("persons")
    finally:
        for s in stores:
            s.close()


# -- the executors write the store: what the driver receives, a run stopped part way -------------

def collected_by(monkeypatch) -> list:
    """Every list the driver's RDD.collect returns from now on."""
    from pyspark import RDD

    seen: list = []
    original = RDD.collect

    def spy(self):
        out = original(self)
        seen.append(out)
        return out
    monkeypatch.setattr(RDD, "collect", spy)
    return seen


def carried(obj, kinds=(np.ndarray, bytes, bytearray)) -> list:
    """The objects of ``kinds`` anywhere in ``obj`` (a row's sketch travels as an array or bytes)."""
    if isinstance(obj, kinds):
        return [obj]
    if isinstance(obj, dict):
        return [a for kv in obj.items() for x in kv for a in carried(x, kinds)]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [a for x in obj for a in carried(x, kinds)]
    if dataclasses.is_dataclass(obj):
        return [a for f in dataclasses.fields(obj) for a in carried(getattr(obj, f.name), kinds)]
    return []


@pytest.mark.parametrize("clustering", ["star", "components"])
def test_the_driver_receives_no_rows(spark, tmp_path, monkeypatch, clustering):
    """No sketch or fingerprint reaches the driver, and no key but those of grouped or skipped rows
    and the furthest watermark position of each key range: the groups are made in the executors
    (dedup.runs.spark_groups), star clustering's checks too."""
    from dedup.runs.spark import run_full_spark

    source_url, sample = sample_db(tmp_path, 1500, seed=3)
    local_cfg, spark_cfg = configs(tmp_path, source_url, groups={"clustering": clustering})
    seen = collected_by(monkeypatch)
    far = run_full_spark(spark_cfg, "petitions", spark=spark, partitions=4)
    monkeypatch.undo()
    local = run_full(local_cfg, "petitions")
    assert groups_of(far) == groups_of(local) and far.fingerprinted == len(local.keys)
    assert seen and not carried(seen, (bytes, bytearray))  # a row's sketch travels as bytes
    fps = {int(v) for v in local.sketches[:, 0].tolist()}
    values = {int(v) for a in carried(seen, np.ndarray) for v in a.ravel().tolist()}  # the common features' hashes
    assert not fps & (values | set(carried(seen, int)))  # nor any row's fingerprint
    every_key = set(local.keys)
    keys_seen = {s for s in carried(seen, str) if s in every_key}
    told = {k for g in local.groups for k in g.keys} | {s.key for s in local.skipped}
    assert len(keys_seen - told) <= 4 < len(every_key - told)


def spark_and_twin(tmp_path, source_url: str, store_url: str):
    """A config on ``store_url`` and its twin on a SQLite store that only local runs fill."""
    return tuple(config_for(source_url, url, fields=FIELDS, watermark="updated_at", batch_size=250)
                 for url in (store_url, f"sqlite:///{tmp_path / 'twin-store.db'}"))


@pytest.mark.parametrize("kind", ["sqlite", "mongo_live"])
def test_a_stopped_spark_run_keeps_the_previous_results_and_the_next_run_succeeds(spark, tmp_path, kind, request,
                                                                                  monkeypatch):
    """Stopped after the executors staged (SQLite and MongoDB) or inside the swap (SQL: one
    transaction): the store holds the previous run's results; the next run cleans the staging
    up and stores what a local run does (the twin store)."""
    from dedup.runs.spark import run_full_spark
    from dedup.store.model import staging_name

    source_url, sample = sample_db(tmp_path, 1000, seed=9)
    delete_rows(source_url, *range(801, 1001))
    cfg, twin = spark_and_twin(tmp_path, source_url, store_url_of(kind, request, tmp_path, monkeypatch))
    run_full(cfg, "petitions")
    run_full(twin, "petitions")
    _append(source_url, sample.rows[800:])
    whole = run_full(twin, "petitions")
    names = block_names(twin, whole)
    before = stored(cfg, names)
    probe = open_store(cfg.store_url)
    store_class = type(probe)
    probe.close()

    def stop(*_a, **_k):
        raise RuntimeError("the driver was stopped")
    points = ["after staging"] + (["inside the swap"] if kind == "sqlite" else [])
    for point in points:
        with monkeypatch.context() as m:
            m.setattr(*((store_class, "replace_table_staged", stop) if point == "after staging"
                        else ("dedup.store.sql_write.set_state", stop)))
            with pytest.raises(RuntimeError, match="stopped"):
                run_full_spark(cfg, "petitions", spark=spark)
        assert stored(cfg, names) == before, point
    store = open_store(cfg.store_url)
    try:
        stopped = [r.id for r in store.runs("petitions") if r.status == "failed"]
        # each run deletes what earlier stopped ones staged: the last one's rows are still there
        assert len(stopped) == len(points) and store.count_keys(staging_name("petitions", max(stopped))) > 0
    finally:
        store.close()
    far = run_full_spark(cfg, "petitions", spark=spark)
    assert groups_of(far) == groups_of(whole)
    assert stored(cfg, names) == stored(twin, names)
    store = open_store(cfg.store_url)
    try:
        assert not any(store.count_keys(staging_name("petitions", i)) for i in [*stopped, far.run_id])
    finally:
        store.close()


def _append(source_url: str, rows: list[dict]) -> None:
    engine = sa.create_engine(source_url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), rows)
    engine.dispose()


def test_spark_into_a_postgresql_store(spark, tmp_path, postgres_url):
    from dedup.runs.spark import run_full_spark

    source_url, _ = sample_db(tmp_path, 1200, seed=13)
    local_cfg, pg_cfg = (config_for(source_url, url, fields=FIELDS, watermark="updated_at", batch_size=250)
                         for url in (f"sqlite:///{tmp_path / 'local-store.db'}", postgres_url))
    local = run_full(local_cfg, "petitions")
    far = run_full_spark(pg_cfg, "petitions", spark=spark)
    assert len(local.groups) > 20 and groups_of(far) == groups_of(local)
    names = block_names(local_cfg, local)
    assert stored(pg_cfg, names) == stored(local_cfg, names)


def test_decisions_are_applied_as_the_local_run_applies_them(spark, tmp_path):
    """A 'same' decision joins two rows no pair links (their fingerprints come from the executors)
    and a 'different' one cuts a pair; both runs group alike and mark them applied."""
    from dedup.index.decisions import Decision
    from dedup.runs.spark import run_full_spark

    source_url, _ = sample_db(tmp_path, 800, seed=21)
    local_cfg, spark_cfg = configs(tmp_path, source_url)
    first = run_full(local_cfg, "petitions")
    grouped = {k for g in first.groups for k in g.keys}
    alone = [k for k in first.keys if k not in grouped][:2]
    cut = next(g.pairs[0] for g in first.groups if g.size == 2)
    decisions = [Decision(*alone, "same"), Decision(cut.a, cut.b, "different")]
    for cfg in (local_cfg, spark_cfg):
        store = open_store(cfg.store_url)
        store.put_decisions("petitions", decisions)
        store.close()
    local = run_full(local_cfg, "petitions")
    far = run_full_spark(spark_cfg, "petitions", spark=spark)
    assert sorted(groups_of(far)) == sorted(groups_of(local))  # in id order: the local store's ids are older
    assert sorted(alone, key=int) in [g.keys for g in far.groups]
    assert not any({cut.a, cut.b} <= set(g.keys) for g in far.groups)
    store = open_store(spark_cfg.store_url)
    try:
        assert not store.decisions("petitions", pending=True)
    finally:
        store.close()


def stored_terms(config) -> dict[int, int]:
    """Every term count a SQLite store keeps for the table (IDF terms and common features, salted)."""
    engine = sa.create_engine(config.store_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT term_hash, doc_count FROM dedup_term_counts WHERE table_name = 'petitions'"))
            return {int(h) & 0xFFFF_FFFF_FFFF_FFFF: int(n) for h, n in rows}
    finally:
        engine.dispose()


@pytest.mark.parametrize("kw", [
    pytest.param({}, id="defaults"),
    pytest.param({"text": {"idf": True}, "match": {"common_rows": 3}}, id="idf-and-more-common"),
])
def test_what_the_table_shares_is_learned_as_the_local_run_learns_it(spark, tmp_path, kw):
    """At the shipped defaults (match.common_share < 1) the executors count the content features
    and identity values and a shuffle adds them up: the common ones, their counts, the version
    stamp's rows and so the sketches, groups and store are the local run's. Rows are appended
    that repeat a stock sentence and a common name, so that features below the bar in every key
    range are above it in the table."""
    from dedup.db.source import Source
    from dedup.runs.featurise import featurise_table
    from dedup.runs.spark import run_full_spark

    source_url, sample = sample_db(tmp_path, 1500, seed=17)
    stock = "本人反映的问题至今没有得到解决，请有关部门尽快调查处理并给予答复。"
    shared = [dict(r, id=5000 + i, name="王伟", content=f"{r['content']}{stock}") for i, r in
              enumerate(sample.rows[::40])]  # spread over every key range, about 38 rows
    _append(source_url, shared)
    local_cfg, spark_cfg = configs(tmp_path, source_url, **kw)
    local = run_full(local_cfg, "petitions")
    far = run_full_spark(spark_cfg, "petitions", spark=spark, partitions=5)
    with Source(local_cfg.source_url, local_cfg.tables["petitions"], 250) as source:
        learned = featurise_table(source, Recipe.of(local_cfg, "petitions")).recipe
    content, identity = learned.content_model, learned.identity_model
    assert len(content.hashes) > 10 and len(identity.hashes) >= 1  # the stock sentence's n-grams, the name
    terms = stored_terms(local_cfg)
    assert {int(h) for h in np.concatenate([content.kept()[0], identity.kept()[0]])} <= set(terms)
    assert stored_terms(spark_cfg) == terms
    assert groups_of(far) == groups_of(local)
    names = block_names(local_cfg, local)
    got, want = stored(spark_cfg, names), stored(local_cfg, names)
    assert want["version"]["learned"]["content_documents"] == len(local.keys)
    assert got == want


def test_connected_components_in_spark_are_those_of_union_find(spark):
    """Large-star / small-star rounds (dedup.runs.spark_groups.components) on a long chain whose
    least key is in the middle, a star, a cycle, a lone pair and a self-loop: every key labelled
    with its component's least key."""
    import random

    from dedup.index.groups import UnionFind
    from dedup.runs.spark_groups import components

    chain = [f"c{i:03d}" for i in range(120)]
    chain = chain[60:] + chain[:60]  # the least key half way along the chain
    edges = list(zip(chain, chain[1:])) + [("s00", f"s{i:02d}") for i in range(1, 30)]
    edges += [("y1", "y2"), ("y2", "y3"), ("y3", "y1"), ("p1", "p2"), ("z", "z")]
    random.Random(3).shuffle(edges)
    uf = UnionFind()
    for a, b in edges:
        uf.union(a, b)
    want = {k: min(c) for c in uf.components() for k in c if len(c) > 1}
    labelled = components(spark.sparkContext.parallelize(edges, 4)).collect()
    assert dict(labelled) == want and len(labelled) == len(want)  # one label a key

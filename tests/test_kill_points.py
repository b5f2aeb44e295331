"""Randomized kill points (issue 27): `migrate`, a first `full` on an empty store, `full` (its main
process, a featurising worker, the store writer), `incremental`, `incremental --reconcile` and
`decide`, each killed at random moments on SQLite, PostgreSQL, MariaDB and MongoDB; after each kill the same
command run again leaves exactly the groups, group ids, rows and decisions of a run never killed.

``DEDUP_KILL_SEED`` replays a seed (each run prints its own), ``DEDUP_KILL_POINTS`` sets how many
kills must land per store (50; PostgreSQL 20, see its test). The MongoDB store is the live server of DEDUP_TEST_MONGO_URI
(SecantusDB in CI); mongomock cannot be shared with another process.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import sys
from collections import Counter

import pytest
import sqlalchemy as sa

from dedup.demo.generator import generate_petitions, write_sample_db
from kill_points import (MariadbStore, MongoStore, PostgresStore, Scenario, SqliteStore, differences, kill_once,
                         run_in_process, store_state, timed_run)
from mongo_fixtures import mongo_live_url  # noqa: F401  (the live server's fixture)

pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

POINTS = int(os.environ.get("DEDUP_KILL_POINTS", "50"))
TABLE = "petitions"


def _sources(root) -> None:
    """src0.db: 400 petitions; src1.db: the same table a day later (rows added, edited, deleted)."""
    write_sample_db(f"sqlite:///{root / 'src0.db'}", generate_petitions(400, seed=11))
    shutil.copyfile(root / "src0.db", root / "src1.db")
    engine = sa.create_engine(f"sqlite:///{root / 'src1.db'}")
    later = dt.datetime(2031, 1, 1)
    with engine.begin() as c:
        rows = c.execute(sa.text("SELECT * FROM petitions ORDER BY id")).mappings().all()
        for i, row in enumerate(rows[:40]):  # refiled with an extra sentence: near-duplicates of old rows
            c.execute(sa.text("INSERT INTO petitions (id, name, phone, address, category, title, content, updated_at) "
                              "VALUES (:id, :name, :phone, :address, :category, :title, :content, :updated_at)"),
                      {**row, "id": 1000 + i, "content": row["content"] + "请尽快处理。",
                       "updated_at": later + dt.timedelta(minutes=i)})
        for i, row in enumerate(rows[100:110]):  # edited
            c.execute(sa.text("UPDATE petitions SET content = :c, updated_at = :u WHERE id = :id"),
                      {"c": "内容已更正：" + row["content"][::-1], "u": later + dt.timedelta(hours=2, minutes=i),
                       "id": row["id"]})
        c.execute(sa.text("DELETE FROM petitions WHERE id IN (SELECT id FROM petitions WHERE id > 200 AND id < 400 "
                          "ORDER BY id LIMIT 12)"))
    engine.dispose()


def _config(root, store_url: str):
    path = root / "dedup.yaml"
    path.write_text(
        'source: {url: "sqlite:///%s", batch_size: 50}\nstore: {url: "%s"}\ntext: {workers: 2}\n'
        "tables: {petitions: {key: id, watermark: updated_at,\n"
        "  fields: {name: short, phone: short, address: short, title: text, content: text}}}\n"
        % (root / "src.db", store_url), encoding="utf-8")
    return path


def _use_source(root, name: str) -> None:
    shutil.copyfile(root / f"{name}.db", root / "src.db")


def _old_schema(store) -> None:
    """The saved state after a full run, with the schema an older dedup left (so `migrate` has work)."""
    if store.name == "mongo":
        store.client[store.db]["dedup_meta"].update_one({"_id": "schema"}, {"$set": {"version": 4}})
        return
    from alembic import command

    from dedup.store.sql_migrate import _alembic_config

    engine = sa.create_engine(store.url)
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0005")
    engine.dispose()


def _prepare(root, store) -> tuple:
    """The saved states and the scenarios, each with its reference (the command run unkilled)."""
    _sources(root)
    config = _config(root, store.url)
    store.blank()
    _use_source(root, "src0")
    run_in_process(config, ["full", "-q"])
    store.save("full0")
    startup = timed_run(config, ["report", "-f", "json"])  # a kill before this only tests Python's start
    _use_source(root, "src1")
    run_in_process(config, ["incremental", "-q"])
    store.save("inc1")
    grouped = next(g for g in store_state(store.url)["groups"] if len(g[1]) >= 3)
    store.restore("full0")
    _old_schema(store)
    store.save("old")
    scenarios = [
        Scenario("migrate", "old", "src0", ["migrate"], children=False),
        Scenario("first use (full)", None, "src0", ["full", "-q"], children=True),
        Scenario("full", "full0", "src1", ["full", "-q"], children=True),
        Scenario("incremental", "full0", "src1", ["incremental", "-q"], children=True),
        Scenario("reconcile", "full0", "src1", ["incremental", "--reconcile", "-q"], children=True),
        Scenario("decide", "inc1", "src1", ["decide", grouped[1][0], grouped[1][1], "--different"], children=False),
    ]
    for s in scenarios:
        _set_up(root, store, s)
        s.startup, s.seconds = startup, timed_run(config, s.args)
        s.reference = store_state(store.url)
        _set_up(root, store, s)
        run_in_process(config, s.args)  # the reference again, in this process as the reruns are
        assert store_state(store.url) == s.reference, f"{s.name}: a process and an in-process run differ"
    return config, scenarios


def _set_up(root, store, scenario: Scenario) -> None:
    if scenario.state is None:
        store.blank()
    else:
        store.restore(scenario.state)
    _use_source(root, scenario.source)


def _kill_points(root, store, capsys, points: int = POINTS) -> None:
    seed = int(os.environ.get("DEDUP_KILL_SEED") or random.SystemRandom().randrange(10**9))
    with capsys.disabled():
        print(f"\nkill points on {store.name}: DEDUP_KILL_SEED={seed} DEDUP_KILL_POINTS={points}", flush=True)
    rng = random.Random(seed)
    config, scenarios = _prepare(root, store)
    failures, landed, tried, where_killed = [], 0, 0, Counter()
    while landed < points and tried < 8 * points:  # a run can end before its kill on a busy machine
        tried += 1
        scenario = rng.choice(scenarios)
        _set_up(root, store, scenario)
        kill = kill_once(config, scenario, rng)
        landed += kill.landed
        where_killed[f"{scenario.name} ({kill.target})"] += kill.landed
        where = f"#{tried} {scenario.name}, {kill.target} killed at {kill.delay:.2f} s"
        if kill.note:
            failures.append(f"{where}: {kill.note}")
        if not kill.landed:  # the command ended before its kill: a plain run, not a kill point to check
            continue
        try:
            run_in_process(config, scenario.args)
            wrong = differences(store_state(store.url), scenario.reference)
        except Exception as e:  # noqa: BLE001 (any error of the rerun is the finding)
            wrong = f"{type(e).__name__}: {str(e)[:500]}"
        if wrong:
            failures.append(f"{where}: {wrong}")
    with capsys.disabled():
        print(f"kill points on {store.name}: {landed} kills landed in {tried} runs, {len(failures)} went wrong"
              f" (seed {seed}): " + ", ".join(f"{k} {n}" for k, n in sorted(where_killed.items()) if n), flush=True)
    assert landed >= points, f"only {landed} of {tried} kills landed before the command ended (seed {seed})"
    assert not failures, f"seed {seed}: {len(failures)} kill points went wrong:\n" + "\n".join(failures[:20])


def test_kill_points_sqlite(tmp_path, capsys):
    store = SqliteStore(tmp_path)
    _kill_points(tmp_path, store, capsys)


def test_kill_points_postgres(tmp_path, capsys, postgres_url):
    """Fewer kills than on the other stores (20 unless DEDUP_KILL_POINTS asks for fewer): the SQL store is
    MariaDB's code, killed 50 times there, and each PostgreSQL state copy is a database of its own, so
    50 here took 9.5 minutes on a loaded 2-core machine (111 runs; 0 went wrong), CI's time to spare."""
    store = PostgresStore(postgres_url)
    try:
        _kill_points(tmp_path, store, capsys, min(POINTS, 20))
    finally:
        store.dispose()


def test_kill_points_mariadb(tmp_path, capsys, mariadb_url):
    store = MariadbStore(mariadb_url)
    try:
        _kill_points(tmp_path, store, capsys)
    finally:
        store.dispose()


def test_kill_points_mongo(tmp_path, capsys, mongo_live_url):  # noqa: F811
    store = MongoStore(mongo_live_url)
    try:
        _kill_points(tmp_path, store, capsys)
    finally:
        store.dispose()

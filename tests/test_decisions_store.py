"""Decisions in every store (put, replace, find by key, pending, applied, delete), kept by a full
run's replace_table, created by the migrations; and a decision recorded but not applied (a review
cut short) is applied by the next incremental run."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
import sqlalchemy as sa
from alembic import command
from mongo_fixtures import MOCK_URL, mongo_live_url, mongo_opener  # noqa: F401  (fixture)

from dedup.config import load_config
from dedup.demo import prepare_demo
from dedup.index.decisions import DIFFERENT, SAME, Decision
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import TableSnapshot, migrate_store, open_store
from dedup.store.sql_migrate import _alembic_config

WHEN = dt.datetime(2026, 5, 1, 12, 0, 0)


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store(request):
    if request.param.startswith("mongo"):
        s = mongo_opener(request, request.param)()
    else:
        s = open_store(request.getfixturevalue(f"{request.param}_url"))
    yield s
    s.close()


def test_decisions_are_stored_replaced_found_marked_and_deleted(store):
    store.put_decisions("t", [Decision("10", "9", SAME, WHEN, "review", 0.81),
                              Decision("1", "2", DIFFERENT, WHEN, "decide"),
                              Decision("1", "2", SAME, WHEN, "decide")])  # the last on a pair wins
    store.put_decisions("other", [Decision("1", "2", DIFFERENT, WHEN)])
    got = {d.pair: d for d in store.decisions("t")}
    assert set(got) == {("9", "10"), ("1", "2")}
    assert got[("9", "10")] == Decision("9", "10", SAME, WHEN, "review", 0.81, None)
    assert got[("1", "2")].verdict == SAME
    assert [d.pair for d in store.decisions("t", ["10"])] == [("9", "10")]  # found by either key
    store.put_decisions("t", [Decision("2", "1", DIFFERENT, WHEN, "import")])
    assert {d.pair: d.verdict for d in store.decisions("t", ["2"])} == {("1", "2"): DIFFERENT}
    store.mark_decisions_applied("t", [("1", "2")], 7)
    assert [d.pair for d in store.decisions("t", pending=True)] == [("9", "10")]
    assert {d.pair: d.applied_run for d in store.decisions("t")} == {("1", "2"): 7, ("9", "10"): None}
    store.delete_decisions("t", [("9", "10")])
    assert [d.pair for d in store.decisions("t")] == [("1", "2")]
    assert [d.verdict for d in store.decisions("other")] == [DIFFERENT]
    # a full run's result replaces everything of the table but its decisions
    store.replace_table(TableSnapshot("t", 8, ["1"], np.array([5], dtype=np.uint64), [], [], {"max_distance": 3}, None))
    assert [d.pair for d in store.decisions("t")] == [("1", "2")]


def test_revision_0005_adds_the_decisions_table_and_downgrades(sqlite_url):
    from dedup.store.sql_migrate import head_revision

    assert head_revision() >= "0005"
    migrate_store(sqlite_url)
    engine = sa.create_engine(sqlite_url)
    try:
        assert "dedup_decisions" in sa.inspect(engine).get_table_names()
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "0004")
        assert "dedup_decisions" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    assert migrate_store(sqlite_url).endswith(f"migrated from 0004 to revision {head_revision()}")


def test_mongo_step_4_indexes_the_decisions():
    import mongomock

    from dedup.store.mongo import MongoStore

    s = MongoStore(MOCK_URL, client=mongomock.MongoClient())
    try:
        index = s.db.decisions.index_information()
        assert index["table_a_b"]["unique"] and "table_b" in index
    finally:
        s.close()


def test_a_decision_not_yet_applied_is_applied_by_the_next_incremental_run(tmp_path):
    cfg = load_config(str(prepare_demo(tmp_path / "demo", rows=150, seed=7)))
    run_full(cfg)
    store = open_store(cfg.store_url)
    try:
        pair = next(g for g in store.groups("petitions") if g.size == 2)
        store.put_decisions("petitions", [Decision(*pair.keys, DIFFERENT, WHEN, "review")])  # as review does
        assert store.group_ids_of("petitions", pair.keys) == {k: pair.id for k in pair.keys}  # not applied yet
    finally:
        store.close()
    result = run_incremental(cfg)
    assert result.rows_read == 0 and result.dissolved == [pair.id]
    store = open_store(cfg.store_url)
    try:
        assert store.group_ids_of("petitions", pair.keys) == {}
        assert [d.applied_run for d in store.decisions("petitions")] == [result.run_id]
    finally:
        store.close()
    assert run_incremental(cfg).dissolved == []  # applied once; the next run has nothing to redo


def test_a_record_pair_is_explained_field_by_field_with_shares_that_add_up_to_its_score(tmp_path):
    import json

    from click.testing import CliRunner

    from dedup.cli import main

    from bench.datasets.labelled.persons import generate_persons, write_sqlite

    write_sqlite(generate_persons(400, seed=5), str(tmp_path / "p.db"))
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///p.db"}\nstore: {url: "sqlite:///s.db"}\ntables:\n  persons:\n'
                   "    key: id\n    fingerprint: fields\n    fields: {name: short, gender: short, birth_date: short, "
                   "id_number: short, phone: short, address: short}\n", encoding="utf-8")
    run = CliRunner()
    assert run.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    rep = json.loads(run.invoke(main, ["-c", str(cfg), "report", "-f", "json"]).output)
    p = min((p for g in rep["groups"] for p in g["pairs"]), key=lambda p: p["similarity"])
    assert set(p["fields"]) == {"name", "gender", "birth_date", "id_number", "phone", "address"}
    view = json.loads(run.invoke(main, ["-c", str(cfg), "explain", p["a"], p["b"], "--json"]).output)
    shares = [f["share"] for f in view["fields"] if f["share"] is not None]
    assert len(shares) >= 3 and sum(shares) == pytest.approx(view["similarity"], abs=1e-3)
    assert view["similarity"] == p["similarity"] >= 0.675  # the record threshold it passed


def test_actions_and_notes_on_groups_are_stored_listed_newest_first_and_marked_undone(store):
    from dedup.index.decisions import Action, GroupNote

    old = Decision("1", "2", SAME, WHEN, "review", 0.9, None, "ann", "one matter", "a0")
    first = Action("20260501T120000000001-aaaaaa", "take_out", WHEN, "王芳", ("1",), (4,), (("1", "2"), ("1", "3")),
                   "另一件事, \"quoted\"", (old,))
    second = Action("20260501T120000000002-bbbbbb", "merge", WHEN, "li", (), (4, 9), (("1", "9"),))
    store.put_action("t", first)
    store.put_action("t", second)
    store.put_action("other", Action("20260501T120000000003-cccccc", "mark", WHEN, "li"))
    assert store.actions("t") == [second, first]
    assert store.actions("t", limit=1) == [second] and store.actions("t", reviewer="王芳") == [first]
    store.mark_action_undone("t", second.id, WHEN + dt.timedelta(minutes=1), "li")
    assert store.actions("t", undone=False) == [first]
    assert store.actions("t")[0].undone_at == WHEN + dt.timedelta(minutes=1) and store.actions("t")[0].undone_by == "li"
    store.put_decisions("t", [Decision("1", "3", DIFFERENT, WHEN, "decide", None, None, "王芳", "备注", first.id)])
    assert store.decisions("t") == [Decision("1", "3", DIFFERENT, WHEN, "decide", None, None, "王芳", "备注", first.id)]

    store.put_group_note("t", GroupNote(4, "同一申请人", "王芳", WHEN))
    store.put_group_note("t", GroupNote(4, "done", None, WHEN + dt.timedelta(seconds=1)))
    store.put_group_note("t", GroupNote(5, "other", "li", WHEN))
    assert store.group_notes("t", 4) == [GroupNote(4, "同一申请人", "王芳", WHEN),
                                         GroupNote(4, "done", None, WHEN + dt.timedelta(seconds=1))]
    assert len(store.group_notes("t")) == 3 and store.group_notes("other", 4) == []
    # a full run's result replaces the table's groups, not its actions and notes
    store.replace_table(TableSnapshot("t", 8, ["1"], np.array([5], dtype=np.uint64), [], [], {"max_distance": 3}, None))
    assert len(store.actions("t")) == 2 and len(store.group_notes("t")) == 3


def test_revision_0010_keeps_older_decisions_with_no_reviewer_and_downgrades(db_url):
    from dedup.store.sql_migrate import head_revision

    migrate_store(db_url)
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "0009")
        names = set(sa.inspect(engine).get_table_names())
        assert not {"dedup_actions", "dedup_group_notes"} & names
        assert "reviewer" not in {c["name"] for c in sa.inspect(engine).get_columns("dedup_decisions")}
        with engine.begin() as conn:  # a decision as a dedup before 0010 wrote it
            conn.execute(sa.text("INSERT INTO dedup_decisions (table_name, key_a, key_b, verdict, decided_at, source) "
                                 "VALUES ('t', '1', '2', 'different', :at, 'decide')"), {"at": WHEN})
    finally:
        engine.dispose()
    assert migrate_store(db_url).endswith(f"migrated from 0009 to revision {head_revision()}")
    store = open_store(db_url)
    try:
        assert store.decisions("t") == [Decision("1", "2", DIFFERENT, WHEN, "decide")]
        assert store.decisions("t")[0].reviewer is None and store.actions("t") == [] and store.group_notes("t") == []
    finally:
        store.close()

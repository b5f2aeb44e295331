"""Group ids that survive `full`, the run history, `dedup runs` and `report --run N` / `--since-last-run`,
on SQLite, mongomock and (DEDUP_TEST_MONGO_URI set) a live MongoDB server."""

import json
import re

import pytest
from click.testing import CliRunner
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)

from dedup.cli import main
from dedup.report import build_report
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from helpers import config_for, delete_rows, make_table, petition
from test_incremental import append, update
from test_pipeline import BASE, OTHER

LAMP = "我们小区门口的三盏路灯已经坏了两个多月，晚上一片漆黑，老人和孩子出门很不安全，请尽快派人维修。"
BUS = "建议在新城大道和学府路口增设一个公交站点，附近三个小区的居民上班要走二十分钟才能坐上公交车。"
TAX = "我在网上申报个人所得税时系统一直提示身份证号码错误，打了很多次热线都没有人接听，请帮忙解决。"
TEXTS = {"A": BASE, "B": OTHER, "C": LAMP, "D": BUS}
FIELDS = {"name": "short", "phone": "short", "title": "text", "content": "text"}


@pytest.fixture(params=["sqlite", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    return store_url_of(request.param, request, tmp_path, monkeypatch)


@pytest.fixture
def source(tmp_path):
    """Four duplicate pairs: A = rows 1, 2; B = 3, 4; C = 5, 6; D = 7, 8 (and a lone row 20)."""
    url = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(url, [petition(i, TEXTS[g]) for g, i in
                     [("A", 1), ("A", 2), ("B", 3), ("B", 4), ("C", 5), ("C", 6), ("D", 7), ("D", 8)]]
               + [petition(20, TAX)])
    return url


def groups_of(config):
    store = open_store(config.store_url)
    try:
        return {g.id: g.keys for g in store.groups("petitions")}
    finally:
        store.close()


def report(config, **kw):
    store = open_store(config.store_url)
    try:
        return build_report(store, config, config.table("petitions"), None, **kw)
    finally:
        store.close()


def test_full_after_source_edits_keeps_the_ids_of_unchanged_groups_and_records_what_changed(source, store_url):
    config = config_for(source, store_url, fields=FIELDS, watermark="updated_at")
    first = run_full(config)
    assert groups_of(config) == {1: ["1", "2"], 2: ["3", "4"], 3: ["5", "6"], 4: ["7", "8"]}
    # a copy of D with the lowest key of all (renumbering by lowest key would make D group 1),
    # a third copy of C, and row 3 rewritten: B is left with one row
    append(source, [petition(0, BUS), petition(9, LAMP)])
    update(source, 3, content=TAX + "另外还有一件事。")
    second = run_full(config)
    assert groups_of(config) == {1: ["1", "2"], 3: ["5", "6", "9"], 4: ["0", "7", "8"]}
    s = second.summary()
    assert (s["run"], s["new_groups"], s["grown_groups"], s["dissolved_groups"], s["rows_left_groups"]) == (
        first.run_id + 1, 0, 2, 1, 2)
    # a third full run with nothing changed: same ids, nothing recorded as changed
    third = run_full(config)
    assert groups_of(config) == {1: ["1", "2"], 3: ["5", "6", "9"], 4: ["0", "7", "8"]}
    counted = ["new_groups", "grown_groups", "shrunk_groups", "merged_groups", "split_groups", "dissolved_groups",
               "rows_left_groups"]
    assert [third.summary()[k] for k in counted] == [0] * 7
    # --since-last-run shows the second run (the third changed nothing); --run N any run
    since = report(config, since_last_run=True)
    assert since["since_run"]["id"] == second.run_id == since["run"]["id"]
    assert {g["group"]: (g["change"]["kinds"], [r["key"] for r in g["rows"] if r["new"]]) for g in since["groups"]} == {
        3: (["grown"], ["9"]), 4: (["grown"], ["0"])}
    assert since["gone"] == [{"group": 2, "rows": ["3", "4"], "merged_into": None}]
    assert report(config, run=third.run_id)["groups"] == []
    run1 = report(config, run=first.run_id)  # the groups it made, as they are now (group 2 is gone)
    assert {g["group"]: [r["key"] for r in g["rows"] if r["new"]] for g in run1["groups"]} == {
        1: ["1", "2"], 3: ["5", "6"], 4: ["7", "8"]}
    # --since-run N: run N and every later run together
    since1 = report(config, since_run=first.run_id)
    assert {g["group"]: (g["change"]["kinds"], [r["key"] for r in g["rows"] if r["new"]]) for g in since1["groups"]} == {
        1: (["new"], ["1", "2"]), 3: (["new", "grown"], ["5", "6", "9"]), 4: (["new", "grown"], ["0", "7", "8"])}
    assert [g["group"] for g in since1["gone"]] == [2] and since1["run"]["through"] == third.run_id
    assert [g["group"] for g in report(config, since_run=second.run_id)["groups"]] == [3, 4]
    # a group whose rows all go: new ids stay above every id used before
    delete_rows(source, 5, 6, 9)
    append(source, [petition(30, TEXTS["A"] + "补充。"), petition(31, TAX), petition(32, TAX)])
    run_full(config)
    assert groups_of(config) == {1: ["1", "2", "30"], 4: ["0", "7", "8"], 5: ["20", "31", "32"]}


def test_since_last_run_after_an_empty_incremental_still_shows_the_last_change(source, store_url):
    config = config_for(source, store_url, fields=FIELDS, watermark="updated_at")
    run_full(config)
    append(source, [petition(40, OTHER), petition(41, TAX)])
    changed = run_incremental(config)
    assert changed.summary()["grown_groups"] == 1 and changed.summary()["new_groups"] == 1
    for _ in range(2):  # a night with no new rows, and cron firing twice
        assert run_incremental(config).summary()["rows"] == 0
    since = report(config, since_last_run=True)
    assert since["since_run"]["id"] == changed.run_id
    assert {g["group"]: [r["key"] for r in g["rows"] if r["new"]] for g in since["groups"]} == {2: ["40"], 5: ["20", "41"]}


def test_an_incremental_split_and_rows_leaving_are_recorded(source, store_url):
    config = config_for(source, store_url, fields=FIELDS, watermark="updated_at")
    append(source, [petition(10, LAMP)])
    run_full(config)
    assert groups_of(config)[3] == ["5", "6", "10"]
    update(source, 10, content=BUS, updated_at=petition(99, "")["updated_at"])  # C loses 10, which joins D
    update(source, 6, content=TAX, updated_at=petition(100, "")["updated_at"])  # and 6, with row 20
    result = run_incremental(config).summary()
    assert groups_of(config) == {1: ["1", "2"], 2: ["3", "4"], 4: ["7", "8", "10"], 5: ["6", "20"]}
    assert result["dissolved_groups"] == 1 and result["rows_left_groups"] == 1  # row 5 is alone now
    rep = report(config, since_last_run=True)
    assert rep["gone"] == [{"group": 3, "rows": ["5", "6", "10"], "merged_into": None}]
    assert {g["group"]: g["change"]["kinds"] for g in rep["groups"]} == {4: ["grown"], 5: ["new"]}


@pytest.fixture
def project(tmp_path, source):
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
                   "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
                   "    fields: {name: short, phone: short, title: text, content: text}\n", encoding="utf-8")
    return cfg


def test_dedup_runs_lists_runs_with_what_they_changed(project, source):
    runner = CliRunner()
    assert runner.invoke(main, ["-c", str(project), "runs"]).output == "petitions: no runs recorded yet\n"
    assert runner.invoke(main, ["-c", str(project), "full"]).exit_code == 0
    append(source, [petition(40, OTHER), petition(3 + 50, TAX)])
    out = runner.invoke(main, ["-c", str(project), "incremental"])
    assert out.exit_code == 0 and "1 new groups" in out.output
    assert runner.invoke(main, ["-c", str(project), "incremental"]).exit_code == 0
    out = runner.invoke(main, ["-c", str(project), "runs"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "petitions: 3 runs, most recent first"
    assert lines[1].split() == ["run", "kind", "started", "(UTC)", "status", "rows", "new", "grown", "merged", "split",
                                "shrunk", "gone", "left"]
    assert [re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "TIME", x).split() for x in lines[2:]] == [
        ["3", "incremental", "TIME", "ok", "0", "0", "0", "0", "0", "0", "0", "0"],
        ["2", "incremental", "TIME", "ok", "2", "1", "1", "0", "0", "0", "0", "0"],
        ["1", "full", "TIME", "ok", "9", "4", "0", "0", "0", "0", "0", "0"]]
    data = json.loads(runner.invoke(main, ["-c", str(project), "runs", "--json", "-n", "2"]).output)
    assert [(r["id"], r["changed"], r["new_groups"]) for r in data] == [(3, False, 0), (2, True, 1)]
    out = runner.invoke(main, ["-c", str(project), "report", "--since-last-run"])
    assert out.exit_code == 0, out.output
    assert "changes of run 2 (incremental" in out.output and "group 5: 2 rows" in out.output
    assert "1 new, 1 grown, 0 merged, 0 split, 0 shrunk, 0 gone, 0 rows left groups;" in " ".join(out.output.split())
    assert re.search(r"group 2: 3 rows, .*\[grown\]\n(.*\n){2}\+ +40 ", out.output), out.output
    run1 = json.loads(runner.invoke(main, ["-c", str(project), "report", "-f", "json", "--run", "1"]).output)
    assert [g["group"] for g in run1["groups"]] == [1, 2, 3, 4] and run1["run"]["kind"] == "full"
    out = runner.invoke(main, ["-c", str(project), "report", "--run", "7"])
    assert out.exit_code == 2 and "run 7 is not a run of table 'petitions'" in out.output
    out = runner.invoke(main, ["-c", str(project), "report", "--run", "1", "--since-last-run"])
    assert out.exit_code == 2
    out = runner.invoke(main, ["-c", str(project), "report", "--since-run", "1"])
    assert out.exit_code == 0 and "changes of runs 1 to 3 (run 1: full, started " in out.output
    assert re.search(r"group 5: 2 rows, weakest link \d+ – \d+: \d+%.* \[new\]", out.output), out.output
    out = runner.invoke(main, ["-c", str(project), "full", "-q"])  # finds the same groups: says nothing changed
    assert "; since the last run 0 new, 0 grown, 0 merged, 0 split, 0 gone, 0 rows left groups, " in out.output


def test_a_run_recorded_before_the_history_shows_the_groups_it_last_updated(tmp_path):
    import datetime as dt

    import numpy as np

    from dedup.index.groups import Group, Pair
    from dedup.store import RunRecord, TableSnapshot

    config = config_for(f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}", fields=FIELDS)
    store = open_store(config.store_url)
    run_id = store.start_run(RunRecord("petitions", "full", dt.datetime(2026, 1, 1)))
    groups = [Group(4, ["1", "2"], [0, 1], [Pair("1", "2", 1)], run_id, run_id)]
    store.replace_table(TableSnapshot("petitions", run_id, ["1", "2"], np.array([1, 3], dtype=np.uint64), groups, [],
                                      {"max_distance": 3}, None))
    store.finish_run(run_id, "ok", {"rows": 2, "groups": 1})  # a summary as older versions wrote it
    store.close()
    since = report(config, since_last_run=True)
    assert since["run"]["id"] == run_id and since["gone"] == []
    assert [(g["group"], "change" in g, [r["new"] for r in g["rows"]]) for g in since["groups"]] == [
        (4, False, [False, False])]

"""The nightly job a DBA can watch (issue 25): `dedup status`, start times on every run line and
JSON object, `dedup runs --kind`."""

import datetime as dt
import json
import re

import pytest
from click.testing import CliRunner
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)

from dedup.cli import main
from dedup.config import load_config
from dedup.runs.status import group_sizes, table_status
from dedup.store import RunRecord, open_store
from helpers import make_table, petition
from test_incremental import append
from test_pipeline import BASE, OTHER
from test_run_history import BUS, LAMP

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


@pytest.fixture(params=["sqlite", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    return store_url_of(request.param, request, tmp_path, monkeypatch)


def _project(tmp_path, source: str, store: str):
    make_table(source, [petition(1, BASE, "张三"), petition(2, BASE, "张三"), petition(3, OTHER, "李四"),
                        petition(4, OTHER, "李四"), petition(5, OTHER, "李四"), petition(6, LAMP, "王五")])
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f'source: {{url: "{source}"}}\nstore: {{url: "{store}"}}\n'
                   "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
                   "    fields: {name: short, title: text, content: text}\n", encoding="utf-8")
    return cfg


def _status(runner, cfg, *args):
    result = runner.invoke(main, ["status", "-c", str(cfg), "--json", *args])
    return result.exit_code, json.loads(result.output) if result.output.startswith("[") else result.output


def test_status_through_a_night(tmp_path, store_url):
    runner = CliRunner()
    source = f"sqlite:///{tmp_path / 'src.db'}"
    cfg = _project(tmp_path, source, store_url)
    code, [t] = _status(runner, cfg)
    assert code == 4 and t["problems"] == ["no successful full run yet (`dedup full`)"]
    assert (t["last_full"], t["waiting_rows"], t["lock"], t["groups"]) == (None, None, None, 0)

    assert runner.invoke(main, ["full", "-c", str(cfg), "-q"]).exit_code == 0
    append(source, [petition(7, BUS, "赵六"),
                    petition(8, BUS, "赵六")])
    code, [t] = _status(runner, cfg)
    assert (code, t["healthy"], t["problems"]) == (0, True, [])
    assert (t["last_full"]["outcome"], t["last_incremental"]) == ("ok", None)
    assert re.fullmatch(ISO, t["last_full"]["started"]) and 0 <= t["last_full"]["age_seconds"] < 600
    assert (t["waiting_rows"], t["unseen_rows"]) == (2, 0)
    assert (t["groups"], t["rows_in_groups"], t["group_sizes"]) == (2, 5, {"p50": 2, "p90": 3, "p99": 3})
    assert t["largest_group"]["size"] == 3

    assert runner.invoke(main, ["incremental", "-c", str(cfg), "-q"]).exit_code == 0
    code, [t] = _status(runner, cfg)
    assert (code, t["waiting_rows"], t["groups"], t["last_incremental"]["outcome"]) == (0, 0, 3, "ok")
    code, [t] = _status(runner, cfg, "--max-age", "0s")
    assert code == 4 and re.fullmatch(r"last successful run \(incremental run \d+\) started \d+s ago, "
                                      r"more than --max-age 0s", t["problems"][0])

    store = open_store(store_url)  # another run holds the lock
    try:
        store.acquire_lock("petitions", "host:123:abc", 600)
    finally:
        store.close()
    code, [t] = _status(runner, cfg)
    assert code == 0 and t["lock"]["owner"] == "host:123:abc" and not t["lock"]["expired"]
    assert re.fullmatch(ISO, t["lock"]["expires"])
    out = runner.invoke(main, ["status", "-c", str(cfg)]).output
    assert "  lock:             held by host:123:abc until " in out and out.startswith("petitions: ok\n")


def test_a_failed_or_crashed_last_run_needs_attention(tmp_path):
    runner = CliRunner()
    cfg = _project(tmp_path, f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}")
    assert runner.invoke(main, ["full", "-c", str(cfg), "-q"]).exit_code == 0
    changed = tmp_path / "changed.yaml"
    changed.write_text(cfg.read_text().replace("name: short", "name: {kind: short, weight: 5}"), encoding="utf-8")
    assert runner.invoke(main, ["incremental", "-c", str(changed), "-q"]).exit_code == 2  # recorded as failed
    result = runner.invoke(main, ["status", "-c", str(cfg)])
    assert result.exit_code == 4
    lines = result.output.splitlines()
    assert lines[0] == "petitions: NEEDS ATTENTION"
    assert lines[1].startswith("  ! last incremental run 2 failed: the fingerprints stored for 'petitions' were made")
    assert re.fullmatch(rf"  last incremental: run 2 failed, started {ISO} \(\d+s ago\)", lines[3])

    store = open_store(load_config(str(cfg)).store_url)  # a run killed without a trace: running, no lock
    try:
        store.start_run(RunRecord("petitions", "incremental", dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)))
    finally:
        store.close()
    code, [t] = _status(runner, cfg)
    assert code == 4 and t["last_incremental"]["outcome"] == "crashed"
    assert t["problems"] == ["last incremental run 3 failed: it ended without recording an outcome (killed?)"]


def test_status_counts_waiting_rows_on_each_source_database(tmp_path, db_url):
    cfg = _project(tmp_path, db_url, f"sqlite:///{tmp_path / 'store.db'}")
    config = load_config(str(cfg))
    runner = CliRunner()
    assert runner.invoke(main, ["full", "-c", str(cfg), "-q"]).exit_code == 0
    append(db_url, [petition(9, BUS)])
    [t] = table_status(config, ["petitions"], max_age=dt.timedelta(hours=26),
                       now=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None) + dt.timedelta(hours=27))
    assert (t["waiting_rows"], t["unseen_rows"], t["healthy"]) == (1, 0, False)
    assert t["problems"][0].startswith("last successful run (full run 1) started 1d 3h ago, more than --max-age 1d 2h")


def test_group_size_percentiles_are_nearest_rank():
    sizes = {i: 2 for i in range(1, 90)} | {i: 5 for i in range(90, 100)} | {100: 40}
    assert group_sizes(sizes) == {"groups": 100, "rows_in_groups": 89 * 2 + 50 + 40,
                                  "group_sizes": {"p50": 2, "p90": 5, "p99": 5},
                                  "largest_group": {"group": 100, "size": 40}}
    assert group_sizes({})["group_sizes"] == {"p50": None, "p90": None, "p99": None}


def test_run_lines_and_json_carry_their_start_time_and_runs_filter_by_kind(tmp_path):
    runner = CliRunner()
    cfg = _project(tmp_path, f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'store.db'}")
    out = runner.invoke(main, ["full", "-c", str(cfg), "-q"]).output
    assert re.match(rf"{ISO} petitions: 6 rows, 2 groups", out), out
    out = runner.invoke(main, ["incremental", "-c", str(cfg), "-q"]).output
    assert re.match(rf"{ISO} petitions: 0 new rows", out), out
    summary = json.loads(runner.invoke(main, ["incremental", "-c", str(cfg), "--json"]).output)
    assert re.fullmatch(ISO, summary["started"]) and summary["table"] == "petitions"  # the old keys stay
    assert runner.invoke(main, ["decide", "-c", str(cfg), "1", "6", "--different"]).exit_code == 0
    every = json.loads(runner.invoke(main, ["runs", "-c", str(cfg), "--json"]).output)
    assert [r["kind"] for r in every] == ["decide", "incremental", "incremental", "full"]
    assert all(re.fullmatch(ISO, r["started"]) and r["started_at"] for r in every)
    for kind, ids in (("full", [1]), ("incremental", [3, 2]), ("decide", [4])):
        listed = json.loads(runner.invoke(main, ["runs", "-c", str(cfg), "--json", "--kind", kind]).output)
        assert [r["id"] for r in listed] == ids
    text = runner.invoke(main, ["runs", "-c", str(cfg), "--kind", "incremental", "-n", "1"]).output.splitlines()
    assert len(text) == 3 and text[2].split()[:2] == ["3", "incremental"]
    report = json.loads(runner.invoke(main, ["report", "-c", str(cfg), "-f", "json", "--run", "1"]).output)
    assert re.fullmatch(ISO, report["run"]["started"])
    bad = runner.invoke(main, ["runs", "-c", str(cfg), "--kind", "nightly"])
    assert bad.exit_code == 2

"""The command line: exact errors and exit codes first, then the happy path."""

import json
import re

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.config import DEFAULT_MAX_DISTANCE
from helpers import make_table, petition
from test_pipeline import BASE, OTHER


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def project(tmp_path):
    """A SQLite source with one duplicate pair and a config next to it."""
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [
        petition(1, BASE, "张三", "13800138000", "噪音扰民"), petition(2, OTHER, "李四"),
        petition(3, BASE, "张三", "13800138000", "噪音扰民"), petition(4, None)])
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(
        'source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
        "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
        "    fields: {name: short, phone: short, title: text, content: text}\n"
        "    display: [name, title]\n", encoding="utf-8")
    return cfg


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help(runner, command):
    result = runner.invoke(main, [command, "--help"])
    assert result.exit_code == 0
    doc = main.commands[command].help
    assert doc and len(doc.split()) >= 5
    for param in main.commands[command].params:
        if param.name != "help" and hasattr(param, "help"):
            assert param.help, f"{command} --{param.name} has no help"


def test_missing_config_is_exit_2(runner, tmp_path):
    result = runner.invoke(main, ["-c", str(tmp_path / "nope.yaml"), "full"])
    assert result.exit_code == 2
    assert result.output == f"Error: config file not found: {tmp_path / 'nope.yaml'} (pass -c FILE or set DEDUP_CONFIG)\n"


def test_bad_config_key_is_exit_2(runner, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text('source: {url: "sqlite://"}\ntables: {t: {key: id, fields: {a: texty}}}\n', encoding="utf-8")
    result = runner.invoke(main, ["-c", str(cfg), "full"])
    assert result.exit_code == 2
    assert result.output == f"Error: {cfg}: tables.t.fields.a: unknown kind 'texty' (use short, text or chars)\n"


def test_unknown_table_and_missing_column_are_exit_2(runner, project):
    result = runner.invoke(main, ["-c", str(project), "full", "--table", "cases"])
    assert (result.exit_code, result.output) == (2, "Error: table 'cases' is not in the config (configured: petitions)\n")
    project.write_text(project.read_text().replace("content: text", "body: text"), encoding="utf-8")
    result = runner.invoke(main, ["-c", str(project), "full"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: tables.petitions.fields.body: column 'body' not in table 'petitions'")


def test_unreachable_database_is_exit_1_and_masks_the_password(runner, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text('source: {url: "postgresql+psycopg://u:topsecret@127.0.0.1:1/x?connect_timeout=2"}\n'
                   "tables: {t: {key: id, fields: {a: text}}}\n", encoding="utf-8")
    result = runner.invoke(main, ["-c", str(cfg), "full"])
    assert result.exit_code == 1
    assert "topsecret" not in result.output and "u:***@127.0.0.1" in result.output
    assert result.output.startswith("Error: cannot read the source database") and result.output.count("\n") == 1


def test_full_then_report_in_every_format(runner, project, tmp_path):
    result = runner.invoke(main, ["-c", str(project), "full", "--table", "petitions"])
    assert result.exit_code == 0, result.output
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ petitions: 4 rows, 1 groups, 2 rows in groups, 1 skipped \(0 unreadable\), \d+\.\d s \([\d,]+ rows/s\)\n",
                        result.output)

    out = runner.invoke(main, ["-c", str(project), "report", "--table", "petitions", "--format", "json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["table"] == "petitions" and data["max_distance"] == DEFAULT_MAX_DISTANCE
    assert data["match"] == "minhash"
    assert data["groups"] == [{
        "group": 1, "size": 2,
        "rows": [{"key": "1", "distance": 0, "link": "3", "similarity": 1.0, "name": "张三", "title": "噪音扰民"},
                 {"key": "3", "distance": 0, "link": "1", "similarity": 1.0, "name": "张三", "title": "噪音扰民"}],
        "pairs": [{"a": "1", "b": "3", "distance": 0, "similarity": 1.0, "rule": "content", "threshold": 0.75,
                   "fields": {"title+content": 1.0, "name": 1.0, "phone": 1.0}}],
        "weakest": {"a": "1", "b": "3", "similarity": 1.0, "rule": "content"},
    }]
    assert data["skipped"] == [{"key": "4", "reason": "no_features", "detail": "every field is empty"}]

    csv_out = runner.invoke(main, ["-c", str(project), "report", "-f", "csv"])
    assert csv_out.output == ("key,group,name,title,linked_to,similarity,rule,deleted\n"
                              "1,1,张三,噪音扰民,3,1.000,内容相似,\n3,1,张三,噪音扰民,1,1.000,内容相似,\n")

    table = runner.invoke(main, ["-c", str(project), "report"])
    assert "group 1: 2 rows" in table.output and "张三" in table.output and "噪音扰民" in table.output

    target = tmp_path / "r.html"
    html_out = runner.invoke(main, ["-c", str(project), "report", "-f", "html", "-o", str(target), "--lang", "en"])
    assert html_out.exit_code == 0 and ">Group 1</a> · 2 rows</h2>" in target.read_text(encoding="utf-8")


def test_report_before_any_run_says_so(runner, project):
    out = runner.invoke(main, ["-c", str(project), "report", "-f", "json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["groups"] == [] and "run `dedup full` first" in out.output


def test_migrate(runner, project):
    from dedup.store.sql_migrate import head_revision

    out = runner.invoke(main, ["-c", str(project), "migrate"])
    assert out.exit_code == 0 and f"migrated from empty to revision {head_revision()}" in out.output
    out = runner.invoke(main, ["-c", str(project), "migrate"])
    assert f"up to date (revision {head_revision()})" in out.output


def test_config_from_environment(runner, project, monkeypatch):
    monkeypatch.setenv("DEDUP_CONFIG", str(project))
    assert runner.invoke(main, ["full"]).exit_code == 0


def test_demo_runs_with_no_server(runner, tmp_path):
    d = tmp_path / "demo"
    result = runner.invoke(main, ["demo", "--dir", str(d), "--rows", "300", "--quiet"])
    assert result.exit_code == 0, result.output
    assert (d / "petitions.db").is_file() and (d / "truth.csv").is_file() and (d / "dedup.yaml").is_file()
    assert re.search(r"petitions: \d+ duplicate groups", result.output)
    assert "group 1:" in result.output
    assert re.search(r"petitions: 300 rows, \d+ groups", result.output)


def test_full_and_report_with_source_and_store_on_each_database(runner, db_url, tmp_path):
    """The documented flow with the source table and the store's tables in one server database."""
    make_table(db_url, [petition(1, BASE, "张三"), petition(2, OTHER), petition(3, BASE, "张三")])
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f'source: {{url: "{db_url}"}}\nstore: {{url: "{db_url}"}}\n'
                   "tables: {petitions: {key: id, fields: {name: short, content: text}}}\n", encoding="utf-8")
    assert runner.invoke(main, ["-c", str(cfg), "full", "--table", "petitions"]).exit_code == 0
    out = runner.invoke(main, ["-c", str(cfg), "report", "--table", "petitions", "--format", "json"])
    assert out.exit_code == 0
    assert [[r["key"] for r in g["rows"]] for g in json.loads(out.output)["groups"]] == [["1", "3"]]


def test_unreachable_store_is_exit_1_and_nothing_is_reported_as_done(runner, project):
    text = project.read_text().replace('sqlite:///store.db', 'postgresql+psycopg://u:pw9@127.0.0.1:1/x?connect_timeout=2')
    project.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["-c", str(project), "full"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: store postgresql+psycopg://u:***@127.0.0.1:1/x")
    assert "pw9" not in result.output


def test_verbose_log_lines_mask_passwords(runner, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text('source: {url: "postgresql+psycopg://u:pw7@127.0.0.1:1/x?connect_timeout=2"}\n'
                   "tables: {t: {key: id, fields: {a: text}}}\n", encoding="utf-8")
    result = runner.invoke(main, ["-v", "-c", str(cfg), "full"])
    assert result.exit_code == 1 and "Traceback" in result.output and "pw7" not in result.output


def test_incremental_cron_output_json_and_since_last_run(runner, project, tmp_path):
    assert runner.invoke(main, ["-c", str(project), "full"]).exit_code == 0
    from test_incremental import append
    append(f"sqlite:///{tmp_path / 'src.db'}", [petition(10, OTHER, "李四"), petition(11, "全新的一条内容，反映路灯不亮。")])
    out = runner.invoke(main, ["-c", str(project), "incremental"])
    assert out.exit_code == 0, out.output
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ petitions: 2 new rows, 1 new groups, 1 rows joined groups, \d+\.\d s \([\d,]+ rows/s\)\n", out.output)
    since = json.loads(runner.invoke(main, ["-c", str(project), "report", "-f", "json", "--since-last-run"]).output)
    assert [[r["key"] for r in g["rows"]] for g in since["groups"]] == [["2", "10"]]
    every = json.loads(runner.invoke(main, ["-c", str(project), "report", "-f", "json"]).output)
    assert len(every["groups"]) == 2
    out = runner.invoke(main, ["-c", str(project), "incremental", "--json"])
    data = json.loads(out.output)
    assert data["rows"] == 0 and data["new_groups"] == 0 and data["table"] == "petitions"


def test_incremental_on_a_locked_table_is_exit_3(runner, project, tmp_path):
    from dedup.store import open_store
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    store.acquire_lock("petitions", "cronhost:42:abc", 600)
    store.close()
    out = runner.invoke(main, ["-c", str(project), "incremental"])
    assert out.exit_code == 3
    assert out.output.startswith("Error: table 'petitions' is locked by another run (cronhost:42:abc) until ")


def test_full_incremental_and_report_with_a_mongodb_store(runner, project, tmp_path, monkeypatch):
    """The CLI on the MongoDB store (mongomock standing in for the server)."""
    import mongomock
    from mongo_fixtures import MOCK_URL

    client = mongomock.MongoClient()
    monkeypatch.setattr("dedup.store.mongo.MongoClient", lambda *a, **k: client)
    project.write_text(project.read_text().replace('sqlite:///store.db', MOCK_URL), encoding="utf-8")
    from dedup.store.mongo_migrate import head_version

    out = runner.invoke(main, ["-c", str(project), "migrate"]).output
    assert out.endswith(f"migrated from empty to version {head_version()}\n")
    assert runner.invoke(main, ["-c", str(project), "full"]).exit_code == 0
    from test_incremental import append
    append(f"sqlite:///{tmp_path / 'src.db'}", [petition(10, OTHER, "李四")])
    assert runner.invoke(main, ["-c", str(project), "incremental"]).exit_code == 0
    data = json.loads(runner.invoke(main, ["-c", str(project), "report", "-f", "json"]).output)
    assert sorted([r["key"] for r in g["rows"]] for g in data["groups"]) == [["1", "3"], ["2", "10"]]
    assert client["dedup_test"]["blocks.petitions"].count_documents({}) > 0


def test_unreachable_mongodb_is_exit_1_with_the_password_masked(runner, project):
    url = "mongodb://u:mongopw@127.0.0.1:1/dedup?serverSelectionTimeoutMS=300"
    project.write_text(project.read_text().replace('sqlite:///store.db', url), encoding="utf-8")
    out = runner.invoke(main, ["-c", str(project), "full"])
    assert out.exit_code == 1 and "mongopw" not in out.output and out.output.startswith("Error: store mongodb://u:***@")

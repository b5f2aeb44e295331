"""Hostile input, safe output (issue 13): spreadsheet formulas in CSV, terminal escapes, passwords
holding "@", duplicate YAML keys, read-only stores, unwritable output paths, Ctrl-C, wide record tables."""

import csv
import io
import json
import os
import random
import shutil
import sqlite3
import string
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from dedup.cli import entry, main
from dedup.config import parse_config
from dedup.db.masking import mask_secrets, remember_secrets
from dedup.errors import ConfigError
from dedup.eval.summary import render_eval_text
from dedup.report.cells import visible
from dedup.report.render import to_csv, to_table
from dedup.store.sql_migrate import head_revision
from helpers import make_table, petition
from test_pipeline import BASE, OTHER

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_KEYS = ["=cmd|' /C calc'!A0", "+k", "-5", "@k", "\tk", "\rk", "a\x1b]0;pwned\x07", "b\nc", "k=1"]
CSV_1_3 = "key,group,name,linked_to,similarity,rule,deleted\n1,1,张三,3,1.000,内容相似,\n3,1,张三,1,1.000,内容相似,\n"
CONTROL = [chr(c) for c in range(32) if c != 10] + ["\x7f", "\x9b"]


@pytest.fixture
def runner():
    return CliRunner()


def config_file(tmp_path, source: str, store: str = "sqlite:///store.db", table: str = "") -> Path:
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f'source: {{url: "{source}"}}\nstore: {{url: "{store}"}}\n'
                   + (table or "tables:\n  petitions:\n    key: id\n    fields: {name: short, content: text}\n"
                      "    display: [name]\n"), encoding="utf-8")
    return cfg


@pytest.fixture
def project(tmp_path, runner):
    """One duplicate pair (keys 1 and 3) after a full run, SQLite source and store."""
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE, "张三"), petition(2, OTHER), petition(3, BASE, "张三")])
    cfg = config_file(tmp_path, "sqlite:///src.db")
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    return cfg


# -- 10. CSV injection ---------------------------------------------------------------------------

def test_csv_cells_that_start_like_a_formula_get_a_quote():
    report = {"groups": [{"group": 7, "rows": [{"key": k} for k in HOSTILE_KEYS]}]}
    assert list(csv.reader(io.StringIO(to_csv(report))))[1:] == [
        ["'" * (k[0] in "=+-@\t\r") + k, "7", "", "", "", ""] for k in HOSTILE_KEYS]
    assert to_csv(report) == ("key,group,linked_to,similarity,rule,deleted\n'=cmd|' /C calc'!A0,7,,,,\n'+k,7,,,,\n"
                              "'-5,7,,,,\n'@k,7,,,,\n'\tk,7,,,,\n\"'\rk\",\"7\",\"\",\"\",\"\",\"\"\n"
                              "a\x1b]0;pwned\x07,7,,,,\n\"b\nc\",7,,,,\nk=1,7,,,,\n")


def test_csv_display_values_and_links_are_neutralised_too():
    report = {"groups": [{"group": 1, "rows": [{"key": "1", "distance": 0, "name": "=1+1", "city": None},
                                               {"key": "-2", "distance": 3, "name": "@x", "city": "北京"}],
                          "pairs": [{"a": "1", "b": "-2", "distance": 3, "rule": "=rule"}]}]}
    assert to_csv(report, ("name", "city")) == ("key,group,name,city,linked_to,similarity,rule,deleted\n"
                                                "1,1,'=1+1,,'-2,0.953,'=rule,\n'-2,1,'@x,北京,1,0.953,'=rule,\n")


def test_report_csv_and_table_on_hostile_keys_on_each_database(runner, db_url, tmp_path):
    """Keys and display values straight from the table: the CSV opens as text in a spreadsheet, the
    terminal table shows escapes instead of obeying them, one line per row."""
    keys = ["=cmd|' /C calc'!A0", "-5", "@k", "a\x1b]0;pwned\x07", "b\nc"]
    rows = [dict(petition(0, BASE, "\x1b[1mX"), id=k) for k in keys] + [dict(petition(0, OTHER), id="z")]
    make_table(db_url, rows, key_type=sa.String(40))
    cfg = config_file(tmp_path, db_url, db_url)
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    out = runner.invoke(main, ["-c", str(cfg), "report", "-f", "csv"])
    assert out.exit_code == 0
    assert [r[:2] for r in csv.reader(io.StringIO(out.output))][1:] == [
        ["'-5", "1"], ["'=cmd|' /C calc'!A0", "1"], ["'@k", "1"], ["a\x1b]0;pwned\x07", "1"], ["b\nc", "1"]]
    table = runner.invoke(main, ["-c", str(cfg), "report"]).output
    assert not set(CONTROL) & set(table)
    assert table == ("petitions: 1 duplicate groups, 5 rows "  # wrapped at 100 columns, off a terminal
                     "(matched by similarity: the number that decided each link,\n100% = the same)\n\n"
                     "                 key  name      most similar to\n\n"
                     "group 1: 5 rows, weakest link -5 – =cmd|' /C calc'!A0: 100% (similar text)\n"
                     "                  -5  \\x1b[1mX  =cmd|' /C calc'!A0 100% similar text\n"
                     "  =cmd|' /C calc'!A0  \\x1b[1mX  -5 100% similar text\n"
                     "                  @k  \\x1b[1mX  -5 100% similar text\n"
                     "   a\\x1b]0;pwned\\x07  \\x1b[1mX  -5 100% similar text\n"
                     "                b\\nc  \\x1b[1mX  -5 100% similar text\n")


# -- 11. terminal escapes ------------------------------------------------------------------------

def test_visible_escapes_controls_and_bidi_marks():
    assert visible("a\x1b]0;pwned\x07b\n\r\t\x00\x7f\x9b\u202e\u2028 中文 ok") == \
        "a\\x1b]0;pwned\\x07b\\n\\r\\t\\x00\\x7f\\x9b\\u202e\\u2028 中文 ok"


def test_table_report_escapes_keys_cells_and_headers():
    report = {"table": "t\x1b[2J", "max_distance": 3, "note": "n\x07",
              "groups": [{"group": 1, "size": 2, "pairs": [{"a": "a\x1b]0;x\x07", "b": "b\nc", "distance": 1}],
                          "rows": [{"key": "a\x1b]0;x\x07", "distance": 0, "name": "x\x1bq"},
                                   {"key": "b\nc", "distance": 1, "name": "y"}]}],
              "skipped": [{"key": "u\x1b", "reason": "unreadable"}]}
    assert to_table(report, ("name",)) == (
        "t\\x1b[2J: 1 duplicate groups, 2 rows (fingerprints within 3 bits; similarity 100% = the same)\nn\\x07\n\n"
        "            key  name    most similar to\n\n"
        "group 1: 2 rows, weakest link a\\x1b]0;x\\x07 – b\\nc: 98%\n"
        "  a\\x1b]0;x\\x07  x\\x1bq  b\\nc 98%\n"
        "           b\\nc  y       a\\x1b]0;x\\x07 98%\n\n"
        "skipped: 0 rows without features, 1 unreadable (u\\x1b)\n")


def test_eval_text_escapes_keys_and_labels():
    result = {"table": "t\x1b", "rows": 2, "truth_clusters": 1, "sweeps": [],
              "current": {"label": "max_distance=3", "precision": 1, "recall": 1, "f1": 1, "groups": 1},
              "false_pairs": [{"a": "x\x1b]0;p\x07", "b": "y\nz", "distance": 1, "similarity": 0.9,
                               "a_cluster": "c\x07", "b_cluster": "d"}]}
    text = render_eval_text(result)
    assert not set(CONTROL) & set(text)
    assert text.splitlines()[0] == "t\\x1b: 2 rows, 1 truth clusters"
    assert text.splitlines()[-1] == "  x\\x1b]0;p\\x07  y\\nz         1       0.900  c\\x07      d"


def test_error_lines_escape_control_characters(runner, tmp_path):
    path = tmp_path / "x\x1b]0;pwned\x07.yaml"
    out = runner.invoke(main, ["-c", str(path), "full"])
    assert (out.exit_code, out.output) == (
        2, f"Error: config file not found: {tmp_path}/x\\x1b]0;pwned\\x07.yaml (pass -c FILE or set DEDUP_CONFIG)\n")


# -- 12. passwords ------------------------------------------------------------------------------

NASTY = ["HUNTER2@xyz", "pa:ss@w/rd", "a/b@cde", "S3cr#t?x&y", "abc@@defg", "me@example.com", "p%40ss%2Fw0rd%3A",
         "pass word@zz"]


def pieces(secret: str) -> set[str]:
    out = set()
    for s in {secret, unquote(secret)}:
        out |= {s} | {p for p in s.replace(":", "@").replace("/", "@").split("@") if len(p) >= 3}
    return out


@pytest.mark.parametrize("password", NASTY)
def test_nasty_passwords_never_show(password):
    url = f"postgresql+psycopg://postgres:{password}@127.0.0.1:5432/db"
    masked = mask_secrets(f"store {url}: failed")
    assert masked == "store postgresql+psycopg://postgres:***@127.0.0.1:5432/db: failed" or " " in password
    remember_secrets(url)
    host = url.split("@", 2)[-1].split("/")[0]  # what a driver that stops the password at the first @ calls the host
    echoes = [f"{url}: failed to resolve host '{host}'", f"Can't connect to MySQL server on '{host}'",
              f"password authentication failed: {password}", f"bad password {unquote(password)}"]
    for text in echoes:
        shown = mask_secrets(text)
        assert not any(p in shown for p in pieces(password)), shown


def test_masking_keeps_a_scheme_that_contains_the_password():
    remember_secrets("postgresql://postgres:postgres@h/db")
    assert mask_secrets("postgresql://postgres:postgres@h/db") == "postgresql://***:***@h/db"


@pytest.mark.parametrize("scheme", ["postgresql+psycopg", "mysql+pymysql"])
@pytest.mark.parametrize("verbose", [[], ["-v"]])
def test_driver_errors_echoing_part_of_a_password_are_masked(runner, tmp_path, scheme, verbose):
    """The driver reads 'xyz@127.0.0.1' as the host and says so; neither half of the password shows."""
    cfg = config_file(tmp_path, f"{scheme}://u:HUNTER2@xyz@127.0.0.1:1/x?connect_timeout=2")
    out = runner.invoke(main, verbose + ["-c", str(cfg), "full"])
    assert out.exit_code == 1 and "HUNTER2" not in out.output and "xyz" not in out.output, out.output
    assert "u:***@127.0.0.1:1/x" in out.output and ("Traceback" in out.output) == bool(verbose)


def test_unexpected_errors_with_v_log_a_masked_traceback(runner, project, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("lost postgresql://u:HUNTER2@xyz@h/db")
    monkeypatch.setattr("dedup.cli.runs.run_full_with_progress", boom)
    out = runner.invoke(main, ["-v", "-c", str(project), "full"])
    assert out.exit_code == 1 and "Traceback" in out.output and "HUNTER2" not in out.output
    assert out.output.endswith("Error: RuntimeError: lost postgresql://u:***@h/db\n")


# -- 13. duplicate YAML keys --------------------------------------------------------------------

def test_duplicate_yaml_keys_are_refused_with_their_path_and_lines(runner, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text('source: {url: "sqlite://"}\nsource: {url: "sqlite:///b.db"}\ntables:\n  t:\n    key: id\n'
                   "    fields:\n      title: text\n      title: short\n", encoding="utf-8")
    out = runner.invoke(main, ["-c", str(cfg), "full"])
    assert (out.exit_code, out.output) == (2, f"Error: {cfg}: source: given twice (lines 1 and 2); keep one; "
                                              "tables.t.fields.title: given twice (lines 7 and 8); keep one\n")


def test_recursive_and_merged_yaml_is_not_a_duplicate(runner, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text('base: &b {url: "sqlite://"}\nsource: {<<: *b, url: "sqlite:///x.db"}\nloop: &l [*l]\n', encoding="utf-8")
    out = runner.invoke(main, ["-c", str(cfg), "full"])
    assert out.exit_code == 2 and "given twice" not in out.output and "base: unknown key" in out.output


# -- 14. read-only stores and output paths -------------------------------------------------------

def _read_only_runner(directory: Path):
    """A command prefix that sees ``directory`` read-only: a read-only bind mount for root (whom
    permissions do not stop), chmod for anyone else. None when neither can be had."""
    if os.geteuid() != 0:
        return []
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        return None
    d = str(directory)
    return ["unshare", "-m", "sh", "-c", f"mount --bind '{d}' '{d}' && mount -o remount,bind,ro '{d}' && exec \"$@\"",
            "sh"]


def test_report_reads_a_store_in_a_read_only_directory(runner, tmp_path):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE, "张三"), petition(2, OTHER), petition(3, BASE, "张三")])
    (tmp_path / "st").mkdir()
    cfg = config_file(tmp_path, "sqlite:///src.db", "sqlite:///st/store.db")
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    before = sorted(p.name for p in (tmp_path / "st").iterdir())
    prefix = _read_only_runner(tmp_path / "st")
    if prefix is None:
        pytest.skip("no way to make a read-only directory here (root without unshare -m)")
    if not prefix:
        os.chmod(tmp_path / "st" / "store.db", 0o444)
        os.chmod(tmp_path / "st", 0o555)
    try:
        out = subprocess.run(prefix + [sys.executable, "-m", "dedup.cli", "-c", str(cfg), "report", "-f", "csv"],
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        os.chmod(tmp_path / "st", 0o755)
    assert (out.returncode, out.stdout, out.stderr) == (0, CSV_1_3, "")
    assert sorted(p.name for p in (tmp_path / "st").iterdir()) == before


def test_a_sqlite_uri_store_is_honoured(runner, project, tmp_path):
    ro = config_file(tmp_path, "sqlite:///src.db", "sqlite:///file:store.db?mode=ro")
    out = runner.invoke(main, ["-c", str(ro), "report", "-f", "csv"])
    assert (out.exit_code, out.output) == (0, CSV_1_3)
    out = runner.invoke(main, ["-c", str(ro), "full", "-q"])
    assert out.exit_code == 1 and out.output.endswith("attempt to write a readonly database\n")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("file:")]  # no file named "file:store.db…"
    cfg = parse_config({"source": {"url": "sqlite:///file:src.db?mode=ro"}, "tables": {"t": {"key": "id", "fields": {"a": "text"}}}},
                       base_dir=tmp_path)
    assert cfg.source_url == f"sqlite:///file:{tmp_path}/src.db?mode=ro&uri=true"


def test_report_writes_nothing_to_a_store(runner, tmp_path):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE)])
    cfg = config_file(tmp_path, "sqlite:///src.db")
    out = runner.invoke(main, ["-c", str(cfg), "report", "-f", "json", "--no-source"])
    assert out.exit_code == 0 and "run `dedup full` first" in json.loads(out.output)["note"]
    assert not (tmp_path / "store.db").exists()


def test_report_creates_no_store_tables_on_each_database(runner, db_url, tmp_path):
    make_table(db_url, [petition(1, BASE)])
    cfg = config_file(tmp_path, db_url, db_url)
    out = runner.invoke(main, ["-c", str(cfg), "report", "-f", "json"])
    assert out.exit_code == 0 and json.loads(out.output)["groups"] == []
    engine = sa.create_engine(db_url)
    assert sa.inspect(engine).get_table_names() == ["petitions"]
    engine.dispose()


def test_report_on_a_store_that_needs_migrating_says_so(runner, project, tmp_path):
    with sqlite3.connect(tmp_path / "store.db") as conn:
        conn.execute("UPDATE dedup_alembic_version SET version_num = '0002'")
    out = runner.invoke(main, ["-c", str(project), "report", "--no-source"])
    assert (out.exit_code, out.output) == (
        1, f"Error: the store's schema is at revision 0002, this dedup needs {head_revision()}: run `dedup migrate`\n")


@pytest.mark.parametrize("command", [["report"], ["eval", "--truth-column", "name"]])
def test_output_paths_are_checked_before_any_work(runner, tmp_path, command):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE)])
    cfg = config_file(tmp_path, "sqlite:///src.db")
    for target, problem in [(tmp_path / "no" / "x.json", f"directory {tmp_path / 'no'} does not exist"),
                            (tmp_path, "it is a directory")]:
        out = runner.invoke(main, ["-c", str(cfg)] + command + ["-o", str(target)])
        assert (out.exit_code, out.output) == (2, f"Error: cannot write --output {target}: {problem}\n")
    assert not (tmp_path / "store.db").exists()


# -- 9. Ctrl-C ----------------------------------------------------------------------------------

def test_ctrl_c_outside_a_command_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt
    monkeypatch.setattr("dedup.cli.base.logging.basicConfig", interrupted)  # inside main, before any command
    monkeypatch.setattr(sys, "argv", ["dedup", "report"])
    with pytest.raises(SystemExit) as e:
        entry()
    assert e.value.code == 130
    assert capsys.readouterr().err == "\nError: interrupted; nothing was written for the unfinished run\n"


def test_the_console_script_is_the_entry_wrapper():
    assert 'dedup = "dedup.console:main"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_ctrl_c_while_dedup_is_still_importing_is_one_line_and_exit_130(monkeypatch, capsys):
    from dedup import console

    class Interrupted:  # Ctrl-C arriving while the command line's modules are being imported
        def find_spec(self, name, path=None, target=None):
            if name == "dedup.cli":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "dedup.cli", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupted(), *sys.meta_path])
    with pytest.raises(SystemExit) as e:
        console.main()
    assert e.value.code == 130
    assert capsys.readouterr().err == "\nError: interrupted; nothing was written for the unfinished run\n"


def test_entry_keeps_exit_codes_and_usage_errors(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["dedup", "report", "--format", "xml"])
    with pytest.raises(SystemExit) as e:
        entry()
    assert e.value.code == 2 and "Invalid value for '-f' / '--format'" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["dedup", "-c", "/nonexistent.yaml", "full"])
    with pytest.raises(SystemExit) as e:
        entry()
    assert e.value.code == 2


# -- 15. wide record tables ---------------------------------------------------------------------

def wide_table(n: int, fingerprint: str | None = None, match: str | None = None) -> dict:
    table = {"key": "id", "fields": {f"f{i}": "short" for i in range(n)}}
    return {"source": {"url": "sqlite://"}, **({"match": {"method": match}} if match else {}),
            "tables": {"people": {**table, **({"fingerprint": fingerprint} if fingerprint else {})}}}


def test_the_record_recipe_takes_any_number_of_fields_without_a_word(caplog):
    with caplog.at_level("WARNING", logger="dedup"):
        assert parse_config(wide_table(12)).table("people").fingerprint == "fields"
        assert parse_config(wide_table(12, "fields")).table("people").fingerprint == "fields"
    assert caplog.records == []


def test_the_papers_fields_fingerprint_over_8_fields_compares_whole_rows_and_says_so_once(caplog):
    with caplog.at_level("WARNING", logger="dedup"):
        assert parse_config(wide_table(10, match="simhash")).table("people").fingerprint == "row"
    assert [r.getMessage() for r in caplog.records] == [
        "tables.people: 10 fields without text, more than a fields fingerprint takes (8): comparing whole rows; "
        "set fingerprint: row to say so"]
    assert parse_config(wide_table(8, match="simhash")).table("people").fingerprint == "fields"


def test_an_explicit_papers_fields_fingerprint_over_8_fields_says_what_to_do():
    with pytest.raises(ConfigError) as e:
        parse_config(wide_table(10, "fields", match="simhash"))
    assert str(e.value) == ("config: tables.people.fingerprint: a fields fingerprint needs 2 to 8 fields, not 10: "
                            "set fingerprint: row, or keep at most 8 fields")


def test_a_12_field_record_table_runs_and_groups_the_copy(runner, tmp_path):
    n = 12
    with sqlite3.connect(tmp_path / "src.db") as conn:
        conn.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, " + ", ".join(f"f{i} TEXT" for i in range(n)) + ")")
        rng = random.Random(5)
        people = [["".join(rng.choices(string.ascii_lowercase, k=8)) for _ in range(n)] for _ in range(40)]
        copy = list(people[6])  # row 41 copies person 7 with a typo in one field
        copy[3] = copy[3][:4] + "x" + copy[3][5:]
        for key, values in enumerate(people + [copy], start=1):
            conn.execute("INSERT INTO people VALUES (?, " + ", ".join("?" * n) + ")", [key] + values)
    fields = ", ".join(f"f{i}: short" for i in range(n))
    cfg = config_file(tmp_path, "sqlite:///src.db", table=f"tables:\n  people: {{key: id, fields: {{{fields}}}}}\n")
    out = runner.invoke(main, ["-c", str(cfg), "full", "-q"])
    assert out.exit_code == 0, out.output
    assert "WARNING" not in out.output and "people: 41 rows, 1 groups, 2 rows in groups" in out.output, out.output


def test_a_key_value_shared_by_hundreds_of_rows_is_switched_off_and_said(runner, tmp_path):
    with sqlite3.connect(tmp_path / "src.db") as conn:
        conn.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, phone TEXT, id_number TEXT)")
        conn.executemany("INSERT INTO people VALUES (?, ?, ?, ?)",
                         [(k, f"name{k}", "13800000000" if k <= 300 else f"139{k:08d}", f"{k:018d}")
                          for k in range(1, 601)])
    cfg = config_file(tmp_path, "sqlite:///src.db",
                      table="tables:\n  people: {key: id, fields: {name: short, phone: short, id_number: short}}\n")
    out = runner.invoke(main, ["-c", str(cfg), "full", "-q"])
    assert out.exit_code == 0, out.output
    assert "people: 1 key values are each shared by more than 200 rows (the largest by 300)" in out.output

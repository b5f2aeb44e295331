"""Every command that prints data spells its format and its file the same way (``-f/--format``,
``-o/--output``), and the old ``--json`` flags still work as hidden aliases of ``--format json``."""

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from dedup.cli import main
from test_cli import project  # noqa: F401  (the fixture: a SQLite source with one duplicate pair)

ROOT_COMMANDS = {"full": [], "incremental": [], "runs": [], "status": [], "explain": ["1", "3"],
                 "decide": ["--history"]}


@pytest.fixture
def ran(project):  # noqa: F811
    """The project after one full run, and a function that runs a command on it."""
    def cli(*args, code=0):
        out = CliRunner().invoke(main, ["-c", str(project), *args])
        assert out.exit_code == code, out.output
        return out
    cli("full", "-q")
    return cli


@pytest.mark.parametrize("command", sorted(ROOT_COMMANDS))
def test_each_data_command_takes_format_and_output_and_hides_json(command):
    params = {p.name: p for p in main.commands[command].params}
    assert params["fmt"].opts == ["-f", "--format"] and "json" in params["fmt"].type.choices
    assert params["output"].opts == ["-o", "--output"]
    assert params["as_json"].opts == ["--json"] and params["as_json"].hidden


@pytest.mark.parametrize("args", [["runs"], ["explain", "1", "3"], ["decide", "--history"]])
def test_the_old_json_flag_is_format_json(ran, args):
    new = ran(*args, "--format", "json").stdout
    assert json.loads(new) is not None
    assert ran(*args, "--json").stdout == new == ran(*args, "-f", "json").stdout
    assert ran(*args).stdout != new  # text by default


def test_run_summaries_as_json_with_either_spelling(ran):
    for args in (["full", "--json"], ["full", "-f", "json"], ["incremental", "--json"], ["incremental", "-f", "json"]):
        summary = json.loads(ran(*args).stdout)
        assert summary["table"] == "petitions" and "seconds" in summary
    assert re.match(r"\S+Z petitions: 4 rows, 1 groups, 2 rows in groups", ran("full", "-q").stdout)


@pytest.mark.parametrize("args", [["runs"], ["status"], ["explain", "1", "3"], ["explain", "1", "3", "-f", "json"],
                                  ["decide", "--history", "-f", "json"], ["full", "-q"], ["incremental", "-q"]])
def test_output_writes_to_a_file_what_stdout_would_show(ran, tmp_path, args):
    target = tmp_path / "out.txt"
    out = ran(*args, "-o", str(target))
    assert out.stdout == "" and out.stderr.endswith(f"wrote {target}\n")
    written = target.read_text(encoding="utf-8")
    if args[0] in ("full", "incremental"):  # a new run: a new line, the same shape
        assert re.fullmatch(r"\S+Z petitions: [^\n]+ s( \(\d+ rows/s\))?\n", written), written
    else:
        shown = ran(*args).stdout.replace("\x1b[7m", "").replace("\x1b[0m", "")
        if args[0] == "status":  # says how long ago the last run was: the seconds move between the two calls
            written, shown = (re.sub(r"\d+(\.\d+)?", "#", t) for t in (written, shown))
        assert written == shown


def test_an_output_that_cannot_be_written_is_refused_before_the_run(project, tmp_path):  # noqa: F811
    out = CliRunner().invoke(main, ["-c", str(project), "full", "-o", str(tmp_path)])
    assert (out.exit_code, out.output) == (2, f"Error: cannot write --output {tmp_path}: it is a directory\n")
    assert not (tmp_path / "store.db").exists()
    bad = CliRunner().invoke(main, ["-c", str(project), "runs", "--format", "yaml"])
    assert bad.exit_code == 2 and "'yaml' is not one of 'text', 'json'" in bad.output


@pytest.mark.parametrize("module", ["dedup", "dedup.cli"])
def test_python_m_runs_the_command_line(module):
    out = subprocess.run([sys.executable, "-m", module, "runs", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "-f, --format [text|json]" in out.stdout and "--json" not in out.stdout

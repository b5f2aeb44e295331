"""Errors that say what to do: the extra a missing driver needs, the tables a wrong table name could
have meant, `-c` after the command, usage errors exit 2 (issue 25)."""

import sys

import pytest
from click.testing import CliRunner

from dedup.cli import main
from helpers import make_table, petition
from test_pipeline import BASE


@pytest.fixture
def runner():
    return CliRunner()


def _config(tmp_path, source: str, store: str = "sqlite:///store.db", table: str = "petitions"):
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text(f'source: {{url: "{source}"}}\nstore: {{url: "{store}"}}\n'
                   f"tables:\n  {table}:\n    key: id\n    watermark: updated_at\n    fields: {{name: short, content: text}}\n", encoding="utf-8")
    return cfg


@pytest.mark.parametrize("url, module, extra", [
    ("postgresql+psycopg://u@127.0.0.1/x", "psycopg", "postgres"),
    ("postgres://u@127.0.0.1/x", "psycopg", "postgres"),
    ("postgresql://u@127.0.0.1/x", "psycopg", "postgres"),
    ("mysql+pymysql://u@127.0.0.1/x", "pymysql", "mysql"),
])
def test_a_missing_driver_names_the_extra(runner, tmp_path, monkeypatch, url, module, extra):
    monkeypatch.setitem(sys.modules, module, None)  # as if the driver were not installed
    result = runner.invoke(main, ["-c", str(_config(tmp_path, url)), "full"])
    assert (result.exit_code, result.output) == (
        2, f"Error: source.url: cannot use {url}: No module named '{module}'; pip install 'dedup[{extra}]'\n")
    result = runner.invoke(main, ["-c", str(_config(tmp_path, "sqlite:///src.db", store=url)), "runs"])
    assert (result.exit_code, result.output) == (
        2, f"Error: store.url: cannot use {url}: No module named '{module}'; pip install 'dedup[{extra}]'\n")


def test_a_missing_pyspark_is_a_usage_error_naming_the_extra(runner, tmp_path, monkeypatch):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE, "张三")])
    monkeypatch.setitem(sys.modules, "pyspark", None)
    result = runner.invoke(main, ["-c", str(_config(tmp_path, "sqlite:///src.db")), "full", "--engine", "spark"])
    assert (result.exit_code, result.output) == (
        2, "Error: --engine spark needs PySpark: No module named 'pyspark'; pip install 'dedup[spark]'\n")


def test_postgres_scheme_is_postgresql_through_psycopg(runner, tmp_path, postgres_url):
    make_table(postgres_url, [petition(1, BASE, "张三"), petition(2, BASE, "张三")])
    url = postgres_url.replace("postgresql+psycopg://", "postgres://")
    bare = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    for source, store in ((url, "sqlite:///store.db"), (bare, url)):
        result = runner.invoke(main, ["-c", str(_config(tmp_path, source, store=store)), "full"])
        assert result.exit_code == 0, result.output
        assert ": 2 rows, 1 groups, 2 rows in groups" in result.output


def test_a_wrong_table_lists_the_tables_of_the_database(runner, tmp_path, db_url):
    make_table(db_url, [petition(1, BASE, "张三")])
    make_table(db_url, [], name="cases")
    result = runner.invoke(main, ["-c", str(_config(tmp_path, db_url, table="petition")), "full"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: tables.petition: table 'petition' not found in the source database ")
    assert result.output.endswith(" (tables: cases, petitions)\n")


def test_config_after_the_command(runner, tmp_path, monkeypatch):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE, "张三"), petition(2, BASE, "张三")])
    cfg = _config(tmp_path, "sqlite:///src.db")
    monkeypatch.chdir(tmp_path.parent)  # no ./dedup.yaml: only -c finds it
    result = runner.invoke(main, ["full", "-c", str(cfg)])
    assert (result.exit_code, result.output.split(",")[0].split(" ", 1)[1]) == (0, "petitions: 2 rows")
    for args in (["runs"], ["incremental"], ["report", "-f", "json"], ["decisions", "export"], ["migrate"]):
        result = runner.invoke(main, [*args, "--config", str(cfg)])
        assert result.exit_code == 0, (args, result.output)
    result = runner.invoke(main, ["-c", "nope.yaml", "runs", "-c", str(cfg)])  # the command's own wins
    assert result.exit_code == 0, result.output


def test_every_command_that_reads_a_config_takes_c_after_it():
    def commands(group, path=()):
        for name, cmd in group.commands.items():
            yield path + (name,), cmd
            if hasattr(cmd, "commands"):
                yield from commands(cmd, path + (name,))
    for path, cmd in commands(main):
        if path not in (("demo",), ("init",)) and not hasattr(cmd, "commands"):  # these two read no config
            assert any("-c" in p.opts for p in cmd.params), path


def test_usage_errors_inside_a_command_exit_2(runner, tmp_path):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE, "张三")])
    cfg = _config(tmp_path, "sqlite:///src.db")
    result = runner.invoke(main, ["-c", str(cfg), "eval", "--distances", "a,b", "--truth-column", "name"])
    assert result.exit_code == 2
    assert result.output == "Error: Invalid value: expected numbers separated by commas, got 'a,b'\n"


def test_eval_says_when_it_caps_a_list_and_how_many_rows_lack_truth(runner, tmp_path):
    """12 identical rows in 12 truth clusters are 66 false pairs: the text shows 10 and says so; the
    result keeps 50 and the JSON's counts say how many there were; 3 rows have no label."""
    from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db

    sample = generate_petitions(4, seed=3)
    rows = [dict(sample.rows[0], id=i) for i in range(1, 13)] + [dict(r, id=12 + n) for n, r in enumerate(sample.rows[1:], 1)]
    write_sample_db(f"sqlite:///{tmp_path / 'src.db'}", SampleTable(rows, {}))
    cfg = _config(tmp_path, "sqlite:///src.db")
    truth = tmp_path / "truth.csv"
    truth.write_text("key,cluster\n" + "".join(f"{i},c{i}\n" for i in range(1, 13)), encoding="utf-8")
    result = runner.invoke(main, ["-c", str(cfg), "eval", "--truth", str(truth), "-q"])
    assert result.exit_code == 0, result.output
    assert "warning: 3 of 15 rows have no truth label; each counts as a cluster of its own\n" in result.output
    assert "\nfalse pairs: 10 of 66 shown\n" in result.output
    assert "\nmissed pairs: 0\n" in result.output

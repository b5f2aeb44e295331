"""Small command-line items of issue 27 (item 9): a table name holding terminal escapes is printed
escaped by `full`, `incremental` and `runs`; `decisions import` refuses a key of no row (exit 2,
nothing imported) and reads UTF-16 with a byte order mark, refusing other encodings in one line."""

import re

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from mongo_fixtures import mongo_live_url  # noqa: F401  (fixture)
from test_decisions import cli, project, report  # noqa: F401  (fixture: SQLite, mongomock, live MongoDB)

from dedup.cli import main
from helpers import make_table, petition
from test_pipeline import BASE

HOSTILE_TABLE = "pet\x1b]0;pwned\x07\x1b[2Jitions"
SHOWN = "pet\\x1b]0;pwned\\x07\\x1b[2Jitions"


def test_a_table_name_with_terminal_escapes_is_printed_escaped(tmp_path):
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [petition(1, BASE), petition(2, BASE)], name=HOSTILE_TABLE)
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
                   'tables:\n  "pet\\e]0;pwned\\a\\e[2Jitions": {key: id, watermark: updated_at, fields: {content: text}}\n', encoding="utf-8")
    outputs = []
    for command in (["full", "-q"], ["incremental", "-q"], ["runs"]):
        result = CliRunner().invoke(main, ["-c", str(cfg), *command])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert all("\x1b" not in out and "\x07" not in out for out in outputs)
    # each line starts with its run's start time (`2026-11-26T02:30:00Z `), then the table's name
    assert [re.sub(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", "", out).split(":")[0] for out in outputs] == [SHOWN] * 3


def _pair(cfg) -> tuple[str, str]:
    rows = report(cfg)["groups"][0]["rows"]
    return rows[0]["key"], rows[1]["key"]


def test_decisions_import_refuses_a_key_of_no_row(project, tmp_path):
    a, _ = _pair(project)
    f = tmp_path / "in.csv"
    f.write_text(f"a,b,verdict\n{a},999999,different\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["-c", str(project), "decisions", "import", str(f)])
    assert (out.exit_code, out.output) == (2, "Error: no fingerprinted row with key '999999' in 'petitions'\n")
    assert cli(project, "decisions", "export") == "a,b,verdict,decided_at,source,similarity,reviewer,note,action\n"


@pytest.mark.parametrize("encoding, sep", [("utf-16", ","), ("utf-16", "\t"), ("utf-16-be", ","), ("utf-8-sig", ",")])
def test_decisions_import_reads_utf16_with_its_byte_order_mark(project, tmp_path, encoding, sep):
    a, b = _pair(project)
    f = tmp_path / "in.csv"
    text = f"a{sep}b{sep}verdict\n{a}{sep}{b}{sep}different\n"
    f.write_bytes((("\ufeff" if encoding == "utf-16-be" else "") + text).encode(encoding))  # the others add theirs
    assert "imported 1 decisions" in cli(project, "decisions", "import", str(f))
    assert cli(project, "decisions", "export").splitlines()[1].split(",")[:3] == [a, b, "different"]


@pytest.mark.parametrize("data", ["a,b,verdict\n1,2,same\n".encode("utf-16-le"), "甲,乙,same\n".encode("gbk")],
                         ids=["utf-16-without-bom", "gbk"])
def test_decisions_import_refuses_other_encodings_in_one_line(project, tmp_path, data):
    f = tmp_path / "in.csv"
    f.write_bytes(data)
    out = CliRunner().invoke(main, ["-c", str(project), "decisions", "import", str(f)])
    assert (out.exit_code, out.output) == (
        2, f"Error: {f}: not UTF-8 text (nor UTF-16 with a byte order mark): save it as CSV UTF-8\n")


def test_decide_prints_keys_with_terminal_escapes_escaped(tmp_path):
    hostile = "k\x1b]0;pwned\x07"
    url = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(url, [{**petition(1, BASE), "id": hostile}, {**petition(2, BASE), "id": "plain"}], key_type=sa.String(40))
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
                   "tables: {petitions: {key: id, watermark: updated_at, fields: {content: text}}}\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    for verdict in ("--different", "--forget"):
        result = CliRunner().invoke(main, ["-c", str(cfg), "decide", hostile, "plain", verdict])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output and "k\\x1b]0;pwned\\x07" in result.output

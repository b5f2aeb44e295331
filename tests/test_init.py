"""`dedup init URL --table T`: tables dedup has never seen get a config that runs as written, and on
labelled sets it scores within 0.02 F1 of the hand-written config."""

from __future__ import annotations

import json
import os
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from click.testing import CliRunner

from dedup.cli import main
from dedup.config import load_config
from dedup.db.guess import _public_url
from dedup.demo import prepare_demo
from dedup.demo.generator import generate_petitions, write_sample_db

from bench.datasets.heldout import persons_wide
from bench.datasets.labelled import persons as labelled_persons


@pytest.fixture
def runner():
    return CliRunner()


def init(runner, url: str, table: str, out: Path, *more: str):
    return runner.invoke(main, ["init", url, "--table", table, "-o", str(out), *more])


def full_groups(runner, config: Path, table: str) -> list:
    """`dedup full` from the config as written, then the report's groups."""
    done = runner.invoke(main, ["-c", str(config), "full", "--table", table, "-q"])
    assert done.exit_code == 0, done.output
    report = runner.invoke(main, ["-c", str(config), "report", "--table", table, "--format", "json"])
    assert report.exit_code == 0, report.output
    return json.loads(report.stdout)["groups"]


def f1(runner, config: Path, truth: Path) -> float:
    result = runner.invoke(main, ["-c", str(config), "eval", "--truth", str(truth), "-f", "json", "-q"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["current"]["f1"]


def test_demo_table_gets_the_demo_config_and_scores_as_it_does(runner, tmp_path):
    hand = prepare_demo(tmp_path, rows=600, seed=3)
    out = tmp_path / "init.yaml"
    result = init(runner, f"sqlite:///{tmp_path / 'petitions.db'}", "petitions", out)
    assert result.exit_code == 0, result.output
    table = load_config(out).table("petitions")
    assert table.key == "id" and table.watermark == "updated_at"
    assert table.date_column == "updated_at"  # no column says when a row was filed: the watermark's date
    assert "date column: updated_at (the watermark's date/time" in result.stderr
    assert {f.name: f.kind for f in table.fields} == {"name": "short", "phone": "short", "address": "short",
                                                      "title": "text", "content": "text"}
    assert "# category: left out, " in out.read_text(encoding="utf-8")
    assert "left out category" in result.stderr and "key: id (the primary key)" in result.stderr
    assert load_config(out).store_url == f"sqlite:///{tmp_path / 'init-store.db'}"
    assert f1(runner, out, tmp_path / "truth.csv") >= f1(runner, hand, tmp_path / "truth.csv") - 0.02
    assert full_groups(runner, out, "petitions")


def test_server_tables_run_from_the_written_config(runner, tmp_path, db_url):
    """The demo's petitions written to SQLite, PostgreSQL and MariaDB (MEDIUMTEXT, DATETIME there)."""
    write_sample_db(db_url, generate_petitions(300, seed=5))
    out = tmp_path / "dedup.yaml"
    result = init(runner, db_url, "petitions", out)
    assert result.exit_code == 0, result.output
    assert {f.name for f in load_config(out).table("petitions").fields} >= {"title", "content", "name"}
    assert full_groups(runner, out, "petitions")


def _tickets(url: str) -> None:
    """An English support-ticket table: no primary key, a unique text ticket number, a status of
    few values, some tickets filed twice with small edits."""
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    t = sa.Table("tickets", meta, sa.Column("ticket_no", sa.String(20), unique=True, nullable=False),
                 sa.Column("customer", sa.String(80)), sa.Column("email", sa.String(120)),
                 sa.Column("status", sa.String(10)), sa.Column("subject", sa.String(200)),
                 sa.Column("body", sa.Text), sa.Column("opened_at", sa.DateTime))
    rng = random.Random(7)
    words = ("printer laptop router invoice password monitor keyboard license backup network update error slow "
             "screen office charged twice monday morning restart cable battery account locked email calendar "
             "meeting folder shared drive access denied server storage quota refund order delivery late "
             "missing parts wrong colour size exchange warranty repair broken cracked noise fan overheating").split()
    rows, t0 = [], datetime(2025, 3, 1)
    for i in range(120):
        body = " ".join(rng.choice(words) for _ in range(30)).capitalize() + ". Please help, regards."
        rows.append({"ticket_no": f"T-{i:05d}", "customer": f"{rng.choice(words).title()} {i} Smith",
                     "email": f"c{i}@example.org", "status": ["open", "closed", "pending"][i % 3],
                     "subject": " ".join(rng.choice(words) for _ in range(4)), "body": "Hello team, " + body,
                     "opened_at": t0 + timedelta(hours=i)})
    for i in range(0, 30, 3):  # refiled with a typo and a changed greeting
        r = dict(rows[i], ticket_no=f"T-{900 + i:05d}", opened_at=t0 + timedelta(days=30, hours=i))
        r["body"] = r["body"].replace("Hello team", "Hi there").replace("Please help", "Please do help")
        rows.append(r)
    with engine.begin() as conn:
        meta.create_all(conn)
        conn.execute(t.insert(), rows)
    engine.dispose()


def test_english_table_without_primary_key(runner, tmp_path):
    url = f"sqlite:///{tmp_path / 'tickets.db'}"
    _tickets(url)
    out = tmp_path / "tickets.yaml"
    result = init(runner, url, "tickets", out)
    assert result.exit_code == 0, result.output
    table = load_config(out).table("tickets")
    assert (table.key, table.watermark, table.date_column) == ("ticket_no", "opened_at", "opened_at")
    assert "    date_column: opened_at  # a date/time set when a row is added" in out.read_text(encoding="utf-8")
    kinds = {f.name: f.kind for f in table.fields}
    assert kinds["body"] == "text" and kinds["email"] == "short" and "status" not in kinds
    groups = full_groups(runner, out, "tickets")
    assert len(groups) >= 8 and all(g["size"] == 2 for g in groups)


def test_person_table_scores_as_the_hand_written_config(runner, tmp_path):
    """bench/datasets/heldout/persons_wide (2,000 rows, 12 columns, text dates) and
    bench/datasets/labelled/persons (800): every guessed config runs, and its F1 is within 0.02 of
    the hand-written one."""
    persons_wide.main(["--rows", "2000", "--seed", "100", "--out", str(tmp_path / "wide")])
    wide = tmp_path / "wide"
    out = wide / "init.yaml"
    result = init(runner, f"sqlite:///{wide / 'persons.db'}", "persons", out)
    assert result.exit_code == 0, result.output
    assert "gender" not in {f.name for f in load_config(out).table("persons").fields}
    assert f1(runner, out, wide / "truth.csv") >= f1(runner, wide / "dedup.yaml", wide / "truth.csv") - 0.02
    assert full_groups(runner, out, "persons")

    lab = tmp_path / "lab"
    lab.mkdir()
    labelled_persons.main(["--rows", "800", "--seed", "5", "--db", str(lab / "persons.db"),
                           "--truth", str(lab / "truth.csv")])
    out = lab / "init.yaml"
    assert init(runner, f"sqlite:///{lab / 'persons.db'}", "persons", out).exit_code == 0
    table = load_config(out).table("persons")
    hand = lab / "hand.yaml"  # bench/quality/bench_quality.py's default for this set
    hand.write_text(yaml.safe_dump({"source": {"url": "sqlite:///persons.db"}, "store": {"url": "sqlite:///h.db"},
                                    "tables": {"persons": {"key": "id", "fields": {
                                        "name": {"kind": "chars", "n": 1, "weight": 2},
                                        "birth_date": {"kind": "chars", "weight": 2},
                                        "id_number": {"kind": "chars", "weight": 3},
                                        "phone": {"kind": "chars", "weight": 1.5},
                                        "address": {"kind": "chars", "weight": 1.5}}}}}), encoding="utf-8")
    assert [f.name for f in table.fields] == ["name", "birth_date", "id_number", "phone", "address"]
    assert f1(runner, out, lab / "truth.csv") >= f1(runner, hand, lab / "truth.csv") - 0.02


def test_an_existing_file_is_kept_unless_forced(runner, tmp_path):
    prepare_demo(tmp_path, rows=100)
    out = tmp_path / "dedup.yaml"
    before = out.read_text(encoding="utf-8")
    result = init(runner, f"sqlite:///{tmp_path / 'petitions.db'}", "petitions", out)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {out} exists: pass --force to overwrite it, or -o another file\n"
    assert out.read_text(encoding="utf-8") == before
    assert init(runner, f"sqlite:///{tmp_path / 'petitions.db'}", "petitions", out, "--force").exit_code == 0
    assert "Written by `dedup init`" in out.read_text(encoding="utf-8")


def test_a_wrong_table_lists_the_tables(runner, tmp_path):
    prepare_demo(tmp_path, rows=50)
    result = init(runner, f"sqlite:///{tmp_path / 'petitions.db'}", "petition", tmp_path / "x.yaml")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: table 'petition' not found in the source database")
    assert result.stderr.endswith("(tables: petitions)\n")
    assert not (tmp_path / "x.yaml").exists()


def test_no_usable_key_writes_nothing(runner, tmp_path):
    url = f"sqlite:///{tmp_path / 'k.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE visits (person TEXT, day TEXT, note TEXT, PRIMARY KEY (person, day))"))
        conn.execute(sa.text("INSERT INTO visits VALUES ('Ann', 'mon', 'x'), ('Ann', 'tue', 'x'), ('Bob', 'mon', 'y')"))
    engine.dispose()
    result = init(runner, url, "visits", tmp_path / "v.yaml")
    assert result.exit_code == 2
    assert result.stderr == ("Error: table 'visits' has a composite primary key, no column declared unique and no "
                             "column whose values are all distinct: dedup needs one key column (add one, e.g. an id "
                             "column with a primary key); nothing written\n")
    assert not (tmp_path / "v.yaml").exists()


def test_an_undeclared_but_distinct_column_is_the_key_and_said_so(runner, tmp_path):
    url = f"sqlite:///{tmp_path / 'u.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE notes (code TEXT, body TEXT)"))
        conn.execute(sa.text("INSERT INTO notes VALUES ('a1', :b), ('a2', :b), ('a3', :c)"),
                     {"b": "the same long body of text, written twice over here", "c": "something else entirely"})
    engine.dispose()
    out = tmp_path / "n.yaml"
    result = init(runner, url, "notes", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "key: code  # not declared unique, but its 3 values are all distinct" in text
    assert "# watermark: none. No column says a row is new or changed" in text
    assert full_groups(runner, out, "notes")[0]["size"] == 2


def test_the_password_is_a_reference(tmp_path):
    url = "postgresql+psycopg://app:s3cr%40t%2Fx@db.example.org:5432/petitions?sslmode=require"
    written, hidden = _public_url(url, tmp_path)
    assert hidden and "s3cr" not in written
    assert written == "postgresql+psycopg://app:${DEDUP_SOURCE_PASSWORD}@db.example.org:5432/petitions?sslmode=require"
    written, hidden = _public_url("mysql+pymysql://app@h/db?password=hunter22", tmp_path)
    assert hidden and written == "mysql+pymysql://app@h/db?password=${DEDUP_SOURCE_PASSWORD}"
    assert _public_url(f"sqlite:///{tmp_path / 'a' / 'p.db'}", tmp_path) == ("sqlite:///a/p.db", False)


def test_a_password_never_reaches_the_file_and_the_config_runs(runner, tmp_path, postgres_url, monkeypatch):
    """PostgreSQL here trusts local connections, so any password connects: the written config
    reads it from $DEDUP_SOURCE_PASSWORD."""
    write_sample_db(postgres_url, generate_petitions(120, seed=9))
    u = sa.make_url(postgres_url).set(password="pa:ss@word")
    out = tmp_path / "pg.yaml"
    result = init(runner, u.render_as_string(hide_password=False), "petitions", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "pa:ss" not in text and "pa%3Ass" not in text and "pa:ss" not in result.output
    assert "${DEDUP_SOURCE_PASSWORD}" in text and "set DEDUP_SOURCE_PASSWORD" in result.stderr
    monkeypatch.setenv("DEDUP_SOURCE_PASSWORD", "pa%3Ass%40word")
    assert load_config(out).source_url == u.render_as_string(hide_password=False)
    assert isinstance(full_groups(runner, out, "petitions"), list)
    monkeypatch.delenv("DEDUP_SOURCE_PASSWORD")
    assert os.environ.get("DEDUP_SOURCE_PASSWORD") is None


def test_odd_names_and_types_and_a_key_for_watermark(runner, tmp_path):
    """Names YAML would misread (spaces, "yes", "n", Chinese) are quoted as needed; amounts, flags and
    binary columns are left out; with no date column the integer primary key is the watermark,
    and incremental runs from the file as written."""
    url = f"sqlite:///{tmp_path / 'odd.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text('CREATE TABLE "Odd Table" (n INTEGER PRIMARY KEY, "Full Name" TEXT, "yes" TEXT, '
                             '"电话" TEXT, amount REAL, flag BOOLEAN, data BLOB)'))
        conn.execute(sa.text('INSERT INTO "Odd Table" ("Full Name", "yes", "电话", amount, flag, data) '
                             "VALUES (:a, :b, :c, :d, :e, :f)"),
                     [{"a": f"Name{i % 150} X", "b": f"v{i}", "c": f"138{i % 170:08d}", "d": i * 1.5, "e": i % 2,
                       "f": b"\x00"} for i in range(200)])
    out = tmp_path / "odd.yaml"
    result = init(runner, url, "Odd Table", out)
    assert result.exit_code == 0, result.output
    assert result.stderr.endswith("next: dedup -c " + str(out) + " full --table 'Odd Table'\n")
    text = out.read_text(encoding="utf-8")
    assert '"Odd Table":' in text and 'key: "n"' in text and "      电话: {kind: chars, weight: 1.5}" in text
    for line in ("# amount: left out, a number", "# flag: left out, yes/no values", "# data: left out, binary data"):
        assert line in text
    table = load_config(out).table("Odd Table")
    assert (table.key, table.watermark) == ("n", "n")
    assert [f.name for f in table.fields] == ["Full Name", "yes", "电话"]
    assert full_groups(runner, out, "Odd Table")
    with engine.begin() as conn:
        conn.execute(sa.text('INSERT INTO "Odd Table" ("Full Name", "yes", "电话") VALUES (\'Name3 X\', \'v3\', '
                             "'13800000003')"))
    engine.dispose()
    more = runner.invoke(main, ["-c", str(out), "incremental"])
    assert more.exit_code == 0 and "1 new rows" in more.output, more.output


def test_missing_sqlite_file_and_empty_table_write_nothing(runner, tmp_path):
    result = init(runner, f"sqlite:///{tmp_path / 'typo.db'}", "t", tmp_path / "c.yaml")
    assert (result.exit_code, result.stderr) == (2, f"Error: no SQLite database file at {tmp_path / 'typo.db'}\n")
    assert not (tmp_path / "typo.db").exists()
    url = f"sqlite:///{tmp_path / 'e.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)"))
    engine.dispose()
    result = init(runner, url, "t", tmp_path / "c.yaml")
    assert result.exit_code == 2 and result.stderr.startswith("Error: table 't' is empty: ")
    assert not (tmp_path / "c.yaml").exists()


def test_a_config_that_cannot_be_written_whole_leaves_the_old_file(runner, tmp_path, monkeypatch):
    """A full disk while init writes: one line, exit 1, the file as it was (as every output file)."""
    import errno

    prepare_demo(tmp_path, rows=50)
    out = tmp_path / "x.yaml"
    out.write_text("old", encoding="utf-8")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    result = init(runner, f"sqlite:///{tmp_path / 'petitions.db'}", "petitions", out, "--force")
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        1, f"Error: cannot write {out}: No space left on device ({out} is as it was)")
    assert out.read_text(encoding="utf-8") == "old"

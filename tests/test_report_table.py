"""The terminal report: fixed columns by display width, NULL in place, lines within the width,
--limit/--min-size/--sort, the pager on a terminal; the CSV's display columns and similarities."""

import csv
import io
import json
import re

import sqlite3

import pytest
from click.testing import CliRunner

import dedup.cli
import dedup.cli.report
from dedup.cli import main
from dedup.index.groups import Group
from dedup.report.build import order_groups
from dedup.report.cells import clip, display_width, fit
from dedup.report.table import to_table
from report_fixtures import report_project


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def cfg(tmp_path, runner):
    cfg = report_project(tmp_path)
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    return cfg


def _report(rows, pairs=()):
    return {"table": "t", "max_distance": 3, "skipped": [],
            "groups": [{"group": 1, "size": len(rows), "rows": rows, "pairs": list(pairs)}]}


def test_display_width_counts_cjk_and_fullwidth_as_two_and_combining_as_none():
    assert [display_width(t) for t in ("abc", "张三", "ＡＢ", "e\u0301", "")] == [3, 4, 4, 1, 0]
    assert [clip(t, 5) for t in ("张三", "张三李四", None, "a\n b")] == ["张三 ", "张三…", "     ", "a b  "]
    assert fit([3, 50, 80], 60) == [3, 28, 29] and fit([3, 4], 60) == [3, 4]


def test_columns_line_up_by_display_width_and_null_keeps_its_place():
    """A line names the columns; each row shows the row it is most similar to, the similarity and the
    rule that accepted the link; the group's heading names its weakest link. No fingerprint distances."""
    rows = [{"key": "1", "distance": 0, "name": "张三", "title": "噪音扰民"},
            {"key": "22", "distance": 12, "name": None, "title": "噪音"},
            {"key": "3", "distance": 3, "name": "Zhang San", "title": None}]
    pairs = [{"a": "1", "b": "22", "distance": 12, "similarity": 0.81, "rule": "content"},
             {"a": "1", "b": "3", "distance": 3, "similarity": 0.9, "rule": "content_identity"}]
    lines = to_table(_report(rows, pairs), ("name", "title")).splitlines()[2:]
    assert lines == ["  key  name       title     most similar to", "",
                     "group 1: 3 rows, weakest link 1 – 22: 81% (similar text)",
                     "    1  张三       噪音扰民  3 90% similar text, an identity field equal",
                     "   22             噪音      1 81% similar text",
                     "    3  Zhang San            1 90% similar text, an identity field equal"]
    # the title column starts at the same terminal column on every row, CJK or not, NULL name or not
    starts = {display_width(line[:line.index("噪")]) for line in lines[3:5]}
    assert starts == {display_width("    3  Zhang San  ")}
    assert "d=" not in "\n".join(lines) and "distance" not in "\n".join(lines)


def test_rows_are_ordered_by_the_date_column_and_headed_by_their_labels():
    """With a date column a group's rows read earliest filed first (rows without a date last), the
    column headed by its label; the JSON order (lowest key first) is left as it is."""
    rows = [{"key": "1", "distance": 0, "filed": "2024-05-02", "name": "张三"},
            {"key": "2", "distance": 1, "filed": None, "name": "张三"},
            {"key": "3", "distance": 1, "filed": "2024-01-09", "name": "张三"}]
    report = dict(_report(rows, [{"a": "1", "b": "2", "distance": 1}, {"a": "1", "b": "3", "distance": 1}]),
                  date_column="filed", labels={"name": "姓名"})
    lines = to_table(report, ("name", "filed")).splitlines()
    assert lines[2].split() == ["key", "filed", "姓名", "most", "similar", "to"]
    assert [line.split()[0] for line in lines[5:8]] == ["3", "1", "2"]
    assert lines[5].split()[1] == "2024-01-09" and [r["key"] for r in report["groups"][0]["rows"]] == ["1", "2", "3"]
    labelled = to_table(dict(report, labels={"filed": "登记日期"}), ("name",)).splitlines()[2]
    assert labelled.split()[:3] == ["key", "登记日期", "name"]


def test_every_line_fits_the_terminal_width():
    long = "长" * 200
    rows = [{"key": "k" * 90, "distance": 5, "name": "名字" * 30, "content": long},
            {"key": "2", "distance": 0, "name": None, "content": long + "x"}]
    for width in (40, 60, 80, 120):
        out = to_table(_report(rows), ("name", "content"), width=width)
        assert max(display_width(line) for line in out.splitlines()[2:]) <= width, width
        assert "…" in out


def test_order_groups_by_size_key_and_newest():
    gs = [Group(1, ["5", "6"], [0, 1], created_run=1, updated_run=3),
          Group(2, ["10", "11", "12"], [0, 1, 1], created_run=1, updated_run=1),
          Group(3, ["2", "3"], [0, 1], created_run=2, updated_run=2)]
    assert [g.id for g in order_groups(gs, "size")] == [2, 1, 3]
    assert [g.id for g in order_groups(gs, "key")] == [3, 1, 2]  # keys in natural order: 2 < 5 < 10
    assert [g.id for g in order_groups(gs, "newest")] == [1, 3, 2]
    assert [g.id for g in order_groups(gs, None)] == [1, 2, 3]


def test_report_table_sorts_by_size_and_limits(runner, cfg):
    out = runner.invoke(main, ["-c", str(cfg), "report"]).output
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("group")] == [
        "group 3", "group 1", "group 2"]
    two = next(line for line in out.splitlines() if line.lstrip().startswith("2 "))
    assert two.startswith("    2             噪音扰民！  ")  # key 2's NULL name is an empty cell in place
    assert re.search(r"噪音扰民！ +[13] \d+% similar text", two) and "d=" not in out
    limited = runner.invoke(main, ["-c", str(cfg), "report", "--limit", "1"]).output
    assert limited.startswith("petitions: 1 duplicate groups, 4 rows") and "2 more groups not shown" in limited
    assert "group 3: 4 rows" in limited and "group 1:" not in limited
    big = json.loads(runner.invoke(main, ["-c", str(cfg), "report", "-f", "json", "--min-size", "3"]).output)
    assert [g["group"] for g in big["groups"]] == [1, 3] and big["omitted_groups"] == 1  # json keeps id order
    by_key = json.loads(runner.invoke(main, ["-c", str(cfg), "report", "-f", "json", "--sort", "size"]).output)
    assert [g["group"] for g in by_key["groups"]] == [3, 1, 2]
    bad = runner.invoke(main, ["-c", str(cfg), "report", "--min-size", "1"])
    assert bad.exit_code == 2 and "--min-size" in bad.output


def test_report_table_goes_through_the_pager_on_a_terminal(runner, cfg, monkeypatch, tmp_path):
    paged = []
    monkeypatch.setattr(dedup.cli.report, "stdout_is_terminal", lambda: True)
    monkeypatch.setattr(dedup.cli.report.click, "echo_via_pager", paged.append)
    out = runner.invoke(main, ["-c", str(cfg), "report"])
    assert out.exit_code == 0 and out.output == "" and "group 3: 4 rows" in paged[0]
    runner.invoke(main, ["-c", str(cfg), "report", "-f", "json"])
    runner.invoke(main, ["-c", str(cfg), "report", "-o", str(tmp_path / "r.txt")])
    assert len(paged) == 1  # json and a file are never paged


def test_report_table_width_follows_the_terminal(runner, cfg):
    out = runner.invoke(main, ["-c", str(cfg), "report"], env={"COLUMNS": "30"}).output
    assert max(display_width(line) for line in out.splitlines()[2:]) <= 30


def test_csv_has_display_columns_links_similarity_rule_and_deleted(runner, cfg, tmp_path):
    rows = list(csv.DictReader(io.StringIO(runner.invoke(main, ["-c", str(cfg), "report", "-f", "csv"]).output)))
    assert list(rows[0]) == ["key", "group", "name", "title", "linked_to", "similarity", "rule", "deleted"]
    two = next(r for r in rows if r["key"] == "2")
    assert two["name"] == "" and two["title"] == "噪音扰民！" and two["group"] == "1" and two["deleted"] == ""
    assert two["linked_to"] in ("1", "3") and 0.8 < float(two["similarity"]) <= 1
    assert two["rule"] in ("内容相似", "短文本几乎相同")  # the data is Chinese: the rule in Chinese words
    assert {r["key"] for r in rows} == {"1", "2", "3", "10", "11", "20", "21", "22", "23"}
    en = list(csv.DictReader(io.StringIO(runner.invoke(main, ["-c", str(cfg), "report", "-f", "csv", "--lang",
                                                              "en"]).output)))
    assert next(r for r in en if r["key"] == "2")["rule"] in ("similar text", "short text, nearly the same")
    with sqlite3.connect(tmp_path / "src.db") as db:
        db.execute("DELETE FROM petitions WHERE id = 2")
    rows = list(csv.DictReader(io.StringIO(runner.invoke(main, ["-c", str(cfg), "report", "-f", "csv"]).output)))
    assert [(r["key"], r["deleted"]) for r in rows if r["deleted"]] == [("2", "源表中已删除")]


def test_summary_and_skipped_lines_wrap_within_the_width():
    report = dict(_report([{"key": "1", "distance": 0}, {"key": "2", "distance": 1}]), match="minhash",
                  skipped=[{"key": f"key-{i}", "reason": "unreadable"} for i in range(12)])
    lines = to_table(report, width=40).splitlines()
    assert max(map(display_width, lines)) <= 40
    assert " ".join(lines[:3]) == ("t: 1 duplicate groups, 2 rows (matched by similarity: the number that "
                                   "decided each link, 100% = the same)")
    assert any("key-9" in line for line in lines) and lines[-1].endswith("…)")

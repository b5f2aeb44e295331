"""The static report in a clerk's words (issue 24): similarity and the rule that accepted each link
instead of fingerprint bits, each group's weakest link, the date a row was filed (rows ordered by
it), plain column labels, the language of the data by default, `report --group N` in every
format, and deleted rows marked in the CSV. The HTML is checked by parsing it."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import sqlite3
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.report.diff import differences, units
from dedup.report.labels import pick_lang
from dedup.report.links import reading_order
from helpers import make_table, petition
from test_pipeline import BASE, OTHER

LABELS = {"name": "姓名", "phone": "电话", "title": "标题", "filed_on": "登记日期"}


class Page(HTMLParser):
    """The groups of an HTML report: per section its attributes, the weakest-link line, the table's
    heads and each row's cells as (class, text)."""

    def __init__(self, html: str):
        super().__init__()
        self.groups: list[dict] = []
        self._cell: list | None = None
        self._weak: list | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.groups.append({"attrs": a, "heads": [], "rows": [], "weakest": ""})
        elif not self.groups:
            return
        elif tag == "p" and a.get("class") == "weakest":
            self._weak = []
        elif tag == "tr" and self._in_body:
            self.groups[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = [a.get("class") or "", ""]
        elif tag == "tbody":
            self._in_body = True

    _in_body = False

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            g = self.groups[-1]
            (g["rows"][-1] if tag == "td" else g["heads"]).append(tuple(self._cell) if tag == "td" else self._cell[1])
            self._cell = None
        elif tag == "p" and self._weak is not None:
            self.groups[-1]["weakest"] = "".join(self._weak)
            self._weak = None
        elif tag == "tbody":
            self._in_body = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data
        if self._weak is not None:
            self._weak.append(data)


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def project(tmp_path, runner):
    """Keys 1-3 one matter (filed in the order 3, 1, 2; key 2's phone one digit off), 10-11 another;
    a date column and labels configured."""
    day = dt.date(2024, 3, 1)
    rows = [dict(petition(1, BASE, "张三", "13812345678", "噪音扰民"), filed_on=day),
            dict(petition(2, BASE + "。", "张三", "13812345679", "噪音扰民！"), filed_on=day + dt.timedelta(days=9)),
            dict(petition(3, BASE, "张三", "13812345678", "噪音"), filed_on=day - dt.timedelta(days=30)),
            dict(petition(10, OTHER, "李四", title="欠薪"), filed_on=day),
            dict(petition(11, OTHER + "！", "李四", title="拖欠工资"), filed_on=None)]
    make_table(f"sqlite:///{tmp_path / 'src.db'}", rows)
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
                   "tables:\n  petitions:\n    key: id\n    watermark: updated_at\n"
                   "    fields: {name: short, phone: short, title: text, content: text}\n"
                   "    display: [name, phone, title]\n    date_column: filed_on\n"
                   f"    labels: {json.dumps(LABELS, ensure_ascii=False)}\n", encoding="utf-8")
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    return cfg


def report(runner, cfg, *args: str, env=None) -> str:
    out = runner.invoke(main, ["-c", str(cfg), "report", *args], env=env)
    assert out.exit_code == 0, out.output
    return out.stdout


def test_units_of_a_difference():
    assert units("138-1234-5678") == ["138-1234-5678"] and units("110101199003074512") == ["110101199003074512"]
    assert units("Printer broken, again") == ["Printer", " ", "broken", ",", " ", "again"]
    assert units("路灯12号") == ["路", "灯", "12", "号"]
    assert units("") == [] and "".join(units("a  b\n中 c-d'e")) == "a  b\n中 c-d'e"
    assert differences("call 555-0100", "call 555-0199") == [("equal", "call ", "call "),
                                                             ("replace", "555-0100", "555-0199")]


def test_reading_order_by_date_text_or_number_rows_without_one_last():
    rows = [{"key": "1", "d": "10"}, {"key": "2", "d": "9"}, {"key": "3", "d": None}, {"key": "4", "d": ""},
            {"key": "5", "d": "2024-01-02"}, {"key": "6", "d": "2023-12-31 10:00:00"}, {"key": "7", "d": "9"}]
    assert [r["key"] for r in reading_order(rows, "d")] == ["2", "7", "1", "6", "5", "3", "4"]
    assert reading_order(rows, None) == rows


def test_json_carries_rules_the_weakest_link_date_column_and_labels(runner, project):
    data = json.loads(report(runner, project, "-f", "json"))
    assert data["date_column"] == "filed_on" and data["labels"] == LABELS
    g = next(g for g in data["groups"] if g["size"] == 3)
    assert [r["key"] for r in g["rows"]] == ["1", "2", "3"]  # the contract's order: lowest key first
    assert [r["filed_on"] for r in g["rows"]] == ["2024-03-01", "2024-03-10", "2024-01-31"]
    assert all(p["rule"] in ("content", "content_identity") and 0 < p["threshold"] <= p["similarity"]
               for p in g["pairs"])
    weakest = min(g["pairs"], key=lambda p: p["similarity"])
    assert g["weakest"] == {"a": weakest["a"], "b": weakest["b"], "similarity": weakest["similarity"],
                            "rule": weakest["rule"]}
    assert all("distance" in r for r in g["rows"]) and all("distance" in p for p in g["pairs"])  # kept


def test_html_speaks_of_similarity_rules_dates_and_labels(runner, project):
    html = report(runner, project, "-f", "html", env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "en_US.UTF-8"})
    assert "<html lang='zh-CN'>" in html  # the data is Chinese: zh without --lang, whatever the locale
    assert "指纹" not in html and "距离" not in html and not re.search(r"\bd=\d", html)
    page = Page(html)
    assert len(page.groups) == 2
    g = next(g for g in page.groups if g["attrs"]["data-size"] == "3")
    assert g["heads"] == ["编号", "登记日期", "姓名", "电话", "标题", "content", "最相似的记录"]
    assert [r[0][1] for r in g["rows"]] == ["3", "1", "2"]  # earliest filed first
    assert [r[1][1] for r in g["rows"]] == ["2024-01-31", "2024-03-01", "2024-03-10"]
    data = json.loads(report(runner, project, "-f", "json"))
    pairs = next(x for x in data["groups"] if x["size"] == 3)["pairs"]
    weakest = min(pairs, key=lambda p: p["similarity"])
    assert g["weakest"].startswith(f"最弱的关联 {weakest['a']} – {weakest['b']}：相似度 ")
    assert float(g["attrs"]["data-weakest"]) == pytest.approx(weakest["similarity"], abs=1e-4)
    weak_keys = {r[0][1] for r in g["rows"] if "weak" in r[0][0].split()}
    assert weak_keys == {weakest["a"], weakest["b"]}
    for row in g["rows"]:
        link = row[-1][1]
        assert row[-1][0].startswith("link") and "%" in link and ("内容相似" in link), link
    phone_of_2 = next(r for r in g["rows"] if r[0][1] == "2")[3]
    assert phone_of_2 == ("", "1381234567813812345679")  # the whole number struck and marked, not one digit
    assert "<del>13812345678</del><mark>13812345679</mark>" in html
    undated = next(x for x in page.groups if x["attrs"]["data-size"] == "2")
    assert [r[0][1] for r in undated["rows"]] == ["10", "11"] and "null" in undated["rows"][1][1][0]
    en = Page(report(runner, project, "-f", "html", "--lang", "en"))
    assert en.groups[0]["heads"][0] == "key" and en.groups[0]["heads"][-1] == "most similar to"
    assert any("similar text" in r[-1][1] for r in en.groups[0]["rows"])


def test_the_language_follows_lang_then_the_data_then_the_locale():
    chinese = {"groups": [{"rows": [{"key": "1", "name": "张三"}]}]}
    english = {"groups": [{"rows": [{"key": "1", "name": "Jane", "link": "2"}]}]}
    assert pick_lang(None, {"LANG": "en_US.UTF-8"}, chinese) == "zh"
    assert pick_lang("en", {}, chinese) == "en"
    assert pick_lang(None, {"LANG": "en_US.UTF-8"}, english) == "en"
    assert pick_lang(None, {"LANG": "zh_CN.UTF-8"}, english) == "zh"


def test_report_group_n_in_every_format(runner, project):
    group = next(g["group"] for g in json.loads(report(runner, project, "-f", "json"))["groups"] if g["size"] == 2)
    data = json.loads(report(runner, project, "-f", "json", "--group", str(group)))
    assert [g["group"] for g in data["groups"]] == [group] and "omitted_groups" not in data
    rows = list(csv.DictReader(io.StringIO(report(runner, project, "-f", "csv", "--group", str(group)))))
    assert [(r["key"], r["group"]) for r in rows] == [("10", str(group)), ("11", str(group))]
    table = report(runner, project, "--group", str(group))
    assert f"group {group}: 2 rows" in table and table.count("\ngroup ") == 1
    html = Page(report(runner, project, "-f", "html", "--group", str(group)))
    assert [g["attrs"]["data-id"] for g in html.groups] == [str(group)]
    missing = runner.invoke(main, ["-c", str(project), "report", "--group", "999"])
    assert missing.exit_code == 2
    assert missing.output == "Error: table 'petitions' has no group 999 (`dedup report` lists the groups)\n"


def test_csv_marks_deleted_rows_and_orders_by_date(runner, project, tmp_path):
    with sqlite3.connect(tmp_path / "src.db") as db:
        db.execute("DELETE FROM petitions WHERE id = 1")
    rows = list(csv.DictReader(io.StringIO(report(runner, project, "-f", "csv", "--lang", "en"))))
    assert list(rows[0]) == ["key", "group", "登记日期", "姓名", "电话", "标题", "linked_to", "similarity", "rule",
                             "deleted"]
    three = [r for r in rows if r["group"] == rows[0]["group"]]
    assert [r["key"] for r in three] == ["3", "2", "1"]  # by date; the deleted row (no date any more) last
    assert [(r["key"], r["deleted"], r["姓名"]) for r in rows if r["deleted"]] == [("1", "deleted from the source", "")]
    assert all(r["rule"] == "" or "similar text" in r["rule"] for r in rows)

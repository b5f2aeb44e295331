"""The caseworker's HTML report: labels in Chinese or English, excerpts, marked differences,
deleted rows, decisions and history when present, every value escaped; opened in headless
Chromium (Debian's chromium), where a hostile value must neither run nor add an element."""

import json
import os
import shutil
import sqlite3
import subprocess
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.report.html import marked, to_html
from dedup.report.labels import pick_lang
from helpers import make_table, petition
from report_fixtures import report_project
from test_pipeline import BASE, OTHER

SCRIPT_VALUE = "<script>document.title='pwned'</script>"
IMG_VALUE = "<img src=x onerror=\"document.title='pwned';document.body.append(document.createElement('aside'))\">"


@pytest.fixture
def runner():
    return CliRunner()


def test_marked_shows_what_differs_from_the_first_row():
    assert marked("路灯不亮", "路灯不亮") == "路灯不亮"
    assert marked("路灯不亮", "路灯很亮") == "路灯<del>不</del><mark>很</mark>亮"
    assert marked("abc", "abcd") == "<del>abc</del><mark>abcd</mark>"  # Latin text: whole words
    assert marked("the printer is broken", "the printers is broken") == \
        "the <del>printer</del><mark>printers</mark> is broken"
    assert marked("138-1234-5678", "138-1234-5679") == "<del>138-1234-5678</del><mark>138-1234-5679</mark>"
    assert marked("张三 13812345678", "张三 13812345679") == "张三 <del>13812345678</del><mark>13812345679</mark>"
    assert marked(None, "<b>") == "&lt;b&gt;" and marked("x", None) == ""
    assert marked("<i>", "<i><b>") == "&lt;i&gt;<mark>&lt;b&gt;</mark>"


def test_language_follows_lang_then_the_locale():
    assert pick_lang("en", {"LANG": "zh_CN.UTF-8"}) == "en"
    assert pick_lang(None, {"LANG": "zh_CN.UTF-8"}) == "zh"
    assert pick_lang(None, {"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert pick_lang(None, {"LC_ALL": "", "LC_MESSAGES": "zh_TW", "LANG": "C"}) == "zh"
    assert pick_lang(None, {}) == "en"


def test_the_legend_says_how_the_recipe_grouped_the_rows():
    empty = {"table": "t", "max_distance": 3, "skipped": [], "groups": []}
    assert "at most 3 bits" in to_html(empty) and "不超过 3" in to_html(empty, lang="zh")
    minhash = to_html(dict(empty, match="minhash"))
    assert "match.threshold" in minhash and "within 3" not in minhash and "No duplicate groups." in minhash


def test_decisions_and_history_are_shown_when_the_report_has_them():
    report = {"table": "t", "max_distance": 3, "skipped": [], "groups": [{
        "group": 4, "size": 2, "merged_from": [9], "split_from": 2, "change": "grown",
        "rows": [{"key": "1", "distance": 0}, {"key": "2", "distance": 1, "new": True}],
        "pairs": [{"a": "1", "b": "2", "distance": 1, "decision": "same"}]}]}
    page = to_html(report, lang="zh")
    assert "由第 9 组合并而来; 由第 2 组拆分而来" in page and "有新增记录" in page
    assert "审核决定" in page and "1 – 2: 同一事项" in page and "<span class='badge'>新</span>" in page
    assert "第 4 组" in page and "<html lang='zh-CN'>" in page


def test_a_mass_group_shows_its_first_rows_and_counts_the_rest():
    rows = [{"key": str(i), "distance": 0, "name": f"n{i}"} for i in range(250)]
    page = to_html({"table": "t", "max_distance": 3, "skipped": [],
                    "groups": [{"group": 1, "size": 250, "rows": rows, "pairs": []}]}, ("name",))
    assert "<td class='key'>199<" in page and "<td class='key'>200<" not in page and "… and 50 more rows" in page
    assert "<b>250</b> rows in groups" in page


def test_report_html_from_the_cli_marks_deleted_rows_and_shows_the_text(runner, tmp_path):
    cfg = report_project(tmp_path)
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    with sqlite3.connect(tmp_path / "src.db") as db:
        db.execute("DELETE FROM petitions WHERE id = 21")
    out = tmp_path / "r.html"
    assert runner.invoke(main, ["-c", str(cfg), "report", "-f", "html", "-o", str(out)],
                         env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<title>重复组报告: petitions</title>" in page and page.count("源表中已删除</span>") == 1
    assert "<th>content</th>" in page and "小区门口的路灯" in page  # the text field, though not a display column
    assert page.index("第 3 组") < page.index("第 1 组") < page.index("第 2 组")  # largest first
    assert "<b>3</b> 个重复组" in page and "<b>1</b> 条记录已从源表删除" in page
    assert "<mark>！</mark>" in page  # key 2's title differs from key 1's by its "！"
    en = runner.invoke(main, ["-c", str(cfg), "report", "-f", "html", "--lang", "en"]).output
    assert "deleted from the source" in en and "Group 3" in en and "<html lang='en'>" in en
    json_out = runner.invoke(main, ["-c", str(cfg), "report", "-f", "json"]).output
    rows = [r for g in json.loads(json_out)["groups"] for r in g["rows"]]
    assert '"deleted": true' in json_out and not any("content" in r for r in rows)  # json: display columns only


# -- in a browser ------------------------------------------------------------------------------

class _Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.title, self.text, self._in_title = [], "", [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        self.text.append(data)


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing under CI (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium): the HTML report is not opened in a browser")
    return path


def _dump_dom(page, tmp_path, fragment: str = "") -> _Dom:
    out = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=3000",
                          "--dump-dom", page.as_uri() + fragment],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "<html" in out.stdout, out.stderr[-2000:]
    dom = _Dom()
    dom.feed(out.stdout)
    return dom


@pytest.fixture
def hostile_page(runner, tmp_path):
    """An HTML report whose rows carry a <script> and an <img onerror> from the source table."""
    make_table(f"sqlite:///{tmp_path / 'src.db'}", [
        petition(1, BASE, SCRIPT_VALUE, title=IMG_VALUE), petition(2, OTHER, "李四", title="欠薪"),
        petition(3, BASE, "张三", title=IMG_VALUE), petition(4, OTHER, "<u>x</u>", title="欠薪")])
    cfg = tmp_path / "dedup.yaml"
    cfg.write_text('source: {url: "sqlite:///src.db"}\nstore: {url: "sqlite:///store.db"}\n'
                   "tables:\n  petitions:\n    key: id\n    fields: {name: short, content: text}\n"
                   "    display: [name, title]\n", encoding="utf-8")
    assert runner.invoke(main, ["-c", str(cfg), "full", "-q"]).exit_code == 0
    page = tmp_path / "report.html"
    assert runner.invoke(main, ["-c", str(cfg), "report", "-f", "html", "--lang", "en", "-o", str(page)]).exit_code == 0
    return page


def test_hostile_values_are_text_in_the_browser_and_nothing_of_them_runs(hostile_page, tmp_path):
    dom = _dump_dom(hostile_page, tmp_path)
    assert dom.title == "Duplicate groups: petitions"  # neither value set the title
    tags = [t for t, _ in dom.tags]
    assert tags.count("script") == 1 and "img" not in tags and "aside" not in tags and "u" not in tags
    body = next(a for t, a in dom.tags if t == "body")
    assert body.get("data-ready") == "1"  # the page's own script did run
    text = "".join(dom.text)
    assert SCRIPT_VALUE in text and IMG_VALUE in text and "<u>x</u>" in text  # shown as text
    shown = next(a for t, a in dom.tags if t == "span" and a.get("id") == "shown")
    assert shown is not None and "2 of 2 groups shown" in text


def test_the_filter_box_hides_the_groups_that_do_not_match(hostile_page, tmp_path):
    dom = _dump_dom(hostile_page, tmp_path, "#q=" + "李四")
    sections = [a for t, a in dom.tags if t == "section"]
    assert len(sections) == 2
    assert [("hidden" in a.get("class", "")) for a in sections] == [
        "李四" not in a.get("data-text", "") for a in sections]
    assert sum("hidden" in a.get("class", "") for a in sections) == 1 and "1 of 2 groups shown" in "".join(dom.text)

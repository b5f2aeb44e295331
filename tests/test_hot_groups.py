"""Hot groups (issue 13): thousands of copies of one row make one group whose rows share their
block names, keep a spanning tree of pairs, and whose report lists every row in JSON and CSV but
only the first rows in the terminal table (50) and HTML (200), with how many more there are."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.report import render
from dedup.report.table import ROWS_SHOWN
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.store import open_store
from helpers import config_for, make_table, petition

COPIES = 260  # more than the table (50) and the HTML page (200) list


@pytest.fixture
def copies(tmp_path):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    rows = [petition(i, "小区停车难 请求 增设 车位", name="张三") for i in range(1, COPIES + 1)]
    rows += [petition(COPIES + 1, "噪音 扰民 夜间 施工", name="李四")]
    make_table(src, rows)
    return config_for(src, f"sqlite:///{tmp_path / 'store.db'}", text={"workers": 1}, display=["name"],
                      fields={"name": "short", "content": "text"})


def test_copies_make_one_group_with_a_spanning_tree(copies):
    result = run_full(copies)
    assert [g.size for g in result.groups] == [COPIES]
    (g,) = result.groups
    assert len(g.pairs) == COPIES - 1 and {p.a for p in g.pairs} == {"1"}  # each copy linked to the first
    entries = Recipe.of(copies).block_entries(result.keys, result.sketches)
    by_row: dict[str, list[str]] = {}
    for name, key in zip(entries.names, entries.keys):
        by_row.setdefault(key, []).append(name)
    # the first copy is filed under the block names, every later copy under the same anchorless
    # names, each of them the one string object
    assert not any(n.endswith("+") for n in by_row["1"])
    assert all(by_row[str(k)] == [n + "+" for n in by_row["1"]] for k in range(2, COPIES + 1))
    assert all(a is b for a, b in zip(by_row["2"], by_row[str(COPIES)]))
    store = open_store(copies.store_url)
    try:
        assert len(store.groups("petitions")[0].pairs) == COPIES - 1
    finally:
        store.close()


def test_a_giant_group_is_summarised_in_the_table_and_html_but_whole_in_json(copies):
    run_full(copies)
    runner = CliRunner()
    config = {"source": {"url": copies.source_url}, "store": {"url": copies.store_url},
              "tables": {"petitions": {"key": "id", "display": ["name"], "fields": {"name": "short", "content": "text"}}}}
    path = copies.store_url.removeprefix("sqlite:///").replace("store.db", "dedup.yaml")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f)

    def report(*args):
        done = runner.invoke(main, ["-c", path, "report", *args])
        assert done.exit_code == 0, done.output
        return done.output

    table = report()
    assert table.count("张三") == 50 and f"… and {COPIES - 50} more rows" in table
    page = report("-f", "html", "--lang", "en")
    assert f"… and {COPIES - 200} more rows" in page
    data = json.loads(report("-f", "json"))
    assert len(data["groups"][0]["rows"]) == COPIES and len(data["groups"][0]["pairs"]) == COPIES - 1
    assert len(report("-f", "csv").splitlines()) == COPIES + 1


def test_the_table_lists_a_small_group_whole():
    rows = [{"key": str(k), "distance": 0} for k in range(1, ROWS_SHOWN + 2)]
    data = {"table": "t", "max_distance": 3, "groups": [
        {"group": 1, "size": len(rows) - 1, "rows": rows[:-1], "pairs": []},
        {"group": 2, "size": len(rows), "rows": rows, "pairs": []}], "skipped": []}
    text = render(data, "table")
    assert text.count("more rows") == 1 and "… and 1 more rows" in text

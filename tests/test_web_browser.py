"""The workbench in a real browser: Playwright driving Debian's chromium against `dedup serve` on the
demo's store, run as a child process on a free port (it prints its address once the port answers).

What a clerk does: give a name, filter, open a group, take a row out, split a group, mark a pair
different, reload and see each change, run `dedup full` and see them kept; a value `<script>`
shown as text; a POST without the CSRF token refused; `--host 0.0.0.0` without a token refused.
Skipped without playwright or /usr/bin/chromium, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dedup.cli import main
from dedup.demo import prepare_demo

from helpers import Child, child_env

CHROMIUM = "/usr/bin/chromium"
SCRIPT = "<script>window.__xss = 1</script>"
WAIT_MS = 60_000  # generous: a loaded machine

pytestmark = pytest.mark.browser


def _require_browser():
    why = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = "playwright is not installed (pip install -e '.[test]')"
    if why is None and not Path(CHROMIUM).exists():
        why = f"{CHROMIUM} is missing (apt-get install chromium)"
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests are required in CI: {why}")
        pytest.skip(why)


def cli(cfg, *args) -> str:
    out = CliRunner().invoke(main, ["-c", str(cfg), *args])
    assert out.exit_code == 0, out.output
    return out.output


def groups_of(cfg) -> dict[int, list[str]]:
    rep = json.loads(cli(cfg, "report", "-f", "json"))
    return {g["group"]: [r["key"] for r in g["rows"]] for g in rep["groups"]}


def together(cfg, a: str, b: str) -> bool:
    return any(a in keys and b in keys for keys in groups_of(cfg).values())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(config path, base URL) of `dedup serve` on a fresh demo, one row's name made `<script>`."""
    _require_browser()
    cfg = prepare_demo(tmp_path_factory.mktemp("serve") / "demo", rows=300, seed=11)
    cli(cfg, "full", "-q")
    first = min(groups_of(cfg).items())[1][0]
    with sqlite3.connect(Path(cfg).parent / "petitions.db") as con:
        con.execute("UPDATE petitions SET name = ? WHERE id = ?", (SCRIPT, int(first)))
    with Child([sys.executable, "-m", "dedup", "-c", str(cfg), "serve", "--port", "0"]) as child:
        line = child.wait_for_line("dedup workbench on ")
        yield cfg, re.search(r"(http://\S+?)/? ", line).group(1)
        child.stop(signal.SIGINT)


@pytest.fixture(scope="module")
def browser(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, served):
    context = browser.new_context(locale="zh-CN")
    context.set_default_timeout(WAIT_MS)
    pg = context.new_page()
    base = served[1]
    pg.goto(f"{base}/name?next=/")
    pg.fill("#name", "王五")
    pg.click("button[type=submit]")
    pg.wait_for_selector("#counts")
    yield pg
    context.close()


def rows_on(page) -> list[str]:
    page.wait_for_selector("#rows")
    return page.eval_on_selector_all("th.rowhead", "els => els.map(e => e.dataset.key)")


def test_filter_open_take_out_split_and_different_stick(served, page):
    cfg, base = served
    page.fill("input[name=min_size]", "3")
    page.click("#filters button[type=submit]")
    page.wait_for_url(re.compile(r"min_size=3"))
    listed = page.eval_on_selector_all("#groups tbody tr", "els => els.map(e => +e.dataset.group)")
    sizes = groups_of(cfg)
    assert listed and all(len(sizes[g]) >= 3 for g in listed)
    assert set(listed) == {g for g, keys in sizes.items() if len(keys) >= 3}

    page.click(f'#groups tr[data-group="{listed[0]}"] a')  # open a group
    keys = rows_on(page)
    assert keys == sizes[listed[0]]
    out = keys[-1]
    page.click(f'button.take-out[data-key="{out}"]')  # take a row out
    page.wait_for_selector("#done")
    page.reload()
    assert out not in rows_on(page)
    assert not together(cfg, keys[0], out)

    rest = rows_on(page)
    if len(rest) >= 2:  # split what is left: its first row apart from the others
        for k in rest[1:]:
            page.select_option(f'select.part[data-key="{k}"]', "2")
        page.click("#split")
        page.wait_for_load_state()
        page.reload()
        assert not together(cfg, rest[0], rest[1])

    two = next(g for g, k in groups_of(cfg).items() if len(k) == 2)  # mark a pair different
    a, b = groups_of(cfg)[two]
    page.goto(f"{base}/group/{two}")
    page.click(f'#links tr[data-a="{a}"][data-b="{b}"] button.different')
    page.wait_for_load_state()
    page.goto(f"{base}/history")
    assert page.locator("#decisions").inner_text().count(f"{a} – {b}") == 1
    assert not together(cfg, a, b)

    cli(cfg, "full", "-q")  # a full run keeps every change
    page.reload()
    assert not together(cfg, keys[0], out) and not together(cfg, a, b)
    if len(rest) >= 2:
        assert not together(cfg, rest[0], rest[1])
    assert f"{a} – {b}" in page.locator("#decisions").inner_text()


def test_a_script_value_is_text_and_a_post_without_csrf_is_refused(served, page):
    cfg, base = served
    page.fill("input[name=q]", "<script>")
    page.click("#filters button[type=submit]")
    page.wait_for_selector("#groups")
    page.click("#groups tbody tr a")
    page.wait_for_selector("#rows")
    assert SCRIPT in page.locator("#rows").inner_text()
    assert page.evaluate("window.__xss") is None

    gid, (a, b) = next((g, k[:2]) for g, k in groups_of(cfg).items())
    refused = page.request.post(f"{base}/group/{gid}/pair", form={"a": a, "b": b, "verdict": "different"})
    assert refused.status == 403
    assert together(cfg, a, b)


def test_keyboard_answers_the_review_queue(served, page):
    cfg, base = served
    page.goto(f"{base}/queue")
    first = page.get_attribute("#pair", "data-a"), page.get_attribute("#pair", "data-b")
    page.keyboard.press("s")
    page.wait_for_url(re.compile(r"done=mark"))
    assert (page.get_attribute("#pair", "data-a"), page.get_attribute("#pair", "data-b")) != first
    assert together(cfg, *first)


def test_serve_on_all_addresses_needs_a_token(served):
    cfg, _ = served
    out = subprocess.run([sys.executable, "-m", "dedup", "-c", str(cfg), "serve", "--host", "0.0.0.0"],
                         env=child_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.startswith("Error: refusing to serve on 0.0.0.0 without --token") and out.stderr.count("\n") == 1

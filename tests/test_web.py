"""The workbench (dedup serve) through Starlette's test client: pages, filters, actions that stick,
escaping, CSRF, read-only, sign-in, the Host check, and decisions shared with the CLI.

The browser tests (tests/test_web_browser.py) drive the same pages in chromium."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from dedup.cli import main  # noqa: E402
from dedup.config import load_config  # noqa: E402
from dedup.demo import prepare_demo  # noqa: E402
from dedup.web import create_app  # noqa: E402
from dedup.web.diff import marked, tokens  # noqa: E402
from dedup.web.i18n import MESSAGES  # noqa: E402
from dedup.web.routes import safe_next  # noqa: E402
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: E402,F401  (fixture)

TEMPLATES = Path(__file__).resolve().parents[1] / "dedup" / "web" / "templates"
LOCAL = "http://127.0.0.1"


def cli(cfg, *args, code=0) -> str:
    out = CliRunner().invoke(main, ["-c", str(cfg), *args])
    assert out.exit_code == code, out.output
    return out.output


@pytest.fixture
def demo(tmp_path):
    cfg = prepare_demo(tmp_path / "demo", rows=150, seed=7)
    cli(cfg, "full", "-q")
    return cfg


@pytest.fixture(params=["mongomock", "mongo_live", "postgres", "mariadb"])
def other_store_demo(request, tmp_path, monkeypatch):
    """The demo with its store on another kind of store (the workbench uses only the Store interface)."""
    url = store_url_of(request.param, request, tmp_path, monkeypatch)
    cfg = prepare_demo(tmp_path / "demo", rows=150, seed=7)
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("sqlite:///dedup-store.db", url), encoding="utf-8")
    cli(cfg, "full", "-q")
    return cfg


def client(cfg, **kw) -> TestClient:
    return TestClient(create_app(load_config(str(cfg)), **kw), base_url=LOCAL, follow_redirects=False)


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def groups_of(cfg) -> dict[int, list[str]]:
    import json

    rep = json.loads(cli(cfg, "report", "-f", "json"))
    return {g["group"]: [r["key"] for r in g["rows"]] for g in rep["groups"]}


def named(c: TestClient, name: str = "张三") -> None:
    page = c.get("/name").text
    assert c.post("/name", data={"csrf": csrf(page), "name": name, "next": "/"}).status_code == 303


def test_group_list_counts_filters_and_sorts(demo):
    groups = groups_of(demo)
    with client(demo) as c:
        page = c.get("/").text
        listed = [int(x) for x in re.findall(r'<tr data-group="(\d+)"', page)]
        assert sorted(listed) == sorted(groups)  # fewer than a page of groups
        assert re.search(rf"<b>{len(groups)}</b> 组", page)  # counts, in Chinese by default
        sizes = [len(groups[g]) for g in listed]
        assert sizes == sorted(sizes, reverse=True)  # largest first
        big = c.get("/", params={"min_size": 3}).text
        assert {int(x) for x in re.findall(r'<tr data-group="(\d+)"', big)} == {g for g, k in groups.items() if len(k) >= 3}
        gid, keys = next(iter(groups.items()))
        found = c.get("/", params={"q": keys[-1]}).text  # search by a key
        assert f'data-group="{gid}"' in found
        weakest = c.get("/", params={"sort": "weakest"}).text
        sims = [int(x) for x in re.findall(r'<td class="n[^"]*">(\d+)%</td>', weakest)]
        assert len(sims) == len(groups)
        assert sims == sorted(sims)
        assert c.get("/", params={"min_size": "many"}).status_code == 400


def test_group_page_shows_rows_links_and_the_weakest(demo):
    gid, keys = max(groups_of(demo).items(), key=lambda x: len(x[1]))
    with client(demo) as c:
        page = c.get(f"/group/{gid}").text
    for k in keys:
        assert f'data-key="{k}"' in page
    assert "<svg" in page and 'class="edge weakest' in page
    assert page.count('<tr class="weakest"') == 1
    assert "<th>登记时间</th>" in page  # the date each was filed: the demo's date_column, by its label
    assert "<th>姓名</th>" in page and "<th>name</th>" not in page  # columns by their labels
    assert c.get("/group/999999").status_code == 404


def test_post_without_csrf_is_refused_and_with_it_the_action_sticks(demo):
    check_different_sticks(demo)


def test_actions_on_other_stores(other_store_demo):
    check_different_sticks(other_store_demo)


def check_different_sticks(demo):
    groups = groups_of(demo)
    gid, keys = next((g, k) for g, k in groups.items() if len(k) == 2)
    with client(demo) as c:
        named(c)
        bad = c.post(f"/group/{gid}/pair", data={"a": keys[0], "b": keys[1], "verdict": "different"})
        assert bad.status_code == 403
        assert groups_of(demo)[gid] == keys  # nothing changed
        token = csrf(c.get(f"/group/{gid}").text)
        ok = c.post(f"/group/{gid}/pair", data={"csrf": token, "a": keys[0], "b": keys[1], "verdict": "different"})
        assert ok.status_code == 303
    assert gid not in groups_of(demo)  # the pair's group is cut
    cli(demo, "full", "-q")
    assert not any(set(keys) <= set(k) for k in groups_of(demo).values())  # a full run keeps it
    exported = list(csv.DictReader(io.StringIO(cli(demo, "decisions", "export"))))
    assert [(r["a"], r["b"], r["verdict"]) for r in exported] == [(keys[0], keys[1], "different")]


def test_a_cli_decision_shows_on_the_page(demo):
    gid, keys = next(iter(groups_of(demo).items()))
    cli(demo, "decide", keys[0], keys[1], "--same")
    with client(demo) as c:
        page = c.get("/history").text
    assert keys[0] in page and "是同一事项" in page


def test_take_out_and_split(demo):
    groups = groups_of(demo)
    gid, keys = max(groups.items(), key=lambda x: len(x[1]))
    assert len(keys) >= 3
    with client(demo) as c:
        named(c)
        token = csrf(c.get(f"/group/{gid}").text)
        out = c.post(f"/group/{gid}/take-out", data={"csrf": token, "key": keys[-1]})
        assert out.status_code == 303
        after = groups_of(demo)
        assert not any(keys[-1] in k for k in after.values())
        now = next(g for g, k in after.items() if keys[0] in k)
        rest = after[now]
        parts = ["1"] + ["2"] * (len(rest) - 1)
        split = c.post(f"/group/{now}/split", data={"csrf": token, "key": rest, "part": parts})
        assert split.status_code == 303
    final = groups_of(demo)
    assert not any(rest[0] in k and rest[1] in k for k in final.values())


def test_values_are_escaped(demo):
    gid, keys = next(iter(groups_of(demo).items()))
    db = Path(demo).parent / "petitions.db"
    with sqlite3.connect(db) as con:
        con.execute("UPDATE petitions SET name = ? WHERE id = ?", ("<script>alert(1)</script>", int(keys[0])))
    with client(demo) as c:
        page = c.get(f"/group/{gid}").text
        listed = c.get("/", params={"q": "<script>"}).text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f'data-group="{gid}"' in listed and "<script>alert" not in listed


def test_read_only_shows_no_actions_and_refuses_posts(demo):
    gid, keys = next(iter(groups_of(demo).items()))
    with client(demo, read_only=True) as c:
        page = c.get(f"/group/{gid}").text
        assert "take-out" not in page and 'name="verdict"' not in page and 'name="csrf"' not in page
        token = csrf(c.get("/name").text)  # a genuine token: still refused
        refused = c.post(f"/group/{gid}/pair", data={"csrf": token, "a": keys[0], "b": keys[1], "verdict": "same"})
        assert refused.status_code == 403
        assert c.post("/undo", data={"csrf": token}).status_code == 403


def test_a_token_asks_for_sign_in(demo):
    with client(demo, token="s3cret") as c:
        first = c.get("/")
        assert first.status_code == 303 and first.headers["location"].startswith("/login")
        page = c.get("/login").text
        assert c.post("/login", data={"csrf": csrf(page), "token": "wrong", "next": "/"}).status_code == 403
        assert c.get("/").status_code == 303
        ok = c.post("/login", data={"csrf": csrf(page), "token": "s3cret", "next": "/"})
        assert ok.status_code == 303 and "s3cret" not in ok.headers.get("set-cookie", "")
        assert c.get("/").status_code == 200


def test_unknown_host_header_and_headers(demo):
    with client(demo) as c:
        assert c.get("/", headers={"host": "evil.example"}).status_code == 400  # DNS rebinding
        page = c.get("/")
        assert "default-src 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"


def test_language_switch(demo):
    with client(demo, lang="en") as c:
        assert "Groups" in c.get("/").text
        switched = c.get("/lang", params={"to": "zh", "next": "/queue"})
        assert switched.headers["location"] == "/queue"
        assert "审核队列" in c.get("/queue").text
        assert c.get("/lang", params={"to": "zh", "next": "//evil.example/"}).headers["location"] == "/"


def test_review_queue_answers_the_weakest_first(demo):
    with client(demo) as c:
        named(c, "李四")
        page = c.get("/queue").text
        a, b = re.search(r'id="pair" data-a="([^"]+)" data-b="([^"]+)"', page).groups()
        answer = c.post("/queue", data={"csrf": csrf(page), "a": a, "b": b, "verdict": "same", "mode": "weak", "at": "1"})
        assert answer.status_code == 303
        nxt = c.get(answer.headers["location"]).text
        assert re.search(r'id="pair" data-a="([^"]+)" data-b="([^"]+)"', nxt).groups() != (a, b)
        calibrate = c.get("/queue", params={"mode": "calibrate"})
        assert calibrate.status_code == 200 and 'id="pair"' in calibrate.text


def test_serve_refuses_other_hosts_without_a_token(demo):
    out = CliRunner().invoke(main, ["-c", str(demo), "serve", "--host", "0.0.0.0"])
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        "Error: refusing to serve on 0.0.0.0 without --token: anyone who can reach it could read and change the "
        "groups (use --host 127.0.0.1, or give --token)"]


def test_every_message_has_both_languages_and_templates_use_known_keys():
    assert all(zh and en for zh, en in MESSAGES.values())
    used = {k for p in TEMPLATES.glob("*.html") for k in re.findall(r"\bt\(['\"]([a-z_]+)['\"]\)", p.read_text("utf-8"))}
    assert used and used <= set(MESSAGES), used - set(MESSAGES)


@pytest.mark.parametrize("value, base, whole, expected", [
    ("13800001111", "13800001112", True, [("13800001111", True)]),
    ("the quick brown fox", "the quick red fox", False, [("the quick ", False), ("brown", True), (" fox", False)]),
    ("张三来信", "张四来信", False, [("张", False), ("三", True), ("来信", False)]),
    ("same", "same", False, [("same", False)]),
    ("", "x", False, []),
    (None, "x", False, []),
])
def test_differences_by_word_character_or_whole_value(value, base, whole, expected):
    assert marked(value, base, whole) == expected


def test_tokens_keep_latin_words_whole():
    assert tokens("Mr. O'Neil, tel 555-1234") == ["Mr.", " ", "O'Neil", ",", " ", "tel", " ", "555-1234"]


@pytest.mark.parametrize("value, expected", [("/group/3", "/group/3"), ("//evil.example/", "/"),
                                             ("https://evil.example/", "/"), ("/\\evil", "/"), (None, "/")])
def test_next_stays_on_this_site(value, expected):
    assert safe_next(value) == expected


def test_an_action_while_a_run_holds_the_lock_says_so_and_changes_nothing(demo):
    from dedup.store import open_store

    gid, keys = next(iter(groups_of(demo).items()))
    store = open_store(load_config(str(demo)).store_url)
    store.acquire_lock("petitions", "cronhost:42:abc", 600)
    try:
        with client(demo) as c:
            named(c)
            token = csrf(c.get(f"/group/{gid}").text)
            busy = c.post(f"/group/{gid}/take-out", data={"csrf": token, "key": keys[-1]})
        assert busy.status_code == 409
        assert "cronhost:42:abc" in busy.text
    finally:
        store.release_lock("petitions", "cronhost:42:abc")
        store.close()
    assert groups_of(demo)[gid] == keys


@pytest.mark.parametrize("form", [{"a": "1", "b": "1", "verdict": "same"}, {"a": "1", "b": "2", "verdict": "maybe"},
                                  {"a": "", "b": "2", "verdict": "same"}, {"a": "no such", "b": "row", "verdict": "same"}])
def test_a_bad_answer_is_a_bad_request_not_a_crash(demo, form):
    with client(demo) as c:
        named(c)
        token = csrf(c.get("/queue").text)
        assert c.post("/queue", data={"csrf": token, "mode": "weak", "at": "1", **form}).status_code == 400


def test_web_and_cli_decisions_are_the_same_records_and_round_trip(demo, tmp_path):
    """Written in the workbench, read by the CLI; written by the CLI, read in the workbench; and
    export / import carries reviewer and note over to another store."""
    groups = groups_of(demo)
    (g1, k1), (g2, k2) = sorted(groups.items())[:2]
    with client(demo) as c:
        named(c, "张三")
        token = csrf(c.get(f"/group/{g1}").text)
        assert c.post(f"/group/{g1}/take-out", data={"csrf": token, "key": k1[-1], "note": "另一件事"}).status_code == 303
    exported = list(csv.DictReader(io.StringIO(cli(demo, "decisions", "export"))))
    assert {(r["reviewer"], r["note"], r["source"]) for r in exported} == {("张三", "另一件事", "web")}
    assert {frozenset((r["a"], r["b"])) for r in exported} == {frozenset((k1[-1], k)) for k in k1[:-1]}

    cli(demo, "decide", k2[0], k2[1], "--same", "--reviewer", "李四", "--note", "同一人")
    with client(demo) as c:
        page = c.get("/history").text
    assert "李四" in page and "同一人" in page and "张三" in page

    out = tmp_path / "decisions.csv"
    cli(demo, "decisions", "export", "-o", str(out))
    fresh = prepare_demo(tmp_path / "fresh", rows=150, seed=7)
    cli(fresh, "full", "-q")
    cli(fresh, "decisions", "import", str(out))
    with client(fresh) as c:
        page = c.get("/history").text
    assert "李四" in page and "同一人" in page and "张三" in page and "另一件事" in page
    assert not any(k1[-1] in keys and k1[0] in keys for keys in groups_of(fresh).values())


def test_note_merge_and_undo(demo):
    groups = groups_of(demo)
    (g1, k1), (g2, k2) = sorted(groups.items())[:2]
    with client(demo) as c:
        named(c, "王五")
        token = csrf(c.get(f"/group/{g1}").text)
        assert c.post(f"/group/{g1}/note", data={"csrf": token, "text": "<b>请核实</b>"}).status_code == 303
        page = c.get(f"/group/{g1}").text
        assert "&lt;b&gt;请核实&lt;/b&gt; — 王五" in page
        merged = c.post(f"/group/{g1}/merge", data={"csrf": token, "other": str(g2)})
        assert merged.status_code == 303
        assert any(set(k1) | set(k2) <= set(keys) for keys in groups_of(demo).values())
        undone = c.post("/undo", data={"csrf": token, "next": "/history"})
        assert undone.status_code == 303 and undone.headers["location"].startswith("/history")
        assert not any(k1[0] in keys and k2[0] in keys for keys in groups_of(demo).values())
        assert "已撤销" in c.get("/history").text


def test_before_the_first_run_the_pages_say_so(tmp_path):
    cfg = prepare_demo(tmp_path / "demo", rows=30, seed=1)
    with client(cfg, lang="en") as c:
        assert "No run recorded for this table yet" in c.get("/").text
        assert 'id="queue-empty"' in c.get("/queue").text
        assert c.get("/group/1").status_code == 404

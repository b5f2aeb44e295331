"""Issue 24, actions that stick (dedup.runs.actions): mark, take out, split, merge, notes, undo and
history, on every store (SQLite, PostgreSQL, MariaDB, mongomock, a live MongoDB with
DEDUP_TEST_MONGO_URI): each records pair decisions with the reviewer, the time, a note and one
action id under the table's lock, regroups at once, and holds across later full and incremental runs."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)

from dedup.cli import main
from dedup.config import load_config
from dedup.demo import prepare_demo
from dedup.errors import ConfigError, LockedError
from dedup.index.decisions import DIFFERENT, SAME
from dedup.runs import actions
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def config(request, tmp_path, monkeypatch):
    """The demo's 150 petitions with planted duplicates, a store of the parametrized kind, a full run done."""
    url = store_url_of(request.param, request, tmp_path, monkeypatch)
    cfg = prepare_demo(tmp_path / "demo", rows=150, seed=7)
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("sqlite:///dedup-store.db", url), encoding="utf-8")
    config = load_config(str(cfg))
    run_full(config)
    return config


def groups(config) -> dict[int, set[str]]:
    store = open_store(config.store_url, read_only=True)
    try:
        return {g.id: set(g.keys) for g in store.groups("petitions")}
    finally:
        store.close()


def group_of(config, key: str) -> set[str]:
    return next((keys for keys in groups(config).values() if key in keys), set())


def links(config) -> set[tuple[str, str]]:
    store = open_store(config.store_url, read_only=True)
    try:
        return {(p.a, p.b) for g in store.groups("petitions") for p in g.pairs}
    finally:
        store.close()


def decisions(config):
    store = open_store(config.store_url, read_only=True)
    try:
        return store.decisions("petitions")
    finally:
        store.close()


def biggest(config, skip=()) -> tuple[int, list[str]]:
    gid, keys = max(((i, k) for i, k in groups(config).items() if i not in skip), key=lambda g: (len(g[1]), -g[0]))
    return gid, sorted(keys, key=int)


def add_row(config, key: int, content: str) -> None:
    engine = sa.create_engine(config.source_url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), [{"id": key, "name": "测试", "content": content, "updated_at": dt.datetime(2099, 1, 1)}])
    engine.dispose()


def content_of(config, key: str) -> str:
    engine = sa.create_engine(config.source_url)
    with engine.connect() as conn:
        text = conn.execute(sa.text("SELECT content FROM petitions WHERE id = :k"), {"k": int(key)}).scalar_one()
    engine.dispose()
    return text


def test_take_out_leaves_the_row_no_link_into_its_group_and_it_sticks(config):
    gid, keys = biggest(config)
    assert len(keys) >= 3
    out = keys[0]
    result = actions.take_out(config, None, out, reviewer="王芳", note="另一件事")
    assert result.kind == "take_out" and result.decisions == len(keys) - 1
    assert result.changed["shrunk_groups"] == 1 and result.changed["rows_left_groups"] == 1
    assert groups(config)[gid] == set(keys) - {out} and group_of(config, out) == set()
    made = [d for d in decisions(config) if d.action == result.action]
    assert {d.pair for d in made} == {tuple(sorted((out, k), key=int)) for k in keys[1:]}
    assert {(d.verdict, d.reviewer, d.note, d.source) for d in made} == {(DIFFERENT, "王芳", "另一件事", "decide")}
    assert all(d.decided_at is not None and d.applied_run is not None for d in made)

    add_row(config, 90_001, "一段与其他内容毫无关系的独立文字，用来测试增量运行。")
    run_incremental(config)
    assert out not in groups(config)[gid]
    run_full(config)
    assert groups(config)[gid] == set(keys) - {out} and group_of(config, out) == set()

    # a later row copying the taken-out one (so similar to both sides): the cut pairs stay cut
    add_row(config, 90_002, content_of(config, out))
    run_incremental(config)
    cut = {tuple(sorted((out, k), key=int)) for k in keys[1:]}
    assert not cut & links(config)
    assert group_of(config, "90002")  # the copy is grouped (docs/how-to/review.md says with whom)


def test_split_cuts_every_pair_across_the_parts_and_refuses_rows_of_two_groups(config):
    gid, keys = biggest(config)
    parts = [keys[:1], keys[1:]]
    result = actions.split(config, None, parts, reviewer="li", note="two matters")
    assert result.kind == "split" and result.decisions == len(keys) - 1
    assert group_of(config, keys[0]) == set() and group_of(config, keys[1]) == set(keys[1:])
    run_full(config)
    assert group_of(config, keys[0]) == set() and group_of(config, keys[1]) == set(keys[1:])

    other, okeys = biggest(config, skip={gid})
    with pytest.raises(ConfigError, match=r"^the rows named are in groups \d+, \d+, not one group$"):
        actions.split(config, None, [[keys[1]], [okeys[0]]], reviewer="li")
    with pytest.raises(ConfigError, match="at least two parts"):
        actions.split(config, None, [keys[1:]], reviewer="li")
    with pytest.raises(ConfigError, match="^row '99999' is in no group of 'petitions'$"):
        actions.take_out(config, None, "99999", reviewer="li")


def test_merge_joins_two_groups_under_the_older_id_and_undo_parts_them_again(config):
    before = groups(config)
    (g1, k1), (g2, k2) = biggest(config), biggest(config, skip={biggest(config)[0]})
    result = actions.merge(config, None, g1, g2, reviewer="zhao")
    assert result.decisions == len(k1) * len(k2) and result.changed["merged_groups"] == 1
    assert groups(config)[min(g1, g2)] == set(k1) | set(k2) and max(g1, g2) not in groups(config)
    run_full(config)
    assert groups(config)[min(g1, g2)] == set(k1) | set(k2)
    undone = actions.undo_last(config, None)
    assert (undone.action, undone.kind, undone.decisions) == (result.action, "undo", len(k1) * len(k2))
    assert not [d for d in decisions(config) if d.verdict == SAME]
    assert {frozenset(k) for k in groups(config).values()} == {frozenset(k) for k in before.values()}
    with pytest.raises(ConfigError, match="^merging group 3 with itself"):
        actions.merge(config, None, 3, 3, reviewer="zhao")


def test_undo_restores_what_an_action_replaced_and_history_lists_the_actions(config):
    before = groups(config)
    gid, keys = biggest(config)
    first = actions.mark(config, None, keys[0], keys[1], DIFFERENT, reviewer="ann", note="not one matter")
    second = actions.take_out(config, None, keys[0], reviewer="bob")
    listed = actions.history(config, None)
    assert [(a.id, a.kind, a.reviewer) for a in listed] == [(second.action, "take_out", "bob"),
                                                            (first.action, "mark", "ann")]
    assert listed[1].keys == (keys[0], keys[1]) and listed[1].note == "not one matter"
    assert listed[0].keys == (keys[0],) and listed[0].groups == (gid,) and listed[0].undone_at is None

    actions.undo_last(config, None, reviewer="bob")  # the take-out: the pair ann decided stays decided
    left = decisions(config)
    assert [(d.pair, d.verdict, d.reviewer, d.action) for d in left] == [
        (tuple(sorted(keys[:2], key=int)), DIFFERENT, "ann", first.action)]
    assert actions.history(config, None)[0].undone_at is not None
    with pytest.raises(ConfigError, match="^nothing to undo by bob in 'petitions'$"):
        actions.undo_last(config, None, reviewer="bob")
    actions.undo_last(config, None)
    assert decisions(config) == [] and groups(config) == before
    with pytest.raises(ConfigError, match="^nothing to undo in 'petitions'$"):
        actions.undo_last(config, None)


def test_forget_removes_a_decision_regroups_at_once_and_undo_puts_it_back(config):
    before = groups(config)
    gid, keys = biggest(config)
    actions.take_out(config, None, keys[0], reviewer="ann")
    cut = [d for d in decisions(config)]
    for d in cut:
        actions.forget(config, None, d.a, d.b, reviewer="ann")
    assert decisions(config) == [] and groups(config) == before  # the links came back without a full run
    actions.undo_last(config, None)  # puts the last forgotten decision back
    assert [d.pair for d in decisions(config)] == [cut[-1].pair]


def test_notes_follow_their_group_and_an_action_on_a_locked_table_is_refused(config):
    gid, keys = biggest(config)
    note = actions.note_group(config, None, gid, "  同一申请人多次来信  ", reviewer="王芳")
    actions.note_group(config, None, gid, "已合并处理", reviewer="li")
    got = actions.group_notes(config, None, gid)
    assert [(n.group, n.text, n.reviewer) for n in got] == [(gid, "同一申请人多次来信", "王芳"), (gid, "已合并处理", "li")]
    assert got[0].at == note.at and actions.group_notes(config, None, gid + 1000) == []
    with pytest.raises(ConfigError, match="^no group 99999 in 'petitions'"):
        actions.note_group(config, None, 99999, "x", reviewer="li")
    actions.take_out(config, None, keys[-1], reviewer="li")
    run_full(config)
    assert [n.text for n in actions.group_notes(config, None, gid)] == ["同一申请人多次来信", "已合并处理"]

    store = open_store(config.store_url)
    store.acquire_lock("petitions", "cronhost:42:abc", 600)
    store.close()
    for act in (lambda: actions.mark(config, None, keys[0], keys[1], SAME, reviewer="li"),
                lambda: actions.forget(config, None, keys[0], keys[1]), lambda: actions.undo_last(config, None)):
        with pytest.raises(LockedError, match=r"^table 'petitions' is locked by another run \(cronhost:42:abc\)"):
            act()


def test_the_cli_and_the_library_write_the_same_records(config, tmp_path):
    cfg = tmp_path / "demo" / "dedup.yaml"
    gid, keys = biggest(config)

    def cli(*args, code=0):
        out = CliRunner().invoke(main, ["-c", str(cfg), *args])
        assert out.exit_code == code, out.output
        return out.output

    out = cli("decide", "--take-out", keys[0], "--reviewer", "王芳", "--note", "另一件事")
    assert out.startswith(f"took {keys[0]} out of group {gid}: {len(keys) - 1} decisions;")
    listed = actions.history(config, None)
    assert (listed[0].kind, listed[0].reviewer, listed[0].note, listed[0].keys) == ("take_out", "王芳", "另一件事",
                                                                                     (keys[0],))
    assert group_of(config, keys[0]) == set()
    actions.mark(config, None, keys[1], keys[2], DIFFERENT, reviewer="lib", note="by the library")
    rows = json.loads(cli("decide", "--history", "--json"))
    assert [(r["kind"], r["reviewer"], r["note"]) for r in rows[:2]] == [("mark", "lib", "by the library"),
                                                                          ("take_out", "王芳", "另一件事")]
    assert "undid mark" in cli("decide", "--undo")
    gid = next(i for i, k in groups(config).items() if keys[1] in k)  # the mark dissolved it: a new id
    assert cli("decide", "--group", str(gid), "--note", "同一申请人", "--reviewer", "王芳") == f"noted on group {gid}\n"
    actions.note_group(config, None, gid, "by the library", reviewer="lib")
    assert [(n.text, n.reviewer) for n in actions.group_notes(config, None, gid)] == [("同一申请人", "王芳"),
                                                                                       ("by the library", "lib")]
    assert [line.split("  ", 1)[1] for line in cli("decide", "--group", str(gid)).splitlines()] == [
        "王芳  同一申请人", "lib  by the library"]
    assert cli("decide", "--undo", "--note", "x", code=2) == \
        "Error: --note goes with an action that decides, or with --group\n"
    assert cli("decide", "--undo", "--history", code=2) == \
        "Error: say one of --same, --different, --forget, --take-out, --split, --merge, --group, --undo or --history " \
        "(not --undo and --history together)\n"
    assert cli("decide", "--take-out", "99999", code=2) == "Error: row '99999' is in no group of 'petitions'\n"


def test_decisions_export_and_import_round_trip_reviewer_note_and_action(config, tmp_path):
    cfg = tmp_path / "demo" / "dedup.yaml"
    gid, keys = biggest(config)
    note = '=not a formula, "quoted"\nsecond line'
    actions.take_out(config, None, keys[0], reviewer="=王芳", note=note)
    exported = CliRunner().invoke(main, ["-c", str(cfg), "decisions", "export"]).output
    header, first = exported.splitlines()[:2]
    assert header == "a,b,verdict,decided_at,source,similarity,reviewer,note,action"
    other = tmp_path / "demo" / "other.yaml"  # the same source, a fresh SQLite store
    other.write_text(cfg.read_text(encoding="utf-8").replace(config.store_url, f"sqlite:///{tmp_path / 'other.db'}"),
                     encoding="utf-8")
    assert CliRunner().invoke(main, ["-c", str(other), "full", "-q"]).exit_code == 0
    (tmp_path / "d.csv").write_text(exported, encoding="utf-8")
    out = CliRunner().invoke(main, ["-c", str(other), "decisions", "import", str(tmp_path / "d.csv")])
    assert out.exit_code == 0 and out.output.startswith(f"imported {len(keys) - 1} decisions;"), out.output
    again = load_config(str(other))
    mine, theirs = decisions(config), decisions(again)
    assert [(d.pair, d.verdict, d.decided_at, d.source, d.reviewer, d.note, d.action) for d in theirs] == \
        [(d.pair, d.verdict, d.decided_at, d.source, d.reviewer, d.note, d.action) for d in mine]
    assert {(d.reviewer, d.note) for d in theirs} == {("=王芳", note)}
    assert CliRunner().invoke(main, ["-c", str(other), "decisions", "export"]).output == exported
    assert group_of(again, keys[0]) == set()
    # a file from before reviewers were kept still imports
    (tmp_path / "old.csv").write_text(f"a,b,verdict,decided_at,source,similarity\n{keys[1]},{keys[2]},different,,,\n",
                                      encoding="utf-8")
    assert CliRunner().invoke(main, ["-c", str(other), "decisions", "import", str(tmp_path / "old.csv")]).exit_code == 0
    assert [(d.reviewer, d.note, d.action, d.source) for d in decisions(again) if d.pair == (keys[1], keys[2])] == \
        [(None, None, None, "import")]


def test_decide_forget_takes_the_tables_lock_like_every_action(config, tmp_path):
    cfg = tmp_path / "demo" / "dedup.yaml"
    gid, keys = biggest(config)
    actions.mark(config, None, keys[0], keys[1], DIFFERENT, reviewer="li")
    store = open_store(config.store_url)
    store.acquire_lock("petitions", "cronhost:42:abc", 600)
    store.close()
    for args in ([keys[0], keys[1], "--forget"], ["--take-out", keys[0]], ["--undo"],
                 ["--split", f"{keys[0]}|{keys[1]}"]):
        out = CliRunner().invoke(main, ["-c", str(cfg), "decide", *args])
        assert out.exit_code == 3, out.output
        assert out.output.startswith("Error: table 'petitions' is locked by another run (cronhost:42:abc) until ")
    assert [(d.pair, d.reviewer) for d in decisions(config)] == [(tuple(sorted(keys[:2], key=int)), "li")]

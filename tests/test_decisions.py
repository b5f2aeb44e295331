"""Issue 10 items 1-3: explanations in the report, `dedup explain`, decisions that stick
(`decide`, `review`, export/import) and calibration without truth (`review --calibrate`,
`eval --decisions`), on the SQLite store, mongomock and (DEDUP_TEST_MONGO_URI) a live MongoDB."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)

from dedup.cli import main
from dedup.config import load_config
from dedup.demo import prepare_demo
from dedup.eval.metrics import load_truth_csv
from dedup.index.decisions import DIFFERENT, SAME, Decision, apply_decisions
from dedup.index.groups import Pair
from dedup.report.cells import display_width
from dedup.report.sidebyside import render_pair
from dedup.runs.calibrate import candidates, sample
from dedup.runs.explain import Scorer
from dedup.store import open_store


@pytest.fixture(params=["sqlite", "mongomock", "mongo_live"])
def project(request, tmp_path, monkeypatch):
    """A demo source of 150 petitions with planted duplicates, a config whose store is the
    parametrized one, and a full run done."""
    # SQLite: the demo's own store (a path relative to its config)
    url = "sqlite:///dedup-store.db" if request.param == "sqlite" else \
        store_url_of(request.param, request, tmp_path, monkeypatch)
    cfg = prepare_demo(tmp_path / "demo", rows=150, seed=7)
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("sqlite:///dedup-store.db", url), encoding="utf-8")
    out = CliRunner().invoke(main, ["-c", str(cfg), "full", "-q"])
    assert out.exit_code == 0, out.output
    return cfg


def cli(cfg, *args, input=None, code=0):
    out = CliRunner().invoke(main, ["-c", str(cfg), *args], input=input)
    assert out.exit_code == code, out.output
    return out.output


def report(cfg) -> dict:
    return json.loads(cli(cfg, "report", "-f", "json"))


def membership(rep: dict) -> dict[str, int]:
    return {r["key"]: g["group"] for g in rep["groups"] for r in g["rows"]}


def test_pairs_carry_their_similarity_and_rows_their_strongest_link(project):
    rep = report(project)
    assert rep["groups"]
    for g in rep["groups"]:
        keys = [r["key"] for r in g["rows"]]
        assert {"group", "size", "rows", "pairs"} <= set(g) and g["size"] == len(keys)  # the contract holds
        for p in g["pairs"]:
            assert {"a", "b", "distance"} <= set(p)
            assert 0.0 <= p["similarity"] <= 1.0
            assert p["fields"]["title+content"] == p["similarity"]  # the minhash recipe: Jaccard of the contents
            assert set(p["fields"]) == {"title+content", "name", "phone", "address"}
        for r in g["rows"]:
            mine = [p for p in g["pairs"] if r["key"] in (p["a"], p["b"])]
            assert r["link"] in keys and r["link"] != r["key"]
            assert r["similarity"] == max(p["similarity"] for p in mine)


def test_a_pair_decided_different_splits_and_stays_apart_through_incremental_and_full(project, tmp_path):
    before = report(project)
    pair = next(g for g in before["groups"] if g["size"] == 2)
    a, b = pair["rows"][0]["key"], pair["rows"][1]["key"]
    others = {k: g for k, g in membership(before).items() if k not in (a, b)}
    out = cli(project, "decide", a, b, "--different")
    assert f"{a} and {b} are different" in out and "1 dissolved" in out
    after = report(project)
    assert a not in membership(after) and b not in membership(after)
    assert {k: g for k, g in membership(after).items()} == others  # nothing else moved
    decided = next(g for g in before["groups"] if g["size"] >= 2 and g is not pair)
    assert "decisions" not in next(g for g in after["groups"] if g["group"] == decided["group"])

    _append_unrelated(project, 10_001)
    cli(project, "incremental", "-q")
    assert a not in membership(report(project))
    cli(project, "full", "-q")
    again = membership(report(project))
    assert a not in again and b not in again
    assert {k: g for k, g in again.items() if k != "10001"} == others  # same rows, same group ids (stable ids)


def _append_unrelated(cfg, key: int) -> None:
    url = load_config(str(cfg)).source_url
    engine = sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(tbl.insert(), [{"id": key, "name": "测试", "content": "一段与其他内容毫无关系的独立文字，用来测试。",
                                     "updated_at": dt.datetime(2099, 1, 1)}])
    engine.dispose()


def test_a_pair_decided_same_joins_two_groups_and_stays_joined_after_full(project):
    rep = report(project)
    g1, g2 = rep["groups"][0], rep["groups"][1]
    a, b = g1["rows"][0]["key"], g2["rows"][0]["key"]
    cli(project, "decide", a, b, "--same")
    joined = membership(report(project))
    assert joined[a] == joined[b] == min(g1["group"], g2["group"])  # the older id survives
    assert {k for k, g in joined.items() if g == joined[a]} == {r["key"] for r in g1["rows"] + g2["rows"]}
    cli(project, "full", "-q")
    rep = report(project)
    again = membership(rep)
    assert again[a] == again[b]
    group = next(g for g in rep["groups"] if g["group"] == again[a])
    assert {"a": min(a, b, key=int), "b": max(a, b, key=int), "decision": SAME} in group["decisions"]
    assert any(p.get("decision") == SAME for p in group["pairs"])


def test_review_reads_answers_from_stdin_and_records_them(project):
    out = cli(project, "review", "--no-color", "--width", "90", input="d\nx\nk\ns\nq\n")
    assert "answer s (same), d (different), k (skip) or q (quit)" in out  # "x" was refused and asked again
    assert "recorded 2 decisions (1 same, 1 different), skipped 1" in out
    rows = list(csv.DictReader(io.StringIO(cli(project, "decisions", "export"))))
    assert sorted(r["verdict"] for r in rows) == [DIFFERENT, SAME]
    assert {r["source"] for r in rows} == {"review"} and all(float(r["similarity"]) > 0 for r in rows)
    # the answered pairs are not asked again; quitting at once records nothing
    again = cli(project, "review", "--no-color", input="q\n")
    assert "recorded 0 decisions" in again
    shown = [line.split("]", 1)[1].split("similarity")[0].split() for line in again.splitlines() if line.startswith("[1/")]
    assert [shown[0][0], shown[0][2]] not in [[r["a"], r["b"]] for r in rows]
    assert "recorded 1 decisions (0 same, 1 different)" in cli(project, "review", "--no-color", input="d\n")  # EOF: quit


def test_explain_shows_the_rows_side_by_side_with_the_decision(project):
    rep = report(project)
    g = next(g for g in rep["groups"] if any(p["similarity"] < 1 for p in g["pairs"]))
    p = next(p for p in g["pairs"] if p["similarity"] < 1)
    out = cli(project, "explain", p["b"], p["a"], "--no-color", "--width", "80")
    view = json.loads(cli(project, "explain", p["b"], p["a"], "--json"))
    rule = view["rule"]  # the bar that accepted the pair (issue 22), not always match.threshold
    assert view["threshold"] == rule["threshold"] and p["similarity"] >= rule["threshold"]
    assert out.startswith(f"{p['a']}  <->  {p['b']}   similarity {p['similarity']:.3f} "
                          f"(threshold {rule['threshold']}: {rule['name']}, {rule['knob']})")
    assert "shared blocks (" in out and "decision: none" in out and "[" in out  # some characters differ
    colored = cli(project, "explain", p["a"], p["b"], "--color", "--width", "80")
    assert "\x1b[7m" in colored and colored.replace("\x1b[7m", "[").replace("\x1b[27m", "]") != colored
    cli(project, "decide", p["a"], p["b"], "--different")
    assert cli(project, "decide", p["a"], "99999", "--same", code=2) == \
        "Error: no fingerprinted row with key '99999' in 'petitions'\n"
    view = json.loads(cli(project, "explain", p["a"], p["b"], "--json"))
    assert view["decision"]["verdict"] == DIFFERENT and view["decision"]["applied"]
    assert view["similarity"] == p["similarity"] and view["blocks"]
    assert cli(project, "explain", p["a"], "no-such-key", code=2).startswith("Error: no row with key 'no-such-key'")


def test_decisions_export_and_import_round_trip(project, tmp_path):
    rep = report(project)
    a, b = rep["groups"][0]["rows"][0]["key"], rep["groups"][1]["rows"][0]["key"]
    cli(project, "decide", a, b, "--same")
    exported = tmp_path / "decisions.csv"
    cli(project, "decisions", "export", "-o", str(exported))
    other = tmp_path / "other.yaml"  # the same source, a fresh SQLite store
    other.write_text(project.read_text(encoding="utf-8").replace(
        _store_line(project), 'url: "sqlite:///other-store.db"'),
        encoding="utf-8")
    other.with_name("petitions.db").write_bytes(project.with_name("petitions.db").read_bytes())
    cli(other, "full", "-q")
    assert "imported 1 decisions" in cli(other, "decisions", "import", str(exported))
    assert cli(other, "decisions", "export").splitlines()[1].split(",")[:3] == \
        cli(project, "decisions", "export").splitlines()[1].split(",")[:3]
    joined = membership(report(other))
    assert joined[a] == joined[b]


def _store_line(cfg) -> str:
    return next(line.strip() for line in cfg.read_text(encoding="utf-8").splitlines()
                if line.strip().startswith("url:") and "petitions.db" not in line)


def test_calibration_samples_around_the_threshold_and_eval_suggests_one(project):
    # the loop: answers to sampled pairs are stored as calibration decisions with their similarity
    out = cli(project, "review", "--calibrate", "--per-bin", "1", "--no-color", input="s\nd\nq\n")
    assert "recorded 2 decisions (1 same, 1 different)" in out
    rows = list(csv.DictReader(io.StringIO(cli(project, "decisions", "export"))))
    assert [r["source"] for r in rows] == ["calibrate"] * 2 and all(0.45 <= float(r["similarity"]) for r in rows)
    config = load_config(str(project))
    store = open_store(config.store_url)
    try:
        scorer = Scorer.of(config, None, store)
        cands = candidates(scorer)
        near = sorted(cands.pair(n) for n in range(len(cands.i)) if 0.45 - 1e-9 <= cands.score[n] <= 0.95 + 1e-9)
        every = sample(cands, scorer.threshold, per_bin=1000, seed=1)
        assert sorted((a, b) for a, b, _ in every) == near  # every candidate near the threshold, and only those
        assert any(s < 0.75 for _, _, s in every) and any(s >= 0.75 for _, _, s in every)  # below it too
        decided = {d.pair for d in store.decisions("petitions")}
        pairs = sample(cands, scorer.threshold, per_bin=4, seed=1, exclude=decided)
        assert pairs and not decided & {(a, b) for a, b, _ in pairs}
        truth = load_truth_csv(project.with_name("truth.csv"))
        store.put_decisions("petitions", [
            Decision(a, b, SAME if truth[a] == truth[b] else DIFFERENT, None, "calibrate", s) for a, b, s in pairs])
    finally:
        store.close()
    result = json.loads(cli(project, "eval", "--decisions", "-f", "json"))
    assert result["labelled_pairs"] == len(pairs) + 2 and result["knob"] == "match.threshold"
    best = result["suggested"]
    assert 0 <= best["precision"] <= 1 and 0 <= best["recall"] <= 1
    assert best["f1"] == max(p["f1"] for p in result["points"])
    text = cli(project, "eval", "--decisions")
    assert "suggested match.threshold:" in text and "* " in text  # the current threshold is marked


def test_apply_decisions_cuts_and_joins():
    pairs = [Pair("1", "2", 3), Pair("2", "3", 1)]
    fp = {"1": 0b1, "2": 0b11, "3": 0b111, "9": 0}
    out = apply_decisions(pairs, [Decision("2", "1", DIFFERENT), Decision("9", "3", SAME)], fp)
    assert out == [Pair("2", "3", 1), Pair("3", "9", 3)]
    assert Decision("10", "9", SAME).pair == ("9", "10")  # keys in natural order
    with pytest.raises(ValueError):
        Decision("1", "1", SAME)
    with pytest.raises(ValueError):
        Decision("1", "2", "maybe")


def test_side_by_side_lines_keep_their_width_with_wide_characters():
    view = {"a": "1", "b": "2", "similarity": 0.5, "fields": [
        {"name": "content", "a": "路灯不亮已经三个月了，请尽快修理" * 3, "b": "路灯不亮已经两个月了，请尽快修理abc" * 3}]}
    lines = render_pair(view, width=61).splitlines()
    body = [line for line in lines if " | " in line][1:]
    assert body and all(display_width(line.split(" | ")[0]) == 29 for line in body)
    assert "[三]" in lines[-1] or any("[三]" in line for line in body)
    assert any("[两]" in line.split(" | ")[1] for line in body)


def test_decisions_csv_reads_what_export_writes_and_refuses_a_bad_verdict(tmp_path):
    from dedup.review.decisions_csv import read_decisions_csv
    from dedup.errors import ConfigError

    when = dt.datetime(2026, 1, 2, 3, 4, 5)
    path = tmp_path / "d.csv"
    path.write_text("a,b,verdict,decided_at,source,similarity\n'=1,'x,same,,,\n7,3,different,2025-01-01 10:00:00,review,0.5\n",
                    encoding="utf-8")
    assert read_decisions_csv(str(path), when) == [
        Decision("'x", "=1", SAME, when, "import"),  # the quote export adds before a formula goes; another stays
        Decision("3", "7", DIFFERENT, dt.datetime(2025, 1, 1, 10), "review", 0.5)]
    path.write_text("1,2,maybe\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1: a decision is one of same, different"):
        read_decisions_csv(str(path), when)

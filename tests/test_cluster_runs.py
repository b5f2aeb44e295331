"""Issue 22 end to end: chains cut by star clustering in full and incremental runs on every store,
decisions that separate rows for good, size warnings, and explain's chain of links."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from click.testing import CliRunner

from bench.datasets.clustering.planted import POOL, SEGMENT_CHARS, SEGMENTS
from dedup.cli import main
from dedup.demo.generator import SampleTable, write_sample_db
from dedup.index.decisions import Decision
from dedup.runs.decide import decide
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from helpers import config_for
from mongo_fixtures import mongo_live_url, store_url_of  # noqa: F401  (fixture)
from test_incremental import append, memberships

FIELDS = {"content": "text"}


@pytest.fixture(params=["sqlite", "postgres", "mariadb", "mongomock", "mongo_live"])
def store_url(request, tmp_path, monkeypatch):
    """Every store; mongo_live: a real MongoDB wire server (DEDUP_TEST_MONGO_URI), skipped without one."""
    return store_url_of(request.param, request, tmp_path, monkeypatch)


def chain(steps: int, seed: int = 1, segments: int = SEGMENTS) -> list[str]:
    """Originals, each the previous one with one of ``segments`` segments rewritten (at ten,
    3-gram Jaccard about 0.82 a step, 0.67 two steps apart; at twenty 0.9 a step)."""
    rng = random.Random(seed)
    seg = lambda: "".join(rng.choice(POOL) for _ in range(SEGMENT_CHARS))  # noqa: E731
    segs = [seg() for _ in range(segments)]
    out = ["".join(segs)]
    for i in range(steps):
        segs = list(segs)
        segs[i % segments] = seg()
        out.append("".join(segs))
    return out


def edit(text: str, at: int = 5) -> str:
    return text[:at] + ("好" if text[at] != "好" else "坏") + text[at + 1:]


def rows(texts, start=1):
    base = dt.datetime(2025, 1, 1)
    return [{"id": i, "content": t, "updated_at": base + dt.timedelta(minutes=i)} for i, t in enumerate(texts, start)]


def cfg_for(src, store, **kw):
    return config_for(src, store, fields=FIELDS, watermark="updated_at", **kw)


def reference(src, tmp_path, clustering="star"):
    ref = cfg_for(src, f"sqlite:///{tmp_path / f'ref-{clustering}.db'}", groups={"clustering": clustering})
    run_full(ref)
    return memberships(ref)


def test_a_chain_is_cut_between_two_incremental_runs_as_a_full_run_cuts_it(store_url, tmp_path):
    a, b, c = chain(2)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows([a, edit(a)]), {}))
    cfg = cfg_for(src, store_url)
    run_full(cfg)
    store = open_store(store_url)
    (first,) = store.groups("petitions")
    store.close()
    assert first.keys == ["1", "2"]

    append(src, rows([b], start=3))  # one step from a: it joins a's group
    run_incremental(cfg)
    assert memberships(cfg) == [["1", "2", "3"]] == reference(src, tmp_path)
    append(src, rows([c, edit(c)], start=4))  # one step from b, two from a (the centre): a group of its own
    r = run_incremental(cfg)
    assert memberships(cfg) == [["1", "2", "3"], ["4", "5"]] == reference(src, tmp_path)
    assert reference(src, tmp_path, "components") == [["1", "2", "3", "4", "5"]]  # the chain was there
    store = open_store(store_url)
    ids = {tuple(g.keys): g.id for g in store.groups("petitions")}
    store.close()
    assert ids[("1", "2", "3")] == first.id and r.new_groups == [ids[("4", "5")]] and r.merges == {}


def test_rows_taken_out_or_split_off_stay_apart_when_a_new_row_links_across(tmp_path):
    a = chain(0)[0]
    texts = [a, edit(a, 3), edit(a, 9), edit(a, 20), edit(a, 40)]
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows(texts), {}))
    cfg = cfg_for(src, f"sqlite:///{tmp_path / 'store.db'}")
    run_full(cfg)
    assert memberships(cfg) == [["1", "2", "3", "4", "5"]]
    # take 3 out, and split the rest into {1, 2} and {4, 5}
    out = [Decision("3", k, "different") for k in ("1", "2", "4", "5")]
    split = [Decision(x, y, "different") for x in ("1", "2") for y in ("4", "5")]
    decide(cfg, None, out + split)
    assert memberships(cfg) == [["1", "2"], ["4", "5"]]
    append(src, rows([edit(a, 60)], start=6))  # close to every one of them
    run_incremental(cfg)
    assert memberships(cfg) == [["1", "2", "6"], ["4", "5"]]  # 6 joins the first centre; no chain through it
    run_full(cfg)
    assert memberships(cfg) == [["1", "2", "6"], ["4", "5"]]  # a full run with the decisions: the same


def invoke(cfg_path, *args):
    out = CliRunner().invoke(main, ["-c", str(cfg_path), *args])
    assert out.exit_code == 0, out.output
    return out


def write_cfg(tmp_path, src, clustering, warn_size=20):
    path = tmp_path / f"{clustering}.yaml"
    path.write_text(json.dumps({
        "source": {"url": src}, "store": {"url": f"sqlite:///{tmp_path / f'{clustering}-store.db'}"},
        "groups": {"clustering": clustering, "warn_size": warn_size},
        "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": FIELDS}}}), encoding="utf-8")
    return path


def test_size_warnings_fire_on_a_planted_chain_and_say_so_in_json(tmp_path):
    texts = chain(40, seed=3, segments=20)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows(texts[:12]), {}))
    joined = write_cfg(tmp_path, src, "components")
    first = json.loads(invoke(joined, "full", "-q", "--json").stdout)
    assert first["warnings"] == [] and first["sizes"]["largest"] == 12
    append(src, rows(texts[12:], start=13))
    grown = json.loads(invoke(joined, "incremental", "--json").stdout)
    assert grown["sizes"]["largest"] == 41
    assert any("groups.warn_size 20" in w and "41 rows" in w for w in grown["warnings"])
    assert any("grew from 12 to 41 rows" in w for w in grown["warnings"])
    again = invoke(joined, "full", "-q")  # the text output warns on stderr
    assert "groups over groups.warn_size 20 rows" in again.stderr
    # star clustering cuts the chain: nothing to warn of
    cut = json.loads(invoke(write_cfg(tmp_path, src, "star"), "full", "-q", "--json").stdout)
    assert cut["warnings"] == [] and cut["sizes"]["largest"] < 20


def test_size_warnings_are_silent_on_the_demo(tmp_path):
    from dedup.demo import prepare_demo

    cfg = prepare_demo(tmp_path / "demo", rows=2000, seed=42)
    out = json.loads(invoke(cfg, "full", "-q", "--json").stdout)
    assert out["warnings"] == [] and out["sizes"]["groups"] == out["groups"] > 50
    out = json.loads(invoke(cfg, "full", "-q", "--json").stdout)  # against the last run: no jump
    assert out["warnings"] == []


def test_explain_shows_the_links_that_join_two_rows_of_a_group_that_are_no_pair(tmp_path):
    a = chain(0)[0]
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(rows([a, edit(a, 3), edit(a, 50)]), {}))
    path = write_cfg(tmp_path, src, "star")
    invoke(path, "full", "-q")
    view = json.loads(invoke(path, "explain", "2", "3", "--json").stdout)
    assert view["groups"] == {"2": 1, "3": 1}
    assert [(x["a"], x["b"]) for x in view["path"]] == [("2", "1"), ("1", "3")]
    assert all(0.75 <= x["similarity"] <= 1 for x in view["path"])
    text = invoke(path, "explain", "2", "3").stdout
    assert f"linked through: 2 -({view['path'][0]['similarity']:.3f})- 1 -(" in text
    direct = json.loads(invoke(path, "explain", "1", "3", "--json").stdout)
    assert direct["path"] is None  # a pair of the group: its own similarity says it all

"""The full batch end to end, on every database as source and as store."""

import numpy as np
import pytest

from dedup.index.candidates import brute_force_pairs
from dedup.config import parse_config
from dedup.errors import ConfigError
from dedup.index.groups import UnionFind
from dedup.index.keys import key_sort
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.store import open_store
from helpers import config_for, make_table, petition

SAMPLE_FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}

BASE = ("我家楼下的餐馆每天晚上十点以后还在营业，油烟和噪音很大，已经严重影响了我们一家人的休息。"
        "我们多次向物业反映，物业说管不了。希望有关部门尽快处理，还居民一个安静的环境。")
OTHER = ("某建筑公司拖欠我们二十多名工人三个月的工资，共计十五万元。我们多次找项目经理讨要，"
         "对方一直推脱，请劳动监察部门帮助我们追讨工资。")


def stored_groups(cfg):
    s = open_store(cfg.store_url)
    try:
        return [g.keys for g in s.groups("petitions")]
    finally:
        s.close()


def test_planted_copies_grouped_unrelated_rows_not(db_url, sqlite_url):
    rows = [
        petition(1, BASE, "张三", "13800138000", "噪音扰民"),
        petition(2, OTHER, "李四", "13900000000", "拖欠工资"),
        petition(3, BASE.replace("，", ",").replace("。", ". "), "张三", "138 0013 8000", "噪音扰民"),  # width/space edits
        petition(4, None), petition(5, "  "),  # nothing to fingerprint
        petition(6, BASE, "张三", "13800138000", "噪音扰民"),
    ]
    make_table(db_url, rows)
    cfg = config_for(db_url, sqlite_url)
    result = run_full(cfg, "petitions")
    assert [g.keys for g in result.groups] == [["1", "3", "6"]]
    assert result.groups[0].distances == [0, 0, 0]
    assert sorted(s.key for s in result.skipped) == ["4", "5"]
    assert result.rows_read == 6 and len(result.keys) == 4
    assert stored_groups(cfg) == [["1", "3", "6"]]


def test_sql_store_on_every_database(db_url, sqlite_url):
    make_table(sqlite_url, [petition(1, BASE, "张三"), petition(2, BASE, "张三"), petition(3, OTHER)])
    cfg = config_for(sqlite_url, db_url)
    run_full(cfg)
    assert stored_groups(cfg) == [["1", "2"]]


def test_candidate_keys_find_the_groups_of_verifying_every_pair(sqlite_url, tmp_path):
    """The shipped recipe: every pair it reports passes verification, and its groups are those of
    verifying all n*(n-1)/2 pairs (band keys can miss a pair of Jaccard J with probability
    (1 - J**4)**13; a group, held together by several pairs, far more seldom)."""
    sample = generate_petitions(400, seed=3)
    write_sample_db(sqlite_url, sample)
    cfg = config_for(sqlite_url, f"sqlite:///{tmp_path / 'store.db'}", batch_size=64, fields=SAMPLE_FIELDS)
    result = run_full(cfg)
    recipe = Recipe.of(cfg)  # a text table: nothing learned
    sk = recipe.matrix(result.sketches)
    i, j = np.triu_indices(len(sk), 1)
    ok = recipe.verify(sk[i], sk[j])
    every = {frozenset((result.keys[a], result.keys[b])) for a, b in zip(i[ok], j[ok])}
    found = {frozenset((p.a, p.b)) for p in recipe.pairs(result.keys, sk)}
    assert len(every) > 20 and found <= every
    uf = UnionFind()
    for a, b in map(tuple, every):
        uf.union(a, b)
    assert sorted(sorted(g.keys) for g in result.groups) == sorted(sorted(c) for c in uf.components())


def test_groups_equal_brute_force_on_sample_data(sqlite_url, tmp_path):
    """The papers' recipe (SimHash, distance 3): its groups are exactly the brute-force ones."""
    sample = generate_petitions(400, seed=3)
    write_sample_db(sqlite_url, sample)
    cfg = config_for(sqlite_url, f"sqlite:///{tmp_path / 'store.db'}", batch_size=64, max_distance=3,
                     match={"method": "simhash"}, fields=SAMPLE_FIELDS,
                     groups={"clustering": "components"})  # the search's exactness: groups as components
    result = run_full(cfg)
    assert result.rows_read == 400
    i, j = brute_force_pairs(result.fingerprints, 3)
    uf = UnionFind()
    for a, b in zip(i, j):
        uf.union(result.keys[a], result.keys[b])
    expected = sorted((sorted(c, key=key_sort) for c in uf.components()), key=lambda c: key_sort(c[0]))
    assert [g.keys for g in result.groups] == expected
    assert len(expected) > 5  # the sample has planted duplicates that SimHash finds
    for g in result.groups:  # distances are to the group's first row
        fp = dict(zip(result.keys, map(int, result.fingerprints)))
        assert g.distances == [(fp[k] ^ fp[g.keys[0]]).bit_count() for k in g.keys]


@pytest.mark.parametrize("rows", [
    [],
    [petition(1, BASE)],
    [petition(i, "") for i in range(1, 6)] + [petition(6, None)],
], ids=["empty", "one-row", "all-empty"])
def test_degenerate_tables_finish_with_zero_groups(rows, sqlite_url, tmp_path):
    make_table(sqlite_url, rows)
    cfg = config_for(sqlite_url, f"sqlite:///{tmp_path / 'store.db'}")
    result = run_full(cfg)
    assert result.groups == [] and result.rows_read == len(rows)
    assert stored_groups(cfg) == []


def test_rerun_replaces_previous_results(sqlite_url, tmp_path):
    cfg = config_for(sqlite_url, f"sqlite:///{tmp_path / 'store.db'}")
    make_table(sqlite_url, [petition(1, BASE), petition(2, BASE), petition(3, OTHER), petition(4, OTHER)])
    run_full(cfg)
    assert stored_groups(cfg) == [["1", "2"], ["3", "4"]]
    make_table(sqlite_url, [petition(1, BASE), petition(3, OTHER), petition(4, OTHER)])
    run_full(cfg)
    assert stored_groups(cfg) == [["3", "4"]]


def test_bad_column_fails_before_anything_is_written(sqlite_url, tmp_path):
    make_table(sqlite_url, [petition(1, BASE)])
    store_path = tmp_path / "store.db"
    cfg = config_for(sqlite_url, f"sqlite:///{store_path}", fields={"body": "text"})
    with pytest.raises(ConfigError, match="column 'body'"):
        run_full(cfg)
    assert not store_path.exists()


def test_progress_reports_every_row(sqlite_url, tmp_path):
    make_table(sqlite_url, [petition(i, f"第{i}条 {BASE}") for i in range(1, 26)])
    seen, totals = [], []
    run_full(config_for(sqlite_url, f"sqlite:///{tmp_path / 's.db'}", batch_size=7), progress=seen.append,
             on_total=totals.append)
    assert seen == [7, 7, 7, 4] and totals == [25]


def test_fingerprints_are_uint64(sqlite_url, tmp_path):
    make_table(sqlite_url, [petition(i, f"{i} {BASE}") for i in range(1, 4)])
    result = run_full(config_for(sqlite_url, f"sqlite:///{tmp_path / 's.db'}"))
    assert result.fingerprints.dtype == np.uint64 and len(result.fingerprints) == 3


def test_worker_processes_give_the_same_result(sqlite_url, tmp_path):
    sample = generate_petitions(500, seed=9)
    write_sample_db(sqlite_url, sample)
    fields = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
    results = []
    for workers in (1, 2):
        cfg = parse_config({"source": {"url": sqlite_url, "batch_size": 40},
                            "store": {"url": f"sqlite:///{tmp_path / f'store-{workers}.db'}"},
                            "text": {"workers": workers},
                            "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": fields}}})
        results.append(run_full(cfg))
    one, two = results
    assert one.keys == two.keys and np.array_equal(one.fingerprints, two.fingerprints)
    assert [g.keys for g in one.groups] == [g.keys for g in two.groups]
    assert sorted(one.skipped, key=str) == sorted(two.skipped, key=str) and one.watermark == two.watermark

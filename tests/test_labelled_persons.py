"""The labelled person records used by the benchmarks (bench/datasets/labelled/persons.py)."""

from __future__ import annotations

import csv
import re
import sqlite3
from collections import Counter, defaultdict
from datetime import datetime

import pytest

from bench.datasets.labelled.persons import (
    FIELDS, KINDS, generate_persons, id_check_digit, id_number_valid, write_sqlite, write_truth_csv,
)

N = 3000


@pytest.fixture(scope="module")
def data():
    return generate_persons(N, seed=0)


def parse_date(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})|(\d{4})/(\d{1,2})/(\d{1,2})|(\d{4})年(\d{1,2})月(\d{1,2})日|(\d{4})(\d{2})(\d{2})", text)
    assert m, text
    y, mo, d = (int(g) for g in m.groups() if g is not None)
    return y, mo, d


def clusters(data) -> dict[str, list[dict]]:
    out = defaultdict(list)
    for r in data.rows:
        out[data.truth[r["id"]]].append(r)
    return out


def test_deterministic_and_seed_dependent():
    a, b = generate_persons(400, seed=7), generate_persons(400, seed=7)
    assert a.rows == b.rows and a.truth == b.truth and a.kinds == b.kinds
    c = generate_persons(400, seed=8)
    assert [r["name"] for r in a.rows] != [r["name"] for r in c.rows]


def test_shape(data):
    assert [r["id"] for r in data.rows] == list(range(1, N + 1))
    assert set(data.truth) == set(data.kinds) == set(range(1, N + 1))
    assert set(data.kinds.values()) <= set(KINDS)
    for r in data.rows:
        assert set(r) == {"id", *FIELDS, "created_at", "updated_at"}
        assert isinstance(r["created_at"], datetime) and r["updated_at"] >= r["created_at"]
    assert generate_persons(0).rows == []
    assert len(generate_persons(1).rows) == 1 and len(generate_persons(7).rows) == 7


def test_ids_are_shuffled(data):
    # a cluster's rows are not next to each other
    adjacent = sum(1 for rows in clusters(data).values() if len(rows) >= 2
                   and max(r["id"] for r in rows) - min(r["id"] for r in rows) == len(rows) - 1)
    assert adjacent < 10


def test_check_digit_known_example():
    assert id_check_digit("11010519491231002") == "X"
    assert id_number_valid("11010519491231002X")
    assert not id_number_valid("110105194912310021")
    assert not id_number_valid(None)


def test_originals_have_valid_consistent_id_numbers(data):
    for r in data.rows:
        if data.kinds[r["id"]] == "dup_copy":
            continue
        number = r["id_number"]
        assert id_number_valid(number), r
        y, m, d = parse_date(r["birth_date"])
        assert number[6:14] == f"{y:04d}{m:02d}{d:02d}", r
        assert int(number[16]) % 2 == (1 if r["gender"] == "男" else 0), r
        assert re.fullmatch(r"1\d{10}", r["phone"]), r
        assert None not in (r[f] for f in FIELDS), r
    originals = [r["id_number"] for r in data.rows if data.kinds[r["id"]] != "dup_copy"]
    assert len(set(originals)) == len(originals)   # different people, different id numbers


def test_every_kind_present(data):
    counts = Counter(data.kinds.values())
    assert set(counts) == set(KINDS)
    assert 0.12 * N <= sum(counts[k] for k in KINDS if k.startswith("neg_")) <= 0.18 * N
    for k in ("neg_same_name", "neg_family", "neg_same_birth_district"):
        assert counts[k] >= 0.04 * N


def test_cluster_sizes(data):
    sizes = Counter(len(rows) for rows in clusters(data).values())
    assert set(sizes) == {1, 2, 3, 4, 5}
    assert sizes[2] > sizes[3] > sizes[4] > 0 and sizes[5] > 0
    in_clusters = sum(s * c for s, c in sizes.items() if s >= 2)
    assert 0.37 * N <= in_clusters <= 0.43 * N
    for rows in clusters(data).values():
        kinds = Counter(data.kinds[r["id"]] for r in rows)
        if len(rows) == 1:
            assert kinds["dup_original"] == kinds["dup_copy"] == 0
        else:
            assert kinds == Counter({"dup_original": 1, "dup_copy": len(rows) - 1})


def test_copies_differ_from_their_original(data):
    damaged = Counter()
    for rows in clusters(data).values():
        if len(rows) < 2:
            continue
        orig = next(r for r in rows if data.kinds[r["id"]] == "dup_original")
        for r in rows:
            if r is orig:
                continue
            changed = [f for f in FIELDS if r[f] != orig[f]]
            assert changed, (orig, r)
            damaged.update(changed)
    # every field gets damaged somewhere
    assert set(damaged) == set(FIELDS)
    copies = [r for r in data.rows if data.kinds[r["id"]] == "dup_copy"]
    assert any(r[f] is None for r in copies for f in FIELDS)
    assert any(re.search("[０-９]", r[f] or "") for r in copies for f in ("birth_date", "id_number", "phone"))
    assert any(re.search(r"\d+-\d+-\d+$", r["address"] or "") for r in copies)
    assert any(r["id_number"] and not id_number_valid(r["id_number"]) for r in copies)


def test_hard_negatives_resemble_someone_else(data):
    by_name, by_phone, by_birth = defaultdict(list), defaultdict(list), defaultdict(list)
    for r in data.rows:
        by_name[r["name"]].append(r)
        by_phone[(r["phone"], r["address"])].append(r)
        by_birth[r["id_number"][6:14] if r["id_number"] else None].append(r)
    for r in data.rows:
        kind, cl = data.kinds[r["id"]], data.truth[r["id"]]
        if kind == "neg_same_name":
            assert any(data.truth[o["id"]] != cl for o in by_name[r["name"]] if o is not r)
        elif kind == "neg_family":
            others = [o for o in by_phone[(r["phone"], r["address"])] if data.truth[o["id"]] != cl]
            assert others and all(o["name"] != r["name"] and o["birth_date"] != r["birth_date"] for o in others)
        elif kind == "neg_same_birth_district":
            district = re.search(r"[^省市区]+区", r["address"]).group(0)
            assert any(data.truth[o["id"]] != cl and o["name"] != r["name"] and district in (o["address"] or "")
                       for o in by_birth[r["id_number"][6:14]] if o is not r)
    # hard negatives are singletons
    sizes = Counter(data.truth.values())
    assert all(sizes[data.truth[k]] == 1 for k, v in data.kinds.items() if v.startswith("neg_") or v == "unique")


def test_common_names_repeat_among_different_people(data):
    people = defaultdict(set)
    for r in data.rows:
        if r["name"]:
            people[r["name"]].add(data.truth[r["id"]])
    assert max(len(v) for v in people.values()) >= 5


def test_write_sqlite_and_truth_round_trip(tmp_path):
    d = generate_persons(200, seed=3)
    db = tmp_path / "p.sqlite"
    write_sqlite(d, str(db))
    write_sqlite(d, str(db))   # replaces the table
    con = sqlite3.connect(db)
    try:
        cols = [c[1] for c in con.execute("PRAGMA table_info(persons)")]
        types = {c[1]: c[2] for c in con.execute("PRAGMA table_info(persons)")}
        got = [dict(zip(cols, row)) for row in con.execute("SELECT * FROM persons ORDER BY id")]
    finally:
        con.close()
    assert cols == ["id", *FIELDS, "created_at", "updated_at"]
    assert types["id"] == "INTEGER" and types["created_at"] == "DATETIME" and types["address"] == "TEXT"
    want = [{**r, "created_at": r["created_at"].strftime("%Y-%m-%d %H:%M:%S"),
             "updated_at": r["updated_at"].strftime("%Y-%m-%d %H:%M:%S")} for r in d.rows]
    assert got == want

    csv_path = tmp_path / "truth.csv"
    write_truth_csv(d, str(csv_path))
    with open(csv_path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["key", "cluster"]
    assert {int(k): c for k, c in rows[1:]} == d.truth

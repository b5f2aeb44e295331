"""The labelled petitions benchmark decides how detection quality is judged, so its promises are checked."""

from __future__ import annotations

import csv
import hashlib
import random
import re
import sqlite3
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

import pytest

from bench.datasets.labelled.petitions import (
    _BOILERPLATES,
    KINDS,
    Labelled,
    generate_petitions,
    write_sqlite,
    write_truth_csv,
)

ROOT = Path(__file__).resolve().parents[1]
N = 3000
SHORT_KINDS = {"short", "short_refiled", "short_same_topic"}
HARD_NEGATIVES = {"same_person_other_complaint", "boilerplate", "short_same_topic"}


@pytest.fixture(scope="module")
def data() -> Labelled:
    return generate_petitions(N, seed=0)


def _clusters(data: Labelled) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for key, label in data.truth.items():
        out[label].append(key)
    return out


def _rows(data: Labelled) -> dict[int, dict]:
    return {r["id"]: r for r in data.rows}


def _bigrams(text: str) -> set[str]:
    text = "".join(text.split())
    return {text[i:i + 2] for i in range(len(text) - 1)}


def _jaccard(a: str, b: str) -> float:
    x, y = _bigrams(a), _bigrams(b)
    return len(x & y) / len(x | y) if x | y else 1.0


def _norm(text: str) -> str:
    """Content with whitespace, punctuation and character width ignored."""
    text = text.translate({c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)})
    return re.sub(r"[\s\W_]", "", text)


# --- determinism ------------------------------------------------------------------------------


def test_same_seed_same_table_other_seed_other_table():
    a, b, c = generate_petitions(500, seed=3), generate_petitions(500, seed=3), generate_petitions(500, seed=4)
    assert a.rows == b.rows and a.truth == b.truth and a.kinds == b.kinds
    assert [r["content"] for r in a.rows] != [r["content"] for r in c.rows]
    assert a.truth != c.truth


def test_output_does_not_depend_on_string_hashing():
    code = ("import hashlib; from bench.datasets.labelled.petitions import generate_petitions;"
            "l = generate_petitions(300, 5);"
            "print(hashlib.sha256(repr((l.rows, l.truth, l.kinds)).encode()).hexdigest())")
    here = generate_petitions(300, 5)
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": "", "PYTHONPATH": str(ROOT)}).stdout.strip()
    assert other == hashlib.sha256(repr((here.rows, here.truth, here.kinds)).encode()).hexdigest()


# --- shape --------------------------------------------------------------------------------------


def test_ids_truth_kinds_cover_every_row(data):
    ids = [r["id"] for r in data.rows]
    assert ids == list(range(1, N + 1))
    assert sorted(data.truth) == ids and sorted(data.kinds) == ids
    assert set(data.kinds.values()) <= set(KINDS)
    for r in data.rows:
        assert set(r) == {"id", "name", "phone", "address", "title", "content", "created_at", "updated_at"}
        assert isinstance(r["content"], str) and r["content"].strip()
        assert isinstance(r["created_at"], datetime) and r["updated_at"] == r["created_at"]
        assert datetime(2023, 1, 1) <= r["created_at"] < datetime(2025, 1, 2)


def test_every_kind_is_present_in_roughly_the_intended_mix(data):
    kinds = Counter(data.kinds.values())
    assert set(kinds) == set(KINDS)
    sizes = Counter(len(m) for m in _clusters(data).values())
    in_clusters = sum(s * c for s, c in sizes.items() if s >= 2) / N
    assert 0.40 <= in_clusters <= 0.50
    assert 0.12 <= sum(kinds[k] for k in HARD_NEGATIVES) / N <= 0.18
    assert 0.05 <= sum(kinds[k] for k in SHORT_KINDS) / N <= 0.08
    # a row's kind matches whether it is in a cluster
    for label, members in _clusters(data).items():
        member_kinds = {data.kinds[m] for m in members}
        if len(members) == 1:
            assert member_kinds <= {"original"} | HARD_NEGATIVES
        else:
            assert member_kinds in ({"original", "refiled"}, {"collective"}, {"short", "short_refiled"})


def test_cluster_sizes(data):
    for members in _clusters(data).values():
        kinds = {data.kinds[m] for m in members}
        if "refiled" in kinds:
            assert 2 <= len(members) <= 6
            assert sum(data.kinds[m] == "original" for m in members) == 1
        elif "collective" in kinds:
            assert 3 <= len(members) <= 15
        elif "short_refiled" in kinds:
            assert 2 <= len(members) <= 3


def test_duplicates_do_not_get_neighbouring_ids(data):
    assert sum(data.truth[i] == data.truth[i + 1] for i in range(1, N)) == 0


def test_lengths_of_contents_and_titles(data):
    rows = _rows(data)
    long_rows = [len(r["content"]) for r in data.rows if data.kinds[r["id"]] not in SHORT_KINDS]
    assert sum(150 <= n <= 800 for n in long_rows) / len(long_rows) >= 0.9
    assert statistics.median(long_rows) >= 250
    assert max(long_rows) > 800  # a few long letters exist
    for i, kind in data.kinds.items():
        if kind in SHORT_KINDS:
            assert 10 <= len(rows[i]["content"].strip()) <= 60, rows[i]["content"]
    titles = [len(r["title"]) for r in data.rows if r["title"] is not None and data.kinds[r["id"]] not in SHORT_KINDS]
    assert sum(8 <= n <= 30 for n in titles) / len(titles) >= 0.97


def test_about_two_percent_of_short_fields_missing(data):
    for field in ("name", "phone", "address", "title"):
        share = sum(r[field] is None for r in data.rows) / N
        assert 0.008 <= share <= 0.035, (field, share)


# --- duplicates ---------------------------------------------------------------------------------


def test_refiled_copies_differ_from_the_original_but_stay_close(data):
    rows = _rows(data)
    sims = []
    for members in _clusters(data).values():
        if not any(data.kinds[m] == "refiled" for m in members):
            continue
        original = next(rows[m] for m in members if data.kinds[m] == "original")
        for m in members:
            if m == original["id"]:
                continue
            copy = rows[m]
            assert copy["created_at"] > original["created_at"]
            assert ((copy["content"], copy["title"], copy["phone"], copy["address"])
                    != (original["content"], original["title"], original["phone"], original["address"]))
            sims.append(_jaccard(copy["content"], original["content"]))
    sims.sort()
    assert len(sims) > 500
    assert statistics.median(sims) >= 0.85
    assert sims[len(sims) // 20] >= 0.6  # 5th percentile
    assert sims[-1] <= 1.0 and sum(s == 1.0 for s in sims) / len(sims) < 0.5  # most copies change the text


def test_refiled_edits_include_typos_width_and_followups(data):
    rows = _rows(data)
    copies = [rows[i]["content"] for i, k in data.kinds.items() if k == "refiled"]
    assert sum(bool(re.search(r"第[二三四五六]次反映|之前.{0,6}反映过|再次", c)) for c in copies) > 30
    assert sum(bool(re.search(r"[０-９]", c)) for c in copies) > 10
    assert sum("\n" in c for c in copies) > 30
    assert sum(c.lstrip().startswith(("尊敬", "领导", "您好", "你好", "各位", "市长")) for c in copies) > 30


def test_collective_complaints_are_near_identical_texts_by_different_people(data):
    rows = _rows(data)
    sims = []
    for members in _clusters(data).values():
        if data.kinds[members[0]] != "collective":
            continue
        people = [(rows[m]["name"], rows[m]["phone"]) for m in members]
        assert len(set(people)) == len(people)
        first = min(members, key=lambda m: rows[m]["created_at"])
        sims += [_jaccard(rows[m]["content"], rows[first]["content"]) for m in members if m != first]
    assert statistics.median(sims) >= 0.75 and min(sims) >= 0.5


def test_short_duplicates_are_small_edits(data):
    rows = _rows(data)
    for members in _clusters(data).values():
        if data.kinds[members[0]] not in ("short", "short_refiled"):
            continue
        original = next(rows[m] for m in members if data.kinds[m] == "short")
        for m in members:
            if m != original["id"]:
                assert rows[m]["content"] != original["content"]
                assert abs(len(rows[m]["content"]) - len(original["content"])) <= 12  # a greeting and a sign-off at most


# --- hard negatives -------------------------------------------------------------------------------


def test_no_accidental_duplicates_across_clusters(data):
    seen: dict[str, str] = {}
    for r in data.rows:
        key = _norm(r["content"])
        label = data.truth[r["id"]]
        assert seen.setdefault(key, label) == label, r["content"]


def test_same_person_other_complaint_shares_the_person_not_the_text(data):
    rows = _rows(data)
    by_phone: dict[str, list[int]] = defaultdict(list)
    for r in data.rows:
        if r["phone"]:
            by_phone[r["phone"]].append(r["id"])
    found = checked = 0
    for i, kind in data.kinds.items():
        if kind != "same_person_other_complaint" or not rows[i]["phone"]:
            continue
        checked += 1
        others = [j for j in by_phone[rows[i]["phone"]] if data.truth[j] != data.truth[i]]
        if others and any(rows[j]["name"] == rows[i]["name"] for j in others if rows[i]["name"]):
            found += 1
        for j in others:
            assert _jaccard(rows[i]["content"], rows[j]["content"]) < 0.6
    assert found / checked >= 0.9


def test_boilerplate_rows_share_a_long_wrapper_but_differ(data):
    rows = _rows(data)
    by_template: dict[int, list[str]] = defaultdict(list)
    shares = []
    for i, kind in data.kinds.items():
        if kind != "boilerplate":
            continue
        text = rows[i]["content"]
        hits = [t for t, (_, opening, closing, _) in enumerate(_BOILERPLATES)
                if text.startswith(opening.split("{")[0]) and text.endswith(closing)]
        assert len(hits) == 1, text
        _, opening, closing, _ = _BOILERPLATES[hits[0]]
        fixed = len(re.sub(r"\{[a-z_]+\}", "", opening)) + len(closing)  # the slot-free part only
        shares.append(fixed / len(text))
        by_template[hits[0]].append(text)
    shares.sort()
    assert len(by_template) == len(_BOILERPLATES)
    assert shares[len(shares) // 10] >= 0.22 and shares[-len(shares) // 10] <= 0.55
    rng = random.Random(0)
    same_wrapper = []
    for texts in by_template.values():
        for _ in range(60):
            a, b = rng.sample(texts, 2)
            same_wrapper.append(_jaccard(a, b))
    ids = [r["id"] for r in data.rows if data.kinds[r["id"]] == "original"]
    unrelated = []
    while len(unrelated) < 400:
        a, b = rng.sample(ids, 2)
        if data.truth[a] != data.truth[b]:
            unrelated.append(_jaccard(rows[a]["content"], rows[b]["content"]))
    assert statistics.median(same_wrapper) >= statistics.median(unrelated) + 0.08  # the wrapper is shared
    assert statistics.median(same_wrapper) <= 0.4  # but the complaints differ
    assert max(same_wrapper) < 0.85


def test_short_same_topic_negatives_differ_in_place_or_details(data):
    rows = _rows(data)
    shorts = [i for i, k in data.kinds.items() if k in SHORT_KINDS]
    negatives = [i for i in shorts if data.kinds[i] == "short_same_topic"]
    norm = {i: _norm(rows[i]["content"]) for i in shorts}
    for i in negatives:
        assert all(norm[i] != norm[j] for j in shorts if j != i)
    # yet they are close to other short petitions: these are the hard ones
    close = sum(max(_jaccard(rows[i]["content"], rows[j]["content"]) for j in shorts if j != i) >= 0.4
                for i in negatives)
    assert close / len(negatives) >= 0.3


def test_distinct_complaints_are_not_near_copies(data):
    rows = _rows(data)
    rng = random.Random(1)
    ids = [r["id"] for r in data.rows if data.kinds[r["id"]] == "original" and data.truth[r["id"]].startswith("s")]
    vocab: dict[str, int] = {}
    masks = {i: sum(1 << vocab.setdefault(g, len(vocab)) for g in _bigrams(rows[i]["content"])) for i in ids}
    best = [max((masks[i] & masks[j]).bit_count() / (masks[i] | masks[j]).bit_count() for j in ids if j != i)
            for i in rng.sample(ids, 100)]
    assert statistics.median(best) <= 0.45  # same vocabulary, different sentences
    assert statistics.median(best) >= 0.2  # but on one topic they do share vocabulary


# --- output ---------------------------------------------------------------------------------------


def test_sqlite_and_truth_csv_round_trip(tmp_path):
    labelled = generate_petitions(300, seed=7)
    db, truth_csv = tmp_path / "p.db", tmp_path / "truth.csv"
    write_sqlite(labelled, db)
    write_sqlite(labelled, db)  # a second write replaces the table
    write_truth_csv(labelled, truth_csv)
    with sqlite3.connect(db) as conn:
        cols = [(c[1], c[2]) for c in conn.execute("PRAGMA table_info(petitions)")]
        got = conn.execute("SELECT id, name, phone, address, title, content, created_at, updated_at "
                           "FROM petitions ORDER BY id").fetchall()
    assert cols == [("id", "INTEGER"), ("name", "TEXT"), ("phone", "TEXT"), ("address", "TEXT"), ("title", "TEXT"),
                    ("content", "TEXT"), ("created_at", "DATETIME"), ("updated_at", "DATETIME")]
    assert len(got) == 300
    for row, r in zip(got, labelled.rows):
        assert row[:6] == (r["id"], r["name"], r["phone"], r["address"], r["title"], r["content"])
        assert datetime.fromisoformat(row[6]) == r["created_at"] == datetime.fromisoformat(row[7])
    with open(truth_csv, encoding="utf-8", newline="") as fh:
        lines = list(csv.reader(fh))
    assert lines[0] == ["key", "cluster"]
    assert {int(k): c for k, c in lines[1:]} == labelled.truth

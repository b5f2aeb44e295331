"""The sample table is the ground truth for benchmarks, so its promises are checked here."""

from __future__ import annotations

import csv
import difflib
import hashlib
import json
import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db, write_truth_csv

STOPWORDS = Path(__file__).resolve().parent.parent / "dedup" / "text" / "data" / "stopwords-zh.txt"


@pytest.fixture(scope="module")
def sample() -> SampleTable:
    return generate_petitions(n_rows=2000, seed=42, duplicate_share=0.15)


def _clusters(sample: SampleTable) -> dict[int, list[int]]:
    clusters: dict[int, list[int]] = defaultdict(list)
    for key, label in sample.truth.items():
        clusters[label].append(key)
    return {label: sorted(keys) for label, keys in clusters.items()}


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def test_same_arguments_give_same_rows(sample):
    again = generate_petitions(n_rows=2000, seed=42, duplicate_share=0.15)
    assert again.rows == sample.rows
    assert again.truth == sample.truth


def test_rows_are_pinned():
    """Other tests pin the groups found on generated tables, so the rows must not drift (vocabulary
    moved to data files, RNG call order) without this digest changing on purpose."""
    table = generate_petitions(n_rows=300, seed=1)
    text = json.dumps({"rows": table.rows, "truth": table.truth}, sort_keys=True, default=str, ensure_ascii=False)
    assert hashlib.sha256(text.encode()).hexdigest() == "b16fa13a0438f281dfda4e3a5525827846390a1499fbf07d1293676d55fae326"

def test_other_seed_gives_other_rows(sample):
    other = generate_petitions(n_rows=2000, seed=43, duplicate_share=0.15)
    assert [r["content"] for r in other.rows] != [r["content"] for r in sample.rows]


def test_global_random_state_is_untouched():
    random.seed(7)
    expected = random.random()
    random.seed(7)
    generate_petitions(n_rows=300, seed=1)
    assert random.random() == expected


def test_ids_and_watermark_order(sample):
    assert len(sample.rows) == 2000
    assert [r["id"] for r in sample.rows] == list(range(1, 2001))
    stamps = [r["updated_at"] for r in sample.rows]
    assert all(a <= b for a, b in zip(stamps, stamps[1:]))
    assert len(set(stamps)) > 1000  # time actually advances, ties are the exception


def test_row_shape(sample):
    columns = {"id", "name", "phone", "address", "category", "title", "content", "updated_at"}
    assert all(set(r) == columns for r in sample.rows)
    phones = [r["phone"] for r in sample.rows if r["phone"] and r["phone"].strip()]
    assert all(len(p) == 11 and p.isdigit() and p[:2] in {"13", "15", "18"} for p in phones)
    assert len({r["category"] for r in sample.rows if r["category"]}) >= 12


def test_truth_covers_every_row_and_share_matches(sample):
    assert set(sample.truth) == {r["id"] for r in sample.rows}
    sizes = Counter(sample.truth.values())
    in_groups = sum(n for n in sizes.values() if n >= 2)
    assert abs(in_groups / len(sample.rows) - 0.15) <= 0.05
    assert max(sizes.values()) <= 5


def test_no_duplicates_when_share_is_zero():
    sample = generate_petitions(n_rows=300, seed=5, duplicate_share=0.0)
    assert len(set(sample.truth.values())) == 300


def test_copies_are_spread_over_the_id_range(sample):
    groups = [keys for keys in _clusters(sample).values() if len(keys) >= 2]
    assert all(b - a > 1 for keys in groups for a, b in zip(keys, keys[1:]))
    spans = [keys[-1] - keys[0] for keys in groups]
    assert statistics.median(spans) > 200


def test_content_length(sample):
    lengths = [len(r["content"]) for r in sample.rows if r["content"]]
    assert 150 <= statistics.median(lengths) <= 600


def test_copies_stay_close_to_their_original(sample):
    by_id = {r["id"]: r for r in sample.rows}
    groups = [keys for keys in _clusters(sample).values() if len(keys) >= 2]
    ratios = [
        _ratio(by_id[keys[0]]["content"], by_id[k]["content"]) for keys in groups for k in keys[1:]
    ]
    assert min(ratios) >= 0.8

    rng = random.Random(0)
    ordinary = [r for r in sample.rows if r["content"] and 20 <= len(r["content"]) <= 1000]
    unrelated = []
    while len(unrelated) < 200:
        a, b = rng.sample(ordinary, 2)
        if sample.truth[a["id"]] != sample.truth[b["id"]]:
            unrelated.append(_ratio(a["content"], b["content"]))
    assert statistics.mean(unrelated) < 0.4
    assert statistics.mean(unrelated) < statistics.mean(ratios) - 0.4


def test_copies_are_not_all_identical(sample):
    by_id = {r["id"]: r for r in sample.rows}
    groups = [keys for keys in _clusters(sample).values() if len(keys) >= 2]
    edited = sum(by_id[k]["content"] != by_id[keys[0]]["content"] for keys in groups for k in keys[1:])
    copies = sum(len(keys) - 1 for keys in groups)
    assert edited / copies > 0.5
    # collective complaints: the same text filed by another person
    assert any(by_id[k]["name"] and by_id[k]["name"] != by_id[keys[0]]["name"] for keys in groups for k in keys[1:])


def test_edge_rows_are_present(sample):
    contents = [r["content"] for r in sample.rows]
    assert any(all(r[c] is None for c in ("name", "phone", "address", "title", "content")) for r in sample.rows)
    assert any(
        all(r[c] is not None and not r[c].strip() for c in ("name", "phone", "address", "title", "content"))
        for r in sample.rows
    )
    assert any(c and c.strip() and len(c) < 20 for c in contents)
    assert any(c and len(c) > 5000 for c in contents)
    assert any(c and any("\uff21" <= ch <= "\uff5a" for ch in c) for c in contents)


def test_small_tables_skip_edge_rows():
    sample = generate_petitions(n_rows=50, seed=3)
    assert len(sample.rows) == 50
    assert all(r["content"] and len(r["content"]) >= 20 for r in sample.rows)


def test_write_sample_db_round_trip(tmp_path, sample):
    sqlalchemy = pytest.importorskip("sqlalchemy")
    url = f"sqlite:///{tmp_path}/s.db"
    write_sample_db(url, sample)
    write_sample_db(url, sample)  # a second run replaces the table instead of failing or appending
    engine = sqlalchemy.create_engine(url)
    try:
        table = sqlalchemy.Table("petitions", sqlalchemy.MetaData(), autoload_with=engine)
        with engine.connect() as conn:
            count = conn.execute(sqlalchemy.select(sqlalchemy.func.count()).select_from(table)).scalar_one()
            row = conn.execute(sqlalchemy.select(table).where(table.c.id == 1)).mappings().one()
    finally:
        engine.dispose()
    assert count == len(sample.rows)
    assert row["content"] == sample.rows[0]["content"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in row["content"])
    assert row["updated_at"] == sample.rows[0]["updated_at"]


def test_write_truth_csv(tmp_path, sample):
    path = tmp_path / "truth.csv"
    write_truth_csv(path, sample)
    with open(path, encoding="utf-8", newline="") as fh:
        lines = list(csv.reader(fh))
    assert lines[0] == ["key", "cluster"]
    assert {int(k): int(c) for k, c in lines[1:]} == sample.truth


def test_stopwords_file():
    words = [
        line.strip()
        for line in STOPWORDS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(set(words)) >= 300
    assert {"的", "了"} <= set(words)
    assert not {"物业", "工资", "噪音"} & set(words)

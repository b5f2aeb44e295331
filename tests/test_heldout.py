"""The held-out labelled sets (bench/datasets/heldout): deterministic, the kinds present in plausible shares,
truth consistent with the kinds, short complaints really short, id numbers valid."""

from __future__ import annotations

import csv
import difflib
import sqlite3
import unicodedata
from collections import Counter, defaultdict

import pytest

from bench.datasets.heldout import persons_wide, petitions_news
from helpers import need_news_corpus

need_news_corpus(module=True)

PETITION_ROWS = 2000
PERSON_ROWS = 2000


@pytest.fixture(scope="module")
def petitions():
    return petitions_news.generate_petitions(PETITION_ROWS, 100)


@pytest.fixture(scope="module")
def persons():
    return persons_wide.generate_persons(PERSON_ROWS, 100)


def clusters(data) -> dict[str, list[int]]:
    out = defaultdict(list)
    for key, label in data.truth.items():
        out[label].append(key)
    return out


def test_deterministic(petitions, persons):
    assert petitions_news.generate_petitions(PETITION_ROWS, 100).digest() == petitions.digest()
    assert persons_wide.generate_persons(PERSON_ROWS, 100).digest() == persons.digest()
    assert petitions_news.generate_petitions(300, 101).digest() != petitions_news.generate_petitions(300, 100).digest()
    assert persons_wide.generate_persons(300, 101).digest() != persons_wide.generate_persons(300, 100).digest()


def test_petition_kinds_and_shares(petitions):
    n = len(petitions.rows)
    assert n == PETITION_ROWS and [r["id"] for r in petitions.rows] == list(range(1, n + 1))
    share = {k: c / n for k, c in Counter(petitions.kinds.values()).items()}
    assert set(share) == set(petitions_news.KINDS)
    for kind, (target, _) in petitions_news.MIX.items():
        assert target / 2 <= share[kind] <= target * 2, (kind, share[kind])
    assert share["distinct_long"] > 0.4


def test_petition_truth_matches_kinds(petitions):
    rows = {r["id"]: r for r in petitions.rows}
    dup_kinds = {"long_refiled", "short_refiled", "collective"}
    for label, keys in clusters(petitions).items():
        kinds = {petitions.kinds[k] for k in keys}
        assert len(kinds) == 1
        kind = kinds.pop()
        if kind not in dup_kinds:
            assert len(keys) == 1, (kind, keys)
            continue
        assert 1 <= len(keys) <= (30 if kind == "collective" else 8)
        people = {(rows[k]["name"], rows[k]["address"]) for k in keys}
        if kind == "collective" and len(keys) > 1:
            assert len(people) == len(keys)          # every copy filed by someone else
            assert len({rows[k]["title"] for k in keys}) > len(keys) / 2   # mostly under a title of their own
        elif kind != "collective":
            assert len(people) == 1                  # refiled by the same person
    assert sum(n * (n - 1) // 2 for n in Counter(petitions.truth.values()).values()) == petitions.true_pairs() > 0


def test_short_complaints_are_short(petitions):
    for row in petitions.rows:
        kind = petitions.kinds[row["id"]]
        if kind in ("short_refiled", "distinct_short", "neg_short_topic"):
            assert 28 <= len(row["content"]) <= 62, row["content"]
        elif kind in ("long_refiled", "distinct_long", "neg_same_template"):
            assert len(row["content"]) > 100


def test_long_refiles_differ_but_overlap(petitions):
    rows = {r["id"]: r for r in petitions.rows}
    changed = 0
    for keys in clusters(petitions).values():
        if petitions.kinds[keys[0]] == "long_refiled" and len(keys) > 1:
            texts = {rows[k]["content"] for k in keys}
            changed += len(texts) > 1
            a, b = (unicodedata.normalize("NFKC", rows[k]["content"]) for k in keys[:2])
            assert difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() > 0.5
    assert changed > 20


def test_person_kinds_and_truth(persons):
    n = len(persons.rows)
    share = {k: c / n for k, c in Counter(persons.kinds.values()).items()}
    assert set(share) == set(persons_wide.KINDS)
    for kind, (target, _) in persons_wide.MIX.items():
        assert target / 2 <= share[kind] <= target * 2, (kind, share[kind])
    sizes = Counter(len(v) for v in clusters(persons).values())
    assert max(sizes) <= 4 and sizes[2] and sizes[3]
    rows = {r["id"]: r for r in persons.rows}
    for keys in clusters(persons).values():
        kinds = {persons.kinds[k] for k in keys}
        assert len(kinds) == 1 and (len(keys) == 1 or kinds == {"duplicate"})
    homes = defaultdict(set)     # family members: one address and phone, several people
    for r in persons.rows:
        if persons.kinds[r["id"]] == "family":
            homes[(r["address_1"], r["address_2"], r["phone"])].add(r["given_name"])
    assert any(len(v) > 1 for v in homes.values())
    assert len(persons.columns) == 14 and all(set(r) == set(persons.columns) for r in rows.values())


def test_person_edits_present(persons):
    dobs = [r["date_of_birth"] for r in persons.rows if r["date_of_birth"]]
    assert any("/" in d for d in dobs) and any(len(d) == 8 and d.isdigit() for d in dobs)
    assert sum(r["phone"] is None for r in persons.rows) > 10
    valid = [r["id_number"] for r in persons.rows if persons.kinds[r["id"]] != "duplicate" and r["id_number"]]
    assert valid and all(len(x) == 18 and persons_wide.id_check(x[:17]) == x[17] for x in valid)
    assert persons_wide.id_check("11010519491231002") == "X"   # the worked example of GB 11643


def test_cli_writes_db_truth_config(tmp_path):
    petitions_news.main(["--rows", "300", "--seed", "100", "--out", str(tmp_path / "p")])
    persons_wide.main(["--rows", "300", "--seed", "100", "--out", str(tmp_path / "s"), "--fingerprint", "row"])
    from dedup.config import load_config

    for sub, table in (("p", "petitions"), ("s", "persons")):
        con = sqlite3.connect(tmp_path / sub / f"{table}.db")
        assert con.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (300,)
        con.close()
        with open(tmp_path / sub / "truth.csv", encoding="utf-8") as fh:
            truth = list(csv.DictReader(fh))
        assert len(truth) == 300 and set(truth[0]) == {"key", "cluster"}
        config = load_config(str(tmp_path / sub / "dedup.yaml"))
        assert config.table(table).key == "id"

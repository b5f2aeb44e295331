"""Issue 22's held-out sets (bench/datasets/heldout22): deterministic, the traps they are for really present
(a shared form around different bodies, one topic at many places, stock sentences, corrupted
copies), truth consistent with the kinds, and the harness's group facts counting false groups."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict

from bench.datasets.heldout22 import form_letters, persons_copies, tickets, topic_place

ROWS = 3000


def _clusters(data) -> dict[str, list[dict]]:
    by_id = {r["id"]: r for r in data.rows}
    out = defaultdict(list)
    for key, label in data.truth.items():
        out[label].append(by_id[key])
    return out


def _check_kinds(data, clustered: set[str]) -> None:
    """Rows of a clustered kind share a label with another row; the other kinds stand alone."""
    sizes = Counter(data.truth.values())
    for key, kind in data.kinds.items():
        if kind not in clustered:
            assert sizes[data.truth[key]] == 1, (key, kind)
    assert sum(1 for k in data.kinds.values() if k in clustered) > 0.1 * len(data.rows)


def test_every_set_is_deterministic_and_sized():
    for gen in (form_letters.generate_letters, topic_place.generate_complaints, tickets.generate_tickets,
                persons_copies.generate_people):
        a, b = gen(800, 101), gen(800, 101)
        assert len(a.rows) == 800 and a.digest() == b.digest()
        assert gen(800, 102).digest() != a.digest()
        assert sorted(a.truth) == [r["id"] for r in a.rows] == list(range(1, 801))


def test_form_letters_share_long_forms_around_different_bodies():
    data = form_letters.generate_letters(ROWS, 100)
    _check_kinds(data, {"form_refiled", "plain_refiled"})
    per_form = Counter()
    bodies = defaultdict(set)
    for r in data.rows:
        for n, (_, opening, closing) in enumerate(form_letters.FORMS):
            if opening in r["content"] and closing in r["content"]:
                per_form[n] += 1
                bodies[n].add(data.truth[r["id"]])
                assert len(opening) + len(closing) >= 120
    wrapped = sum(per_form.values())
    assert 0.02 * ROWS < wrapped < 0.07 * ROWS
    assert len(per_form) == len(form_letters.FORMS)
    # one form, many different letters: the shared form is not what makes a duplicate
    assert all(len(labels) > 0.6 * per_form[n] for n, labels in bodies.items())
    names = Counter(r["name"] for r in data.rows)
    people = defaultdict(set)
    for r in data.rows:
        people[r["name"]].add(data.truth[r["id"]])
    assert max(len(v) for v in people.values()) >= 5, names.most_common(3)  # common names, different people


def test_topic_complaints_differ_by_place_and_numbers():
    data = topic_place.generate_complaints(ROWS, 100)
    _check_kinds(data, {"refiled_self", "refiled_neighbours"})
    true_pairs = data.true_pairs()
    assert 400 < true_pairs < 1000
    endings = [title.rsplit("}", 1)[1] for title, _ in topic_place.TOPICS]
    topics = Counter(next(e for e in endings if r["title"].endswith(e)) for r in data.rows)
    assert len(topics) == len(topic_place.TOPICS) and min(topics.values()) > ROWS / len(endings) / 3
    places = {r["title"].removesuffix(next(e for e in endings if r["title"].endswith(e))) for r in data.rows}
    assert len(places) > ROWS / 3  # one topic, many places
    for rows in _clusters(data).values():
        if len(rows) > 1 and data.kinds[rows[0]["id"]] == "refiled_neighbours":
            assert len({r["name"] for r in rows}) > 1  # neighbours: other people, one place
            first_clause = {r["title"].removeprefix("再次反映：").removeprefix("（第二次）") for r in rows}
            assert len(first_clause) == 1


def test_tickets_share_stock_sentences_and_mostly_the_email():
    data = tickets.generate_tickets(2000, 100)
    _check_kinds(data, {"resent"})
    stock = Counter(s for r in data.rows for s in tickets.STOCK if s in r["body"])
    assert stock.most_common(1)[0][1] > 0.3 * len(data.rows)
    same = total = 0
    for rows in _clusters(data).values():
        for i, a in enumerate(rows):
            for b in rows[i + 1:]:
                total += 1
                same += a["email"] == b["email"]
    assert 0.6 < same / total < 0.85
    emails = defaultdict(set)
    for r in data.rows:
        emails[r["email"]].add(data.truth[r["id"]])
    assert any(len(v) > 1 for v in emails.values())  # a customer's other problem is another ticket


def test_persons_have_up_to_five_corrupted_copies():
    data = persons_copies.generate_people(ROWS, 100)
    _check_kinds(data, {"copied"})
    sizes = Counter(Counter(data.truth.values()).values())
    assert max(sizes) == 6 and sizes[6] > 0
    missing = sum(1 for r in data.rows for c in persons_copies.TEXT if r[c] is None)
    assert missing > 0.02 * len(data.rows)
    rng = random.Random(5)
    for r in data.rows[:300]:
        original = {c: r[c] for c in persons_copies.TEXT}
        assert persons_copies.corrupt(rng, original) != original


def test_group_facts_count_false_groups():
    from bench.quality.quality22 import group_facts

    truth = {"1": "a", "2": "a", "3": "b", "4": "c", "5": "d", "6": "e", "7": "f", "8": "g", "9": "g"}
    facts = group_facts([["1", "2"], ["3", "4", "5", "6", "7", "8", "9"]], truth, list(truth))
    assert facts["largest"] == 7 and facts["largest_false"] == 7 and facts["false_groups"] == 1
    assert facts["false_over_5"] == 1
    assert facts["recall"] == 1.0 and 0 < facts["precision"] < 0.2
    clean = group_facts([["1", "2"], ["8", "9"]], truth, list(truth))
    assert clean["largest_false"] == 0 and clean["precision"] == 1.0


def test_a_rerun_that_measures_a_peer_drops_its_skipped_line(tmp_path):
    """quality22 --peers tfidf after a run that skipped TF-IDF at that size: one TF-IDF result,
    no "skipped" line beside it, and a later run skipping it again does not bring the line back."""
    from bench.quality.quality22 import save

    meta = {"tag": "t", "commit": "c", "date": "d", "command": "quality22", "machine": "m", "seed": 100}
    skipped = {"set": "tickets", "rows": 2000, "method": "tfidf", "skipped": "not run above 1,000 rows"}
    measured = {"set": "tickets", "rows": 2000, "method": "TF-IDF cosine", "peer": "tfidf", "threshold": 0.8,
                "precision": 1.0, "recall": 0.5, "f1": 0.667}
    other = {**skipped, "rows": 5000}  # another size, still skipped: kept
    methods = lambda path: sorted((ln["rows"], ln["method"]) for ln in json.loads(path.read_text())["lines"])  # noqa: E731
    path, _ = save([skipped, other], tmp_path, "t", meta)
    assert methods(path) == [(2000, "tfidf"), (5000, "tfidf")]
    save([measured], tmp_path, "t", meta)
    assert methods(path) == [(2000, "TF-IDF cosine"), (5000, "tfidf")]
    save([skipped], tmp_path, "t", meta)
    assert methods(path) == [(2000, "TF-IDF cosine"), (5000, "tfidf")]

"""The rows of bench_incremental_scale.py: the stored sample (the demo generator's, or the held-out
news petitions' in the order they were made) and the new rows an incremental run reads (edited
copies of stored rows and fresh ones). A cost benchmark only: nothing here chooses a default.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from bench.datasets.heldout import petitions_news as news
from bench.datasets.heldout.common import typo
from dedup.demo.edits import _copy
from dedup.demo.generator import SampleTable, generate_petitions


def news_sample(n: int, seed: int, docs_from: int = 0) -> tuple[SampleTable, dict[int, dict]]:
    """``n`` rows of bench/datasets/heldout/petitions_news.py's generator with ids in the order it made them
    (its ``generated``; ``generate_petitions`` shuffles the ids afterwards), so the first N rows are
    the first N rows of a set of N, whole clusters but the last; the demo table's columns (category
    NULL, updated_at a DATETIME: the generator's filing time). And the long complaints among the
    first ``docs_from`` rows whose content is their doc's unedited text (``refile_long`` refiles
    them), by id."""
    made = news.generated(random.Random(seed), n)[:n]
    rows, docs = [], {}
    for i, (row, _kind, _label) in enumerate(made, start=1):
        rows.append({"id": i, "name": row["name"], "phone": row["phone"], "address": row["address"], "category": None,
                     "title": row["title"], "content": row["content"],
                     "updated_at": datetime.strptime(row["updated_at"], "%Y-%m-%d %H:%M:%S")})
        if i <= docs_from and "frame" in row and row["content"] == "".join(news.long_text(row)):
            docs[i] = row
    return SampleTable(rows, {}), docs


def sample_of(generator: str, n: int, seed: int, docs_from: int = 0) -> tuple[SampleTable, dict[int, dict]]:
    if generator == "news":
        return news_sample(n, seed, docs_from)
    return generate_petitions(n, seed=seed), {}


def last_stored(rows: list[dict], n: int) -> dict:
    """The row of rows 1..n an incremental read resumes after: the greatest (updated_at, id) (row n
    on the demo table, whose filing times grow with the id; not on the news one)."""
    return max(rows[:n], key=lambda r: (r["updated_at"], r["id"]))


def new_rows(sample: SampleTable, n: int, seed: int, first: int) -> tuple[list[dict], dict[str, str]]:
    """``n`` rows after the sample's last: half edited copies of rows among the ``first``, half fresh;
    and copy -> original. (The demo table.)"""
    rng = random.Random(seed)
    originals = [r for r in sample.rows[:first] if r["content"] and len(r["content"]) >= 60]
    fresh = generate_petitions(n - n // 2, seed=seed + 1).rows
    last = sample.rows[-1]
    out, planted = [], {}
    for i in range(n):
        key = last["id"] + 1 + i
        if i % 2 == 0 and i // 2 < n // 2:
            base = rng.choice(originals)
            fields = _copy(rng, base, collective=False)
            planted[str(key)] = str(base["id"])
        else:
            fields = {k: v for k, v in fresh[i // 2].items() if k not in ("id", "updated_at")}
        out.append({**fields, "id": key, "updated_at": last["updated_at"] + timedelta(seconds=1 + i)})
    return out, planted


def news_new_rows(sample: SampleTable, docs: dict[int, dict], n: int, seed: int) -> tuple[list[dict], dict[str, str]]:
    """The news table's ``n`` new rows, after the latest stored one: half refiles of long complaints
    among the first rows (``docs``), made as the generator makes its ``long_refiled`` copies (same
    person, the title kept or with a typo, the content ``refile_long``: 1-4 of sentence dropped,
    inserted or swapped, typos, punctuation width, a digit, whitespace); half fresh rows of the
    generator with seed + 1; and copy -> original."""
    rng = random.Random(seed)
    originals = sorted(docs)
    fresh, _ = news_sample(n - n // 2, seed + 1)
    latest = max(r["updated_at"] for r in sample.rows)
    out, planted = [], {}
    for i in range(n):
        key = len(sample.rows) + 1 + i
        if i % 2 == 0 and i // 2 < n // 2:
            original = rng.choice(originals)
            doc = docs[original]
            title = doc["title"] if rng.random() < 0.7 else typo(rng, doc["title"])
            fields = {"name": doc["name"], "phone": doc["phone"], "address": doc["address"], "category": None,
                      "title": title, "content": news.refile_long(rng, doc)}
            planted[str(key)] = str(original)
        else:
            fields = {k: v for k, v in fresh.rows[i // 2].items() if k not in ("id", "updated_at")}
        out.append({**fields, "id": key, "updated_at": latest + timedelta(seconds=1 + i)})
    return out, planted

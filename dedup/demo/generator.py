"""A synthetic petitions table with known duplicate groups.

Real petitions are personal data, so benchmarks and demos run on generated ones; the planted groups
are the ground truth that precision and recall are measured against. Only ``random.Random(seed)``
is used, so a (n_rows, seed, duplicate_share) triple always yields the same table. The words and
sentence templates are data files (dedup/demo/data, read by vocabulary.py); writing.py fills them in,
edits.py makes the copies and odd rows, and this module decides which rows are which.
"""

from __future__ import annotations

import csv
import os
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..output_file import replacing
from .edits import _EDGE_KINDS, _FULLWIDTH_SENTENCES, _copy, _edge_row
from .writing import _TOPICS, _int, _person, _person_fields, _petition, _sample

__all__ = ["SampleTable", "generate_petitions", "write_sample_db", "write_truth_csv"]


@dataclass(frozen=True)
class SampleTable:
    rows: list[dict]
    truth: dict[int, int]


# ---------------------------------------------------------------------------------------------
# Public API


def _group_sizes(rng: random.Random, total: int) -> list[int]:
    sizes, remaining = [], total
    while remaining >= 2:
        s = min(rng.choices((2, 3, 4, 5), weights=(50, 25, 15, 10))[0], remaining)
        if remaining - s == 1:
            s = s + 1 if s < 5 else s - 1
        sizes.append(s)
        remaining -= s
    return sizes


def _assign_ids(rng: random.Random, pool: list[int], sizes: list[int]) -> list[list[int]]:
    """Random ids per group, avoiding neighbouring ids inside a group while possible."""
    rng.shuffle(pool)
    groups: list[list[int]] = []
    deferred: list[int] = []
    for size in sizes:
        members: list[int] = []
        rejected = 0
        while len(members) < size:
            i = deferred.pop() if deferred and (not pool or rng.random() < 0.5) else pool.pop()
            if rejected < 50 and any(abs(i - m) == 1 for m in members):
                rejected += 1
                deferred.insert(0, i)
                continue
            members.append(i)
        groups.append(sorted(members))
    return groups


def generate_petitions(n_rows: int = 2000, seed: int = 42, duplicate_share: float = 0.15) -> SampleTable:
    """Rows 1..n_rows with ``updated_at`` non-decreasing by id; the lowest id of a group is its original."""
    if n_rows < 0:
        raise ValueError("n_rows must be >= 0")
    if not 0.0 <= duplicate_share <= 1.0:
        raise ValueError("duplicate_share must be between 0 and 1")
    rng = random.Random(seed)
    ids = list(range(1, n_rows + 1))

    edge: dict[int, str] = {}
    if n_rows >= 200:
        edge = dict(zip(_sample(rng, ids, len(_EDGE_KINDS)), _EDGE_KINDS))
    pool = [i for i in ids if i not in edge]
    sizes = _group_sizes(rng, min(round(n_rows * duplicate_share), len(pool)))
    groups = _assign_ids(rng, pool, sizes)

    truth = {i: i for i in ids}
    copy_of: dict[int, tuple[int, bool]] = {}
    bases: set[int] = set()
    for members in groups:
        collective = rng.random() < 0.25
        bases.add(members[0])
        for m in members:
            truth[m] = members[0]
        for m in members[1:]:
            copy_of[m] = (members[0], collective)

    shorts = [(t, s) for t in _TOPICS for s in t.short]
    shorts = _sample(rng, shorts, len(shorts))
    odd_sentences = _sample(rng, _FULLWIDTH_SENTENCES, len(_FULLWIDTH_SENTENCES))

    base_time = datetime(2024, 1, 1)
    seconds = 0
    rows: list[dict] = []
    kept: dict[int, dict] = {}  # base rows (with their petitioner) still waiting for copies
    for i in ids:
        seconds += 0 if rng.random() < 0.1 else _int(rng, 1, 900)
        if i in edge:
            fields = _edge_row(rng, edge[i], shorts, odd_sentences)
        elif i in copy_of:
            base_id, collective = copy_of[i]
            fields = _copy(rng, kept[base_id], collective)
        else:
            person = _person(rng)
            fields = _petition(rng, person, min_len=150 if i in bases else 0)
            fields.update(_person_fields(rng, person, 0.0 if i in bases else 0.02))
            if i in bases:
                kept[i] = {**fields, "_person": person}
        rows.append({"id": i, "name": fields["name"], "phone": fields["phone"], "address": fields["address"],
                     "category": fields["category"], "title": fields["title"], "content": fields["content"],
                     "updated_at": base_time + timedelta(seconds=seconds)})
    return SampleTable(rows=rows, truth=truth)


def write_sample_db(url: str, sample: SampleTable, table: str = "petitions") -> None:
    """Create (drop first if exists) ``table`` at ``url`` and insert the rows in batches."""
    # Imported here so generating data needs nothing beyond the standard library.
    from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text, create_engine, insert
    from sqlalchemy.dialects.mysql import MEDIUMTEXT

    metadata = MetaData()
    petitions = Table(
        table, metadata,
        Column("id", Integer, primary_key=True, autoincrement=False),
        Column("name", String(50)),
        Column("phone", String(30)),
        Column("address", String(200)),
        Column("category", String(50)),
        Column("title", String(200)),
        Column("content", Text().with_variant(MEDIUMTEXT(), "mysql", "mariadb")),
        Column("updated_at", DateTime),
    )
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            petitions.drop(conn, checkfirst=True)
            petitions.create(conn)
            for start in range(0, len(sample.rows), 1000):
                conn.execute(insert(petitions), sample.rows[start:start + 1000])
    finally:
        engine.dispose()


def write_truth_csv(path: str | os.PathLike, sample: SampleTable) -> None:
    """``key,cluster`` per row, in id order."""
    with replacing(path, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["key", "cluster"])
        for key in sorted(sample.truth):
            writer.writerow([key, sample.truth[key]])

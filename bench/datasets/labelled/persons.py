"""Labelled Chinese person records: the relational case for the benchmarks.

``generate_persons(n_rows, seed)`` makes a ``persons`` table (name, gender, birth_date, id_number,
phone, address, created_at, updated_at) in which some real people appear several times, each copy
damaged the way hand-entered records are, and in which different people look alike on purpose.

What is planted (shares of rows, roughly):

* ``dup_original`` / ``dup_copy`` (about 40 % together): one real person recorded 2–5 times
  (sizes skewed to 2: weights 60/25/10/5 %). The first record is clean; each copy gets 1–3
  corruptions drawn from: a homophone or look-alike character in the name (伟/玮/炜, 明/铭,
  张/章, ...), the given name's two characters swapped, a field left empty (None), day and month
  swapped in the birth date, the birth date in another format or written with full-width digits,
  two adjacent digits swapped or one digit mistyped in the id number or phone, the address shortened
  or written another way (province and city dropped, street dropped, "3幢2单元501室" as "3-2-501",
  "幢"/"栋"/"号楼", no "室"), a new phone number, and now and then a move to a completely new address.
  Every copy differs from its original in at least one of the six data fields.
* ``neg_same_name``, ``neg_family``, ``neg_same_birth_district`` (about 15 % together, a third
  each): a different person made to resemble an existing one (the anchor): the same name (a common
  one where possible, half of them in the anchor's district); a family member (spouse, child or
  parent: same address and phone, different name and birth date); or someone born on the anchor's
  birth date who lives in the same district (their id numbers then often share the first 14 digits).
  These are singletons in the truth and must not be grouped with the anchor.
* ``unique`` (the rest): people recorded once.

Names follow a realistic frequency: surnames are weighted by their share of the population and
about one given name in seven are drawn from the most common ones (伟, 芳, 娜, 秀英, 敏, 静, ...), so
names such as 王伟 or 李娜 recur among different people without any planting. Birth dates are text
in the formats "1985-03-07", "1985/3/7", "1985年3月7日" and "19850307". Id numbers are 18 digits:
a real region code, the birth date, a three-digit sequence whose last digit is odd for men and even
for women, and the ISO 7064 MOD 11-2 check digit; originals are always valid and consistent with
birth date and gender (copies may not be, that is the point).

Only ``random.Random(seed)`` is used, and never ``hash()`` of a string, so ``(n_rows, seed)``
always yields the same table. Row ids are 1..n in shuffled order, so a cluster's rows are not
adjacent; ``rows`` is sorted by id.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from dataclasses import replace
from datetime import datetime

from bench.datasets.labelled.common import Labelled, write_truth_csv
from bench.datasets.labelled.person_corruptions import _corrupt
from bench.datasets.labelled.person_records import (
    _DISTRICTS, _Person, _row, _World, id_check_digit, id_number_valid,
)

__all__ = [
    "FIELDS", "KINDS", "Labelled", "generate_persons", "id_check_digit", "id_number_valid",
    "write_sqlite", "write_truth_csv",
]

FIELDS = ("name", "gender", "birth_date", "id_number", "phone", "address")
KINDS = ("unique", "dup_original", "dup_copy", "neg_same_name", "neg_family", "neg_same_birth_district")

_CLUSTER_SIZES = (2, 3, 4, 5)
_CLUSTER_SIZE_WEIGHTS = (60, 25, 10, 5)
_CLUSTER_SHARE = 0.40
_NEGATIVE_SHARE = 0.15


# ---------------------------------------------------------------------------------------------
# The table


def generate_persons(n_rows: int, seed: int = 0) -> Labelled:
    """``n_rows`` person records with planted duplicate clusters and hard negatives (see the module doc)."""
    if n_rows < 0:
        raise ValueError("n_rows must be >= 0")
    rng = random.Random(seed)
    world = _World(rng)
    records: list[tuple[dict, str, str]] = []   # (row without id/timestamps, cluster label, kind)
    stamps: list[tuple[datetime, datetime]] = []
    anchors: list[_Person] = []
    popular_anchors: list[_Person] = []
    label = 0

    def add_person(p: _Person) -> None:
        anchors.append(p)
        if p.popular:
            popular_anchors.append(p)

    # duplicate clusters
    cluster_target = round(n_rows * _CLUSTER_SHARE)
    in_clusters = 0
    while cluster_target - in_clusters >= 2:
        size = min(rng.choices(_CLUSTER_SIZES, _CLUSTER_SIZE_WEIGHTS)[0], cluster_target - in_clusters)
        if cluster_target - in_clusters - size == 1:
            size -= 1 if size > 2 else -1
        p = world.person()
        add_person(p)
        label += 1
        cl = f"c{label:06d}"
        records.append((_row(p), cl, "dup_original"))
        first = world.timestamps()
        stamps.append(first)
        clean = records[-1][0]
        for _ in range(size - 1):
            row, _applied = _corrupt(world, p, rng.choices((1, 2, 3), (50, 35, 15))[0])
            while all(row[f] == clean[f] for f in FIELDS):   # every corruption chosen was a no-op
                row, _applied = _corrupt(world, p, 1)
            records.append((row, cl, "dup_copy"))
            stamps.append(world.timestamps(after=first[0]))
        in_clusters += size

    # people recorded once
    negatives_target = round(n_rows * _NEGATIVE_SHARE)
    n_unique = max(0, n_rows - len(records) - negatives_target)
    for _ in range(n_unique):
        p = world.person()
        add_person(p)
        label += 1
        records.append((_row(p), f"s{label:06d}", "unique"))
        stamps.append(world.timestamps())

    # hard negatives: different people resembling an anchor
    kinds_cycle = ("neg_same_name", "neg_family", "neg_same_birth_district")
    k = 0
    while len(records) < n_rows:
        kind = kinds_cycle[k % 3]
        k += 1
        if not anchors:   # a tiny table: nobody to resemble yet
            p = world.person()
            add_person(p)
            kind = "unique"
        elif kind == "neg_same_name":
            a = rng.choice(popular_anchors) if popular_anchors and rng.random() < 0.8 else rng.choice(anchors)
            near = world.address(a.address.district) if rng.random() < 0.5 else None
            p = world.person(gender=a.gender, surname=a.surname, address=near)
            p.given, p.popular = a.given, a.popular
            while p.birth == a.birth:
                p.birth = world.birth()
            world.unique_id(p)
        elif kind == "neg_family":
            a = rng.choice(anchors)
            role = rng.choice(("spouse", "child", "parent"))
            y, m, d = a.birth
            if role == "spouse":
                gender = "女" if a.gender == "男" else "男"
                yy = y + rng.randint(-5, 5)
                surname = None
            else:
                gender = None
                yy = y + rng.randint(20, 35) * (1 if role == "child" else -1)
                surname = a.surname if role == "child" or a.gender == "男" or rng.random() < 0.5 else None
            yy = min(max(yy, 1920), 2014)
            birth = world.birth(yy, yy)
            address = replace(a.address)
            p = world.person(gender=gender, surname=surname, birth=birth, phone=a.phone, address=address)
            while p.given == a.given or p.name == a.name:
                p.given, p.popular = world.given(p.gender)
            while p.birth == a.birth:
                p.birth = world.birth(yy, yy)
            world.unique_id(p)
        else:
            a = rng.choice(anchors)
            region = _DISTRICTS[a.address.district][3]
            p = world.person(birth=a.birth, address=world.address(a.address.district), id_region=region)
            while p.name == a.name:
                p.given, p.popular = world.given(p.gender)
        label += 1
        records.append((_row(p), f"s{label:06d}", kind))
        stamps.append(world.timestamps())

    ids = list(range(1, n_rows + 1))
    rng.shuffle(ids)
    rows: list[dict] = []
    truth: dict[int, str] = {}
    kinds: dict[int, str] = {}
    for rid, (row, cl, kind), (created, updated) in zip(ids, records, stamps):
        rows.append({"id": rid, **row, "created_at": created, "updated_at": updated})
        truth[rid] = cl
        kinds[rid] = kind
    rows.sort(key=lambda r: r["id"])
    return Labelled(rows=rows, truth=dict(sorted(truth.items())), kinds=dict(sorted(kinds.items())))


# ---------------------------------------------------------------------------------------------
# Output


def _db_value(v):
    return v.strftime("%Y-%m-%d %H:%M:%S") if isinstance(v, datetime) else v


def write_sqlite(labelled: Labelled, path: str, table: str = "persons") -> None:
    """Create (drop first if it exists) ``table`` in the SQLite file ``path`` and insert the rows.

    Datetimes are stored as ``YYYY-MM-DD HH:MM:SS`` text, which SQLAlchemy reads back as datetimes.
    """
    if not table.replace("_", "").isalnum():
        raise ValueError(f"unsafe table name {table!r}")
    cols = ("id",) + FIELDS + ("created_at", "updated_at")
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute(f'DROP TABLE IF EXISTS "{table}"')
            con.execute(
                f'CREATE TABLE "{table}" (id INTEGER PRIMARY KEY, name TEXT, gender TEXT, birth_date TEXT, '
                "id_number TEXT, phone TEXT, address TEXT, created_at DATETIME, updated_at DATETIME)"
            )
            con.executemany(
                f'INSERT INTO "{table}" ({", ".join(cols)}) VALUES ({", ".join("?" * len(cols))})',
                ([_db_value(r[c]) for c in cols] for r in labelled.rows),
            )
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the labelled persons table to SQLite and its truth to CSV.")
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--db", required=True, help="SQLite file to write")
    ap.add_argument("--table", default="persons")
    ap.add_argument("--truth", required=True, help="CSV file to write (key,cluster)")
    args = ap.parse_args(argv)
    data = generate_persons(args.rows, args.seed)
    write_sqlite(data, args.db, args.table)
    write_truth_csv(data, args.truth)
    print(f"{len(data.rows)} rows -> {args.db}:{args.table}, truth -> {args.truth}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

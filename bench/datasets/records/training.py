"""The record-table benchmarks' tables: the training table and the held-out loader (the pipeline they
run is bench/quality/records/pipeline.py).

Training (settings are chosen on this only): bench/datasets/labelled/persons widened to 11 fields the
way issue 14's research prototype did (surname, given_name, gender, birth_date, id_number,
phone, province, city, district, street, status with 10 values kept by a copy with probability 0.9),
plus households: 15 % of the rows are family members sharing a person's phone and address
(``household_members``; bench/datasets/labelled/persons plants only one relative for 5 % of its rows).
Held-out (reporting only, never tuning): bench/datasets/heldout/persons_wide.py's persons.db + truth.csv.
"""

from __future__ import annotations

import csv
import random
import re
import sqlite3
from pathlib import Path

from bench.datasets.labelled.persons import generate_persons, id_check_digit

TRAIN_FIELDS = ("surname", "given_name", "gender", "birth_date", "id_number", "phone", "province", "city",
                "district", "street", "status")
HELDOUT_FIELDS = ("surname", "given_name", "street_number", "address_1", "address_2", "suburb", "postcode", "state",
                  "gender", "date_of_birth", "id_number", "phone")
HOUSEHOLDS = 0.15  # share of training rows that are family members of an earlier person
_ADDR = re.compile(r"^(?P<province>[^省]+省)?(?P<city>[^市]+市)?(?P<district>[^区县]+[区县])?(?P<street>.*)$")


def training(n: int, seed: int, households: float = HOUSEHOLDS) -> tuple[list[dict], dict[str, str], tuple[str, ...]]:
    """(rows, truth key -> cluster, fields) of the widened bench/datasets/labelled/persons table, with
    ``households`` of its ``n`` rows family members of earlier people (``household_members``)."""
    extra = round(n * households)
    data = generate_persons(n - extra, seed)
    rng = random.Random(500 + seed)
    status: dict = {}
    rows = []
    for r in data.rows:
        lab = data.truth[r["id"]]
        name = r["name"] or ""
        m = _ADDR.match(r["address"]) if r["address"] else None
        st = status.setdefault(lab, f"状态{rng.randrange(10)}")
        if rng.random() < 0.1:
            st = f"状态{rng.randrange(10)}"
        rows.append({"id": r["id"], "surname": name[:1] or None, "given_name": name[1:] or None,
                     "gender": r["gender"], "birth_date": r["birth_date"], "id_number": r["id_number"],
                     "phone": r["phone"], "province": m and m["province"], "city": m and m["city"],
                     "district": m and m["district"], "street": (m and m["street"]) or None, "status": st})
    truth = {str(k): str(v) for k, v in data.truth.items()}
    anchors = [r for r in rows if data.kinds[r["id"]] in ("unique", "dup_original")]
    for row in household_members(anchors, extra, random.Random(900 + seed), len(rows) + 1):
        rows.append(row)
        truth[str(row["id"])] = f"h{row['id']}"
    return rows, truth, TRAIN_FIELDS


def household_members(anchors: list[dict], count: int, rng: random.Random, first_id: int) -> list[dict]:
    """``count`` new people living with an anchor, 1 to 3 per household (weights 50/35/15): the
    anchor's phone and address (province to street), the anchor's surname for a child and half the
    spouses (another surname otherwise), their own given name (another person's), gender, birth
    date (a spouse within 6 years of the anchor, a child 20 to 35 years younger), a valid id number
    of the anchor's region code with their birth date and gender, and a status of their own. Each
    is its own person in the truth; they are entered once and clean."""
    given = [a["given_name"] for a in anchors if a["given_name"]]
    surnames = [a["surname"] for a in anchors if a["surname"]]
    out: list[dict] = []
    while len(out) < count:
        a = rng.choice(anchors)
        ay = int(a["id_number"][6:10]) if a["id_number"] and a["id_number"][6:10].isdigit() else 1970
        for _ in range(min(rng.choices((1, 2, 3), (50, 35, 15))[0], count - len(out))):
            child = rng.random() < 0.5
            y = ay + (rng.randint(20, 35) if child else rng.randint(-6, 6))
            born = (min(max(y, 1920), 2015), rng.randint(1, 12), rng.randint(1, 28))
            gender = rng.choice("男女")
            seq = rng.randrange(0, 1000, 2) + (1 if gender == "男" else 0)
            region = a["id_number"][:6] if a["id_number"] else "110101"
            first17 = f"{region}{born[0]:04d}{born[1]:02d}{born[2]:02d}{seq % 1000:03d}"
            out.append({"id": first_id + len(out), "surname": a["surname"] if child or rng.random() < 0.5
                        else rng.choice(surnames), "given_name": rng.choice(given), "gender": gender,
                        "birth_date": f"{born[0]}-{born[1]:02d}-{born[2]:02d}",
                        "id_number": first17 + id_check_digit(first17), "phone": a["phone"],
                        "province": a["province"], "city": a["city"], "district": a["district"],
                        "street": a["street"], "status": f"状态{rng.randrange(10)}"})
    return out


def heldout(folder: str) -> tuple[list[dict], dict[str, str], tuple[str, ...]]:
    """(rows, truth, fields) of a folder written by bench/datasets/heldout/persons_wide.py."""
    con = sqlite3.connect(str(Path(folder) / "persons.db"))
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute("SELECT * FROM persons ORDER BY id")]
    con.close()
    with open(Path(folder) / "truth.csv", encoding="utf-8") as fh:
        truth = {r["key"]: r["cluster"] for r in csv.DictReader(fh)}
    return rows, truth, HELDOUT_FIELDS

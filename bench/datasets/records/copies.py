"""TUNING persons with several corrupted copies each (issue 22): the table the record floor keys
and their defaults were chosen on. Never a held-out set.

    python -m bench.datasets.records.copies --rows 20000 --seed 0 --out DIR [--copied 1.0] [--family 0.08]

writes DIR/persons.db (table ``persons``: id, given_name, surname, street_number, address_1,
address_2, suburb, postcode, state, date_of_birth, id_number, updated_at: 10 text columns),
DIR/truth.csv (``key,cluster``) and DIR/dedup.yaml (every column a ``short`` field) for
`dedup eval`. ``generate(n, seed)`` gives the rows and truth to the library benchmarks.

What is planted: every person (``copied``: a share of them) is recorded again 1 to 5 times (equal weights);
each copy is made from the original with 1 to 5 damaged fields (weights 20/30/25/15/10), each damage
a typo (a character inserted, dropped, replaced by a keyboard neighbour, or two swapped), the
value left empty, or a field-shaped change (day and month of the date of birth swapped, a postcode
digit, the given name cut to its initial, the street number off by a few, given name and surname
swapped). Copies are damaged independently, so two copies of a person may differ on 8 fields.
Look-alikes that are different people: 8 % of the rows are family members (an anchor's surname and
whole address, their own given name, date of birth and id number) and 3 % namesakes (an anchor's
full name, everything else their own). Names are made of syllables of this file's own (no list
shared with bench/datasets/labelled or bench/datasets/heldout), drawn with Zipf-like weights so common surnames
recur. Only ``random.Random`` is used: (rows, seed) always gives the same table.
"""

from __future__ import annotations

import argparse
import csv
import random
import sqlite3
from itertools import accumulate
from pathlib import Path

FIELDS = ("given_name", "surname", "street_number", "address_1", "address_2", "suburb", "postcode", "state",
          "date_of_birth", "id_number")
_ONSETS = "b br c ch d dr f g gr h j k kl l m n p pr r s sh st t tr v w z".split()
_VOWELS = "a e i o u ai ea ie oo ou".split()
_CODAS = ["", "", "n", "r", "l", "s", "t", "m", "ck", "nd", "rt", "ll", "ng"]
_STREET_KINDS = "street road avenue place crescent court drive lane parade terrace".split()
_PLACES = ["unit", "flat", "suite", "level", "house", "lodge", "villa"]
_STATES = ("nsw", "vic", "qld", "wa", "sa", "tas", "act", "nt")
_NEAR = {c: n for c, n in zip("qwertyuiopasdfghjklzxcvbnm", (
    "wa", "qe", "wr", "et", "ry", "tu", "yi", "uo", "ip", "o", "qs", "ad", "sf", "dg", "fh", "gj", "hk", "jl",
    "k", "x", "zc", "xv", "cb", "vn", "bm", "n"))}
_NEAR.update({d: n for d, n in zip("0123456789", ("9", "2", "13", "24", "35", "46", "57", "68", "79", "80"))})
COPIES = ((1, 2, 3, 4, 5), (20, 20, 20, 20, 20))
DAMAGED = ((1, 2, 3, 4, 5), (20, 30, 25, 15, 10))


def _word(rng: random.Random, syllables: tuple[int, int]) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                   for _ in range(rng.randint(*syllables)))


class Vocabulary:
    """The names, streets and suburbs of one table (made from ``seed``), each list with Zipf-like
    cumulative weights."""

    def __init__(self, seed: int):
        rng = random.Random(7919 + seed)
        self.surnames = sorted({_word(rng, (1, 3)) for _ in range(4000)})
        self.given = sorted({_word(rng, (1, 2)) for _ in range(1500)})
        self.streets = sorted({_word(rng, (1, 2)) for _ in range(2500)})
        self.places = sorted({_word(rng, (1, 2)) for _ in range(300)})
        names = sorted({_word(rng, (2, 3)) for _ in range(1200)})
        self.suburbs = [(s, f"{rng.randrange(200, 9999):04d}", rng.choice(_STATES)) for s in names]
        for lst in (self.surnames, self.given, self.streets, self.suburbs):
            rng.shuffle(lst)
        self._cum = {id(lst): list(accumulate(1 / (r + 5) ** 0.9 for r in range(len(lst))))
                     for lst in (self.surnames, self.given, self.streets, self.suburbs)}

    def draw(self, rng: random.Random, lst: list):
        return rng.choices(lst, cum_weights=self._cum[id(lst)])[0]


def person(rng: random.Random, voc: Vocabulary, ids: set[str], home: dict | None = None) -> dict:
    """A clean person (at ``home``'s address and with its surname when given)."""
    while True:
        pid = f"{rng.randrange(10 ** 6, 10 ** 7)}"
        if pid not in ids:
            ids.add(pid)
            break
    row = {"given_name": voc.draw(rng, voc.given), "surname": voc.draw(rng, voc.surnames),
           "date_of_birth": f"{rng.randint(1930, 2012)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}",
           "id_number": pid}
    if home is not None:
        row.update({k: home[k] for k in ("surname", "street_number", "address_1", "address_2", "suburb",
                                         "postcode", "state")})
        return row
    suburb, postcode, state = voc.draw(rng, voc.suburbs)
    row.update({"street_number": str(rng.choice((rng.randint(1, 60), rng.randint(1, 999)))),
                "address_1": f"{voc.draw(rng, voc.streets)} {rng.choice(_STREET_KINDS)}",
                "address_2": f"{rng.choice(_PLACES)} {rng.choice(voc.places)}" if rng.random() < 0.35 else None,
                "suburb": suburb, "postcode": postcode, "state": state})
    return row


def typo(rng: random.Random, s: str) -> str:
    """One keyboard slip: a character inserted, dropped, replaced by a neighbour, or two swapped."""
    if len(s) < 2:
        return s + rng.choice("aeiou")
    i = rng.randrange(len(s))
    kind = rng.randrange(4)
    near = _NEAR.get(s[i], "e")
    if kind == 0:
        return s[:i] + rng.choice(near) + s[i:]
    if kind == 1:
        return s[:i] + s[i + 1:]
    if kind == 2:
        return s[:i] + rng.choice(near) + s[i + 1:]
    j = min(i + 1, len(s) - 1) if i + 1 < len(s) else i - 1
    a, b = sorted((i, j))
    return s[:a] + s[b] + s[a] + s[b + 1:]


def damage(rng: random.Random, row: dict, f: str) -> None:
    """Field ``f`` of ``row`` damaged in place (see the module doc)."""
    v = row[f]
    roll = rng.random()
    if v is None or roll < 0.3:
        row[f] = None
    elif f == "date_of_birth" and roll < 0.5 and int(v[6:]) <= 12:
        row[f] = v[:4] + v[6:] + v[4:6]
    elif f == "given_name" and roll < 0.4:
        row[f] = v[0]
    elif f == "street_number" and roll < 0.45:
        row[f] = str(max(1, int(v) + rng.choice((-2, -1, 1, 2, 10))))
    elif f in ("given_name", "surname") and roll < 0.36:
        row["given_name"], row["surname"] = row["surname"], row["given_name"]
    else:
        row[f] = typo(rng, v)


def copy_of(rng: random.Random, base: dict) -> dict:
    row = dict(base)
    weights = (14, 14, 7, 10, 4, 10, 9, 3, 12, 10)
    chosen: set[str] = set()
    want = rng.choices(*DAMAGED)[0]
    while len(chosen) < want:
        chosen.add(rng.choices(FIELDS, weights)[0])
    for f in sorted(chosen, key=FIELDS.index):
        damage(rng, row, f)
    return row


def generate(n: int, seed: int = 0, copied: float = 1.0, family: float = 0.08) -> tuple[list[dict], dict[str, str]]:
    """(rows with ``id`` 1..n in shuffled order, truth key -> cluster); ``copied``: the share of
    people (not family members or namesakes) recorded again; ``family``: the share of people who
    are family members of an earlier one."""
    rng = random.Random(seed)
    voc = Vocabulary(seed)
    ids: set[str] = set()
    people: list[tuple[str, dict]] = []
    out: list[tuple[str, dict]] = []
    while len(out) < n:
        label = f"p{len(people)}"
        roll = rng.random()
        if people and roll < family:
            base = person(rng, voc, ids, rng.choice(people)[1])
        elif people and roll < family + 0.03:
            base = person(rng, voc, ids)
            other = rng.choice(people)[1]
            base["given_name"], base["surname"] = other["given_name"], other["surname"]
        else:
            base = person(rng, voc, ids)
        people.append((label, base))
        out.append((label, base))
        if roll >= family + 0.03 and rng.random() < copied:
            out += [(label, copy_of(rng, base)) for _ in range(rng.choices(*COPIES)[0])]
    out = out[:n]
    rng.shuffle(out)
    rows = [{"id": i + 1, **r} for i, (_, r) in enumerate(out)]
    return rows, {str(i + 1): lab for i, (lab, _) in enumerate(out)}


def write(rows: list[dict], truth: dict[str, str], out: Path, fields: tuple[str, ...] = FIELDS) -> None:
    """persons.db (table ``persons``: id, ``fields``, updated_at), truth.csv and dedup.yaml (every
    field ``short``) in ``out`` (also bench/datasets/records/cli_table.py's)."""
    out.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(str(out / "persons.db"))
    with con:
        con.execute("DROP TABLE IF EXISTS persons")
        con.execute(f"CREATE TABLE persons (id INTEGER PRIMARY KEY, {', '.join(f + ' TEXT' for f in fields)}, "
                    "updated_at TEXT)")
        con.executemany(f"INSERT INTO persons VALUES ({', '.join('?' * (len(fields) + 2))})",
                        ([r["id"], *[r[f] for f in fields], "2026-01-01 00:00:00"] for r in rows))
    con.close()
    with open(out / "truth.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["key", "cluster"])
        w.writerows(truth.items())
    (out / "dedup.yaml").write_text(
        'source:\n  url: "sqlite:///persons.db"\nstore:\n  url: "sqlite:///persons-store.db"\ntables:\n'
        "  persons:\n    key: id\n    watermark: updated_at\n    fields:\n"
        + "".join(f"      {f}: short\n" for f in fields), encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--copied", type=float, default=1.0, help="share of people entered again")
    ap.add_argument("--family", type=float, default=0.08, help="share of people who are family members")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    rows, truth = generate(a.rows, a.seed, a.copied, a.family)
    write(rows, truth, Path(a.out))
    print(f"{len(rows)} rows, {len(set(truth.values()))} people -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""`dedup init` gives a record table's id column the id weight by its values, not only by its
name (issue 22: the held-out persons' id column was called ``soc_sec_id`` and got weight 1 where
``id_number`` gets 3); name-like, date, code and free-text columns under neutral names do not."""

from __future__ import annotations

import random

import sqlalchemy as sa
from click.testing import CliRunner

from bench.datasets.records.copies import generate, write
from dedup.cli import main
from dedup.config import load_config
from dedup.db.guess_columns import Profile, choose_fields

NEUTRAL = {"given_name": "col0", "surname": "col1", "street_number": "col2", "address_1": "col3",
           "address_2": "col4", "suburb": "col5", "postcode": "col6", "state": "col8", "date_of_birth": "col9",
           "id_number": "col7"}


def test_a_renamed_id_column_gets_the_id_weight_and_nothing_else_does(tmp_path):
    """A tuning copies table (bench/datasets/records/copies.py) with every column renamed: only the
    id column becomes an id (weight 3, said so); its 8-digit dates of birth are not ids."""
    rows, truth = generate(1500, 5, 0.4)
    rows = [{NEUTRAL.get(k, k): v for k, v in r.items()} for r in rows]
    write(rows, truth, tmp_path, tuple(NEUTRAL.values()))
    out = tmp_path / "init.yaml"
    result = CliRunner().invoke(main, ["init", f"sqlite:///{tmp_path / 'persons.db'}", "--table", "persons",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    weights = {f.name: f.weight for f in load_config(out).table("persons").fields}
    assert weights.pop("col7") == 3
    assert set(weights.values()) == {1}  # neutral names: every other field the plain weight
    assert "an id number (by its values)" in out.read_text(encoding="utf-8")


def profile(name: str, values: list[str]) -> Profile:
    return Profile.of(sa.Column(name, sa.Text), values)


def test_what_reads_as_an_id_by_its_values():
    rng = random.Random(1)
    n = 300
    columns = {
        # neutral names, so that only the values can tell
        "c1": [f"{rng.randrange(10**8, 10**9)}" for _ in range(n)],  # 9 digits, distinct
        "c2": [f"{rng.randrange(10**16, 10**17)}{rng.choice('0123456789X')}" for _ in range(n)],
        "c3": [f"1{rng.choice('3589')}{rng.randrange(10**8, 10**9)}" for _ in range(n)],
        "c4": [f"{rng.randrange(1940, 2010)}{rng.randrange(1, 13):02}{rng.randrange(1, 29):02}" for _ in range(n)],
        "c5": [f"{rng.randrange(1000, 9999)}" for _ in range(n)],  # postcodes: too short
        "c6": [rng.choice(["li", "wang", "zhang"]) + rng.choice(["wei", "fang", "min", "jing"]) + str(i)
                  for i in range(n)],
        "c7": [f"call {rng.randrange(10**6, 10**7)} back" for _ in range(n)],  # digits among words
        "c8": [rng.choice(["12345678", "23456789"]) for _ in range(n)],  # few distinct
    }
    fields, left_out = choose_fields([profile(c, v) for c, v in columns.items()], n)
    weight = {f.column: (f.spec.get("weight", 1) if isinstance(f.spec, dict) else 1) for f in fields}
    assert weight == {"c1": 3, "c2": 3, "c3": 1.5, "c4": 1, "c5": 1, "c6": 1, "c7": 1}
    assert [c.column for c in left_out] == ["c8"]

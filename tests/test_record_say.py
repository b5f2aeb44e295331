"""A record field's say (dedup.index.records.RecordScheme.weights; issue 22, s37): ``chance``, log2
of 1 / the chance that two rows agree on the field, is a rate and stays put as the table grows,
while ``distinct`` counts every typo variant as a value of its own, so a field of eight states
spoke louder the more copies (and typos) a table held."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.datasets.records.copies import FIELDS, generate
from dedup.config.model import FieldSpec
from dedup.index.records import RecordScheme
from dedup.text.records import RecordSignature

SPECS = tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in FIELDS)
STATE = FIELDS.index("state")


def say(rows, how: str) -> np.ndarray:
    sig = RecordSignature(SPECS).of_rows(rows)
    scheme = RecordScheme(len(FIELDS), say=how)
    return scheme.with_learned(scheme.learn(sig)).weights()


def test_a_fields_say_by_chance_stays_put_as_typos_add_distinct_values():
    small, _ = generate(2000, 21, copied=0.4)
    big, _ = generate(8000, 21, copied=0.4)
    states = len({r["state"] for r in big if r["state"]})
    assert states > 30  # eight states and their typos: distinct values grow with the table
    by_chance_small, by_chance_big = say(small, "chance")[STATE], say(big, "chance")[STATE]
    assert abs(by_chance_big - by_chance_small) < 0.2  # a rate: the same table twice as big
    assert by_chance_big < math.log2(9)  # about the eight states people hold
    by_count_small, by_count_big = say(small, "distinct")[STATE], say(big, "distinct")[STATE]
    assert by_count_big > by_count_small + 0.5 and by_count_big > math.log2(states) - 0.01  # a count


def test_an_id_still_says_more_than_a_state_by_chance():
    rows, _ = generate(3000, 22, copied=0.4)
    weights = say(rows, "chance")
    assert weights[FIELDS.index("id_number")] > 3 * weights[STATE]
    assert (weights >= 1.0).all()  # at least one bit a field


def test_say_must_be_known():
    with pytest.raises(ValueError, match="say"):
        RecordScheme(3, say="rows")


def test_the_mean_say_lies_between_the_two():
    rows, _ = generate(2000, 23, copied=0.4)
    by_count, by_chance, mean = say(rows, "distinct"), say(rows, "chance"), say(rows, "mean")
    assert np.allclose(mean, (by_count + by_chance) / 2)
    assert by_chance[STATE] < mean[STATE] < by_count[STATE]

"""The batch featuriser (dedup.text.batch) gives exactly what the per-row dicts give: the same
hashes in the same order, weights equal to the bit, the same IDF flags and fields."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dedup.config import FieldSpec
from dedup.demo.generator import generate_petitions
from dedup.text.batch import hashed_batch
from dedup.text.features import Featurizer
from dedup.text.segment import Segmenter, load_stopwords

SEG = Segmenter(load_stopwords(None))
FIELDS = (FieldSpec("name", "short", 2.0), FieldSpec("title", "text", 2.0), FieldSpec("content", "text", 1.0),
          FieldSpec("address", "chars", 1.5, n=2), FieldSpec("phone", "short", 3))


def both(fz: Featurizer, rows: list[dict]):
    kept = [r for r in rows if fz.described(r)]
    return fz.hashed([fz.described(r) for r in kept]), hashed_batch(fz, [fz.occurrences(r) for r in kept])


def assert_same(a, b) -> None:
    assert a.hashes.tolist() == b.hashes.tolist()
    assert a.weights.tobytes() == b.weights.tobytes()  # to the bit
    assert a.idf.tolist() == b.idf.tolist()
    assert a.counts.tolist() == b.counts.tolist()
    assert (a.field is None) == (b.field is None)
    if a.field is not None:
        assert a.field.tolist() == b.field.tolist()


@pytest.mark.parametrize("by_field", [False, True])
@pytest.mark.parametrize("tf", ["log", "raw"])
def test_generated_petitions(by_field, tf):
    fz = Featurizer(FIELDS, SEG, by_field=by_field, tf=tf)
    rows = generate_petitions(300, seed=7).rows
    a, b = both(fz, rows)
    assert a.counts.sum() > 10_000
    assert_same(a, b)


def test_a_term_in_several_fields_adds_its_weights_in_field_order():
    fz = Featurizer(FIELDS + (FieldSpec("extra", "text", 0.1),), SEG)
    rows = [{"title": "噪音 噪音 扰民", "content": "噪音扰民 噪音 工资", "extra": "噪音 " * 7, "name": "噪音"}]
    a, b = both(fz, rows)
    assert_same(a, b)
    assert len(set(a.hashes.tolist())) == len(a.hashes)  # one entry a feature


def test_a_term_repeated_beyond_the_tf_table_uses_the_log():
    fz = Featurizer(FIELDS, SEG)
    a, b = both(fz, [{"content": "噪音 " * 200 + "工资 " * 63 + "扰民 " * 64}])
    assert_same(a, b)


def test_rows_without_features_and_odd_values():
    fz = Featurizer(FIELDS, SEG)
    rows = [{"name": None, "content": "   "}, {"name": 12345, "phone": 13800000000}, {"title": "的"},
            {"address": "北京市朝阳区", "content": "ＡＢＣ　全角"}]
    assert [bool(fz.occurrences(r)) for r in rows] == [False, True, False, True]
    a, b = both(fz, rows)
    assert_same(a, b)
    with pytest.raises(UnicodeDecodeError):  # the row is unreadable, as for described
        fz.occurrences({"content": b"\xff\xfe"})


words = st.sampled_from(["噪音", "扰民", "工资", "拖欠", "的", "北京", "abc", "ABC", "１２３", " ", "，", "x"])
cells = st.one_of(st.none(), st.lists(words, max_size=30).map("".join), st.integers(-5, 10**12))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.fixed_dictionaries({f.name: cells for f in FIELDS}), min_size=1, max_size=8),
       st.booleans(), st.sampled_from(["log", "raw"]))
def test_any_rows(rows, by_field, tf):
    fz = Featurizer(FIELDS, SEG, by_field=by_field, tf=tf)
    a, b = both(fz, rows)
    assert_same(a, b)
    assert np.all(b.counts > 0)

"""Block names made by numpy (dedup.index.names) are the f-strings they replace, name for name."""

import numpy as np
import pytest

import dedup.index.names as names_module
from dedup.index.names import as_str, key_names, per_row, suffixed


def _expected(keys, labels, marks):
    return [[f"{labels[c]}{k:016x}{'+' if m else ''}" for c, (k, m) in enumerate(zip(row, mrow)) if k]
            for row, mrow in zip(keys.tolist(), marks.tolist())]


@pytest.mark.parametrize("name_rows", [1 << 14, 7])  # made in one range, and in ranges of 7 rows
def test_names_match_the_formatted_names_for_any_keys_labels_and_marks(name_rows, monkeypatch):
    monkeypatch.setattr(names_module, "NAME_ROWS", name_rows)
    rng = np.random.default_rng(7)
    labels = [f"b{i}:" for i in range(12)] + ["i0:", "i1:", "r15:"]  # labels of 3 and 4 characters
    keys = rng.integers(0, 2**64, size=(500, len(labels)), dtype=np.uint64)
    keys[rng.random(keys.shape) < 0.3] = 0  # no key: no name
    keys[0, :] = 0  # a row with none at all
    keys[1, :3] = [1, 2**64 - 1, 2**63]  # leading zeros and all-ones print in full
    marks = rng.random(keys.shape) < 0.4
    names, counts = key_names(keys, labels, marks)
    assert per_row(names, counts) == _expected(keys, labels, marks)
    assert counts[0] == 0 and counts.sum() == np.count_nonzero(keys)
    plain, _ = key_names(keys, labels)
    assert as_str(plain) == [n for row in _expected(keys, labels, np.zeros_like(marks)) for n in row]
    assert as_str(suffixed(names)) == [n.rstrip("+") + "+" for n in as_str(names)]  # once, never twice


def test_no_rows_and_no_columns_make_no_names():
    names, counts = key_names(np.zeros((0, 3), np.uint64), ["a:", "b:", "c:"])
    assert len(names) == 0 and len(counts) == 0 and as_str(suffixed(names)) == []
    names, counts = key_names(np.zeros((2, 0), np.uint64), [])
    assert per_row(names, counts) == [[], []]

"""Block names made by numpy (dedup.index.names) are the f-strings they replace, name for name;
held as their parts (KeyNames) they are the same names and sort as their bytes do."""

import numpy as np
import pytest

import dedup.index.names as names_module
import dedup.store.entries as entries_module
from dedup.index.names import as_str, key_names, key_parts, per_row, suffixed


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


@pytest.mark.parametrize("chunk", [1 << 16, 5])  # neighbours compared in one slice, and in slices of 5
def test_names_held_as_their_parts_are_the_bytes_and_sort_as_them(chunk, monkeypatch):
    """KeyNames (issue 26, session 40): the names key_names makes, in its order, any of them made
    into bytes on asking; their ranks are the bytes' ranks (labels "b1:" and "b10:" included: the
    parts sort as the text does), and the suffixed copies are suffixed's."""
    monkeypatch.setattr(names_module, "STR_CHUNK", chunk)
    monkeypatch.setattr(names_module, "NAME_ROWS", 7)
    rng = np.random.default_rng(11)
    labels = [f"b{i}:" for i in range(12)] + ["i0:", "i1:", "r15:"]
    keys = rng.integers(0, 40, size=(300, len(labels))).astype(np.uint64) * np.uint64(2**60 // 40)
    keys[rng.random(keys.shape) < 0.3] = 0
    keys[1, :3] = [1, 2**64 - 1, 2**63]
    marks = rng.random(keys.shape) < 0.4
    parts, counts = key_parts(keys, labels, marks)
    names, want_counts = key_names(keys, labels, marks)
    assert len(parts) == len(names) and np.array_equal(counts, want_counts)
    assert parts[np.arange(len(parts))].tolist() == names.tolist()
    some = rng.integers(0, len(parts), size=50)
    assert parts[some].tolist() == names[some].tolist() and parts[3:9].tolist() == names[3:9].tolist()
    assert np.array_equal(parts.ranks(), entries_module._name_ranks(names))  # equal names (a key twice), equal ranks
    need = np.unique(some)
    both = parts.with_suffix(need)
    assert as_str(both[np.arange(len(both))]) == as_str(names) + as_str(suffixed(names[need]))
    assert np.array_equal(both.ranks(), entries_module._name_ranks(both[np.arange(len(both))]))
    empty, _ = key_parts(np.zeros((0, 3), np.uint64), ["a:", "b:", "c:"])
    assert len(empty) == 0 and empty.ranks().tolist() == [] and empty[np.arange(0)].tolist() == []


def test_labels_of_which_one_starts_another_are_refused_a_rank():
    parts, _ = key_parts(np.ones((2, 2), np.uint64), ["b1", "b10"])
    with pytest.raises(ValueError, match="starts another"):
        parts.ranks()


def test_keys_ranked_without_a_dict_are_the_sorted_distinct_keys_places():
    keys = ["10", "9", "a", "10", "", "9", "b", "a"]  # repeated keys (an entry a row), sorted as text
    distinct = sorted(set(keys))
    assert entries_module._ranks(keys).tolist() == [distinct.index(k) for k in keys]
    assert entries_module._ranks([]).tolist() == [] and entries_module._ranks(["x"]).tolist() == [0]


@pytest.mark.parametrize("by_key", [True, False])
def test_entries_of_names_held_as_parts_are_those_of_the_names_as_bytes(by_key, monkeypatch):
    """The store writer's slices (store2-s48: names held as parts are decoded by numpy, a str an
    entry): the same names, keys and fingerprints, in the same order, as the names held as bytes,
    a name filed more than once (a key twice, a suffixed copy) included."""
    monkeypatch.setattr(entries_module, "SLICE", 7)
    rng = np.random.default_rng(5)
    labels = ["b0:", "b1:", "i0:"]
    keys = rng.integers(0, 6, size=(40, len(labels))).astype(np.uint64) * np.uint64(2**60 // 6)
    parts, _ = key_parts(keys, labels, rng.random(keys.shape) < 0.3)
    parts = parts.with_suffix(np.arange(0, len(parts), 3))
    row_keys = [f"r{i}" for i in range(25)]
    name_at = rng.integers(0, len(parts), size=90)
    row_at = rng.integers(0, len(row_keys), size=90)
    fps = rng.integers(0, 2**63, size=len(row_keys)).astype(np.uint64)
    held = entries_module.PackedEntries(parts, name_at, row_at, row_keys, fps)
    as_bytes = entries_module.PackedEntries(parts[np.arange(len(parts))], name_at, row_at, row_keys, fps)
    got, want = list(held.slices(by_key)), list(as_bytes.slices(by_key))
    assert [(e.names, e.keys, e.fingerprints.tolist()) for e in got] == \
        [(e.names, e.keys, e.fingerprints.tolist()) for e in want]
    assert all(isinstance(n, str) for e in got for n in e.names) and sum(map(len, got)) == 90

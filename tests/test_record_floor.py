"""The record floor keys (dedup.index.records, issue 22): a table whose people are each entered
several times fills every key bucket with copies, the learned keys come out empty, and the floor
still makes every copy of a person meet; a table whose learning finds keys is keyed as before."""

from __future__ import annotations

import random

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from dedup.index.minhash import bucket_sizes
from dedup.index.records import MAX_KEYS, RecordScheme
from dedup.text.records import RecordSignature
from test_records_recipe import FIELDS, learned_scheme, person, specs, table

DISTINCT = ("surname", "given_name", "birth_date", "id_number", "phone", "address")


def typo(rng: random.Random, value: str) -> str:
    """One character replaced by another of its kind (a digit in a number, a character in a name:
    a digit in a two-character name would make the value mostly digits, normalised to the digit)."""
    i = rng.randrange(len(value))
    other = ("9" if value[i] != "9" else "8") if value[i].isdigit() else ("玮" if value[i] != "玮" else "琦")
    return value[:i] + other + value[i + 1:]


def copied_table(people: int = 150, copies: int = 4, seed: int = 1) -> tuple[list[dict], list[int]]:
    """Each person entered ``copies`` + 1 times, each copy with two distinctive fields damaged
    (one typo'd, one left empty), chosen at random: (rows, person of each row)."""
    rng = random.Random(seed)
    rows, who = [], []
    for p in range(people):
        base = person(rng)
        rows.append(base)
        who.append(p)
        for _ in range(copies):
            a, b = rng.sample(DISTINCT, 2)
            rows.append(dict(base, **{a: typo(rng, base[a]), b: None}))
            who.append(p)
    return rows, who


def components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    return connected_components(coo_matrix((np.ones(len(i)), (i, j)), shape=(n, n)), directed=False)[1]


def test_copies_blind_the_learning_and_the_floor_still_finds_every_person():
    rows, who = copied_table()
    blind, sig = learned_scheme(rows, floor_exact=0, floor_light=0.0)  # no floor at all, light or full
    assert blind.key_fields() == [] and not blind.band_keys()  # the failure of issue 22
    scheme, _ = learned_scheme(rows)
    assert scheme.floored() and len(scheme.key_fields()) == 2
    floor_pairs = scheme.pair_keys()[:2]
    assert not set(floor_pairs[0]) & set(floor_pairs[1])  # pairs on fields apart first
    i, j = scheme.near(sig)
    keep = scheme.verify_pairs(sig, i, j)
    labels = components(len(rows), i[keep], j[keep])
    who = np.array(who)
    found = sum(len(set(labels[who == p].tolist())) == 1 for p in set(who.tolist()))
    blind_i, blind_j = blind.near(sig)
    blind_keep = blind.verify_pairs(sig, blind_i, blind_j)
    blind_labels = components(len(rows), blind_i[blind_keep], blind_j[blind_keep])
    blind_found = sum(len(set(blind_labels[who == p].tolist())) == 1 for p in set(who.tolist()))
    assert found >= 0.95 * len(set(who.tolist())) > blind_found
    assert all(len(set(who[labels == g].tolist())) == 1 for g in set(labels.tolist()))  # no two people joined


def test_floor_keys_stay_bounded():
    rows, _ = copied_table(people=300, seed=2)
    scheme, sig = learned_scheme(rows, max_bucket=6)
    keys = scheme.keys(sig)
    assert scheme.floored() and keys.shape[1] <= MAX_KEYS
    assert bucket_sizes(keys).max() <= 6  # values over max_bucket are switched off, floor keys too


def test_a_table_whose_learning_finds_keys_is_keyed_as_without_the_floor():
    rows = table(600, seed=3)
    rng = random.Random(3)
    rows += [dict(r, phone=None) for r in rng.sample(rows, 60)]
    scheme, sig = learned_scheme(rows)
    plain, _ = learned_scheme(rows, floor_exact=0, floor_pairs=0, floor_bands=0)
    assert not scheme.floored() and scheme.key_fields()
    assert (scheme.key_fields(), scheme.pair_keys(), scheme.band_keys()) == \
        (plain.key_fields(), plain.pair_keys(), plain.band_keys())
    assert np.array_equal(scheme.keys(sig), plain.keys(sig))


def test_the_floor_follows_the_learned_statistics_only():
    """What the full run learned decides the floor: the same statistics give the same keys on
    other rows (an incremental run keys its rows as the full run would)."""
    rows, _ = copied_table(seed=4)
    scheme, sig = learned_scheme(rows)
    again = RecordScheme(len(FIELDS)).with_learned(dict(scheme.learned))
    new = RecordSignature(specs(FIELDS)).of_rows(rows[:40])
    assert np.array_equal(again.keys(new), scheme.keys(sig[:40]))


def test_no_floor_key_meets_more_than_floor_each_partners_beyond_the_best_field():
    """A floor key whose buckets chance fills (its expected partners well above the row's own
    copies, which the best field, an id, counts) is left out, so the floor's candidates a row stay
    bounded as the table grows; without the cap the same table takes such keys."""
    from dedup.index.record_keys import partners
    rows, _ = copied_table(people=300, seed=5)
    rng = random.Random(5)
    few = {id(r): (f"地址{rng.randrange(15)}", f"1390000{rng.randrange(15):04d}") for r in rows}
    rows = [dict(r, address=few[id(r)][0], phone=few[id(r)][1]) for r in rows]  # every row draws: 225 pairs by chance
    loose, _ = learned_scheme(rows, floor_each=1000.0)
    scheme, _ = learned_scheme(rows)
    assert scheme.floored() and scheme.floor_each < 1000.0
    pair = {(a, b): partners(n, s, hn, hs) for a, b, n, _, s, hn, hs in scheme.learned["pairs"]}
    bar = scheme.floor_each + min(scheme._field_partners().values())
    assert max(pair[k] for k in loose.pair_keys()) > bar  # the cap has something to cut here
    assert all(pair[k] <= bar or pair[k] <= scheme.max_partners for k in scheme.pair_keys())
    assert scheme.pair_keys() and set(scheme.pair_keys()) < set(loose.pair_keys())

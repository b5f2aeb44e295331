"""The record recipe's light floor and two-field redundancy (dedup.index.records,
dedup.index.record_redundancy; issue 22, persons with corrupted copies): a table whose learning
finds its key fields still gets cheap floor pair keys on fields apart, and a family (surname and
the whole address shared, its own given name, birth date and id) is not taken for one person
entered twice, while copies with typos still are."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bench.datasets.records.copies import FIELDS, generate
from dedup.config.model import FieldSpec
from dedup.index.record_redundancy import joint
from dedup.index.records import RecordScheme
from dedup.text.records import RecordSignature

SPECS = tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in FIELDS)


def learned(rows, **kw) -> tuple[RecordScheme, np.ndarray]:
    sig = RecordSignature(SPECS).of_rows(rows)
    scheme = RecordScheme(len(FIELDS), **kw)
    return scheme.with_learned(scheme.learn(sig)), sig


def test_light_floor_adds_cheap_pair_keys_apart_when_the_learning_finds_keys():
    rows, truth = generate(3000, 11, copied=0.2)  # the id and the birth date pass the trigger
    scheme, sig = learned(rows)
    plain, _ = learned(rows, floor_light=0.0)
    assert not scheme.floored() and scheme.key_fields() == plain.key_fields()
    assert set(plain.pair_keys()) < set(scheme.pair_keys())  # the capped keys kept, more added
    assert all(FIELDS.index("given_name") in k for k in plain.pair_keys())  # all held the given name
    part = {(a, b): (s - n) / n for a, b, n, _, s, _, _ in scheme.learned["pairs"]}
    keys = scheme.pair_keys()
    assert len(keys) <= scheme.floor_pairs + scheme.max_pairs
    assert sum(part[k] for k in keys) <= scheme.floor_light + scheme.max_pairs * scheme.max_partners  # bounded
    assert not set(keys[0]) & set(keys[1])  # the floor's first: pairs on fields apart
    lab = np.array([truth[str(r["id"])] for r in rows])
    i, j = scheme.near(sig)
    pi, pj = plain.near(sig)
    assert (lab[i] == lab[j]).sum() > (lab[pi] == lab[pj]).sum() * 1.04  # more copies meet
    assert len(i) < 1.3 * len(pi) and len(i) < 2 * len(rows)  # candidates per row stay small


def test_light_floor_follows_the_learned_statistics_only():
    rows, _ = generate(2000, 12, copied=0.2)
    scheme, sig = learned(rows)
    again = RecordScheme(len(FIELDS)).with_learned(dict(scheme.learned))
    new = RecordSignature(SPECS).of_rows(rows[:50])
    assert np.array_equal(again.keys(new), scheme.keys(sig[:50]))  # an incremental run keys alike


def test_two_agreeing_fields_tell_a_household_that_one_does_not():
    rows, truth = generate(3000, 13, copied=0.3, family=0.15)
    scheme, sig = learned(rows)
    alone, _ = learned(rows, joint=False)
    street, number, suburb = FIELDS.index("address_1"), FIELDS.index("street_number"), FIELDS.index("suburb")
    lift = joint(scheme.learned, len(FIELDS))[(street, suburb)]
    assert lift[number] > 0.6 > scheme.redundancy()[number, street]  # the street in that suburb tells it
    lab = np.array([truth[str(r["id"])] for r in rows])
    i, j = scheme.near(sig)
    same = lab[i] == lab[j]
    family = ~same & (scheme.hashes(sig[i])[:, street] == scheme.hashes(sig[j])[:, street])
    with_joint, without = scheme.verify_pairs(sig, i, j), alone.verify_pairs(sig, i, j)
    assert (without & family).sum() >= 10 and (with_joint & family).sum() * 3 < (without & family).sum()
    assert (with_joint & same).sum() >= 0.995 * (without & same).sum()  # copies with typos still verified
    w = scheme.pair_weights(sig[i[family]], sig[j[family]])
    assert (w[:, number] < alone.pair_weights(sig[i[family]], sig[j[family]])[:, number]).any()


def test_joint_is_learned_only_when_asked_and_is_in_the_stamp():
    from dedup.config import parse_config
    from dedup.methods.records import Records
    rows, _ = generate(600, 14)
    scheme, _ = learned(rows, joint=False)
    assert "ref_triples" not in scheme.learned and joint(scheme.learned, len(FIELDS)) == {}
    cfg = parse_config({"source": {"url": "sqlite://"}, "store": {"url": "sqlite://"},
                        "tables": {"persons": {"key": "id", "fields": {f: "short" for f in FIELDS}}}})
    keys = Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]
    assert keys["joint"] is True and keys["floor_light"] == 6.0 and keys["floor_pairs"] == 12  # one full run asked
    assert keys["floor_each"] == 1.5  # s36: a stored table keyed before the cap asks for one full run
    assert "say" not in keys  # s37: the say by distinct values, as before it was a setting: no full run asked
    other = Records.of(cfg, cfg.tables["persons"])
    other = replace(other, scheme=replace(other.scheme, say="mean"))
    assert other.stamp()["keys"]["say"] == "mean"  # another say is stamped: one full run


def test_two_fields_whose_agreeing_rows_agree_on_everything_are_copies_not_a_household():
    """Rows agreeing on name and address that agree on birth date, gender and phone too are copies
    whose id number was entered anew: no cut there (it would discount a duplicate's evidence)."""
    from bench.datasets.labelled.persons import FIELDS as LABELLED, generate_persons
    names = tuple(f for f in LABELLED if f != "id")
    data = generate_persons(6000, 3)
    sig = RecordSignature(tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in names)).of_rows(data.rows)
    scheme = RecordScheme(len(names))
    scheme = scheme.with_learned(scheme.learn(sig))
    pairs = joint(scheme.learned, len(names))
    name, address = names.index("name"), names.index("address")
    assert (name, address) not in pairs
    plain = RecordScheme(len(names), joint=False).with_learned(scheme.learned)
    i, j = scheme.near(sig)
    assert np.array_equal(scheme.verify_pairs(sig, i, j), plain.verify_pairs(sig, i, j))

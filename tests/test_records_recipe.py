"""The record-table recipe: RecordSignature words (dedup.text.records) and RecordScheme keys and
verdicts (dedup.index.records)."""

from __future__ import annotations

import json
import random
from itertools import combinations

import numpy as np
import pytest

from dedup.config.model import FieldSpec
from dedup.index.records import MAX_KEYS, RecordScheme
from dedup.text.records import RecordSignature, normalize_value

FIELDS = ("surname", "given_name", "gender", "status", "birth_date", "id_number", "phone", "address")
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
CHARS = "伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩芳娜敏静丽艳娟霞秀英玲桂兰萍红梅琳雪婷倩洁"


def person(rng: random.Random) -> dict:
    return {"surname": rng.choice(SURNAMES), "given_name": "".join(rng.choices(CHARS, k=2)),
            "gender": rng.choice("男女"), "status": f"状态{rng.randrange(10)}",
            "birth_date": f"{rng.randint(1950, 2005)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "id_number": "".join(rng.choices("0123456789", k=18)), "phone": "1" + "".join(rng.choices("0123456789", k=10)),
            "address": f"{rng.choice('东西南北')}{rng.choice(CHARS)}路{rng.randint(1, 999)}号{rng.randint(1, 30)}栋"}


def table(n: int = 400, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    return [person(rng) for _ in range(n)]


def specs(names) -> tuple[FieldSpec, ...]:
    return tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in names)


def learned_scheme(rows, names=FIELDS, **kw):
    sig = RecordSignature(specs(names)).of_rows(rows)
    scheme = RecordScheme(len(names), **kw)
    return scheme.with_learned(scheme.learn(sig)), sig


def test_normalisation_folds_dates_and_digit_values():
    assert normalize_value("1990/3/5") == normalize_value("1990年3月5日") == normalize_value("19900305") == "19900305"
    assert normalize_value("3栋2单元501") == normalize_value("3-2-501") == "32501"
    assert normalize_value("ＡＢＣ 1") == normalize_value("abc1")
    assert normalize_value(None) == normalize_value("  ") == ""


def test_typod_duplicate_is_found_and_verified():
    rows = table()
    dup = dict(rows[7], given_name=rows[7]["given_name"][0] + "玮", birth_date=rows[7]["birth_date"].replace("-", "/"),
               phone=rows[7]["phone"][:5] + rows[7]["phone"][6] + rows[7]["phone"][5] + rows[7]["phone"][7:])
    rows.append(dup)
    scheme, sig = learned_scheme(rows)
    i, j = scheme.near(sig)
    assert (7, len(rows) - 1) in set(zip(i.tolist(), j.tolist()))
    assert scheme.verify(sig[[7]], sig[[-1]])[0]
    assert scheme.scores(sig[[7]], sig[[-1]])[0] < 1.0


def test_people_sharing_only_low_cardinality_fields_are_not_paired():
    rows = table()
    rows[1].update(gender=rows[0]["gender"], status=rows[0]["status"])
    scheme, sig = learned_scheme(rows)
    assert FIELDS.index("gender") not in scheme.key_fields() and FIELDS.index("status") not in scheme.key_fields()
    assert not scheme.verify(sig[[0]], sig[[1]])[0]
    # a table of only those columns makes no keys at all, so no pairs
    only = [{"gender": r["gender"], "status": r["status"]} for r in rows]
    scheme2, sig2 = learned_scheme(only, ("gender", "status"))
    assert not scheme2.keys(sig2).any()
    assert len(scheme2.near(sig2)[0]) == 0


@pytest.mark.parametrize("width", [1, 2, 12, 30])
def test_any_number_of_fields_gives_at_most_16_keys(width):
    rng = random.Random(width)
    base = table(300, width)
    names = [f"c{c}" for c in range(width)]
    rows = [{f"c{c}": r[FIELDS[(c + 5) % len(FIELDS)]] + (str(rng.randrange(3)) if c >= len(FIELDS) else "")
             for c in range(width)} for r in base]
    rows.append(dict(rows[3]))
    scheme, sig = learned_scheme(rows, names)
    assert sig.shape == (len(rows), RecordSignature(specs(names)).words)
    keys = scheme.keys(sig)
    assert keys.shape[1] <= MAX_KEYS and keys.shape[0] == len(rows)
    assert all(len(n) <= 32 for row in scheme.names_of(sig) for n in row)
    i, j = scheme.near(sig)
    assert (3, len(rows) - 1) in set(zip(i.tolist(), j.tolist()))
    assert scheme.verify(sig[[3]], sig[[-1]])[0]


def test_a_null_field_drops_out():
    rows = table(200)
    a = rows[5]
    rows += [dict(a, phone=None), dict(a, phone="13900000000")]
    scheme, sig = learned_scheme(rows)
    assert scheme.scores(sig[[5]], sig[[-2]])[0] == pytest.approx(1.0)   # NULL: no evidence either way
    assert scheme.scores(sig[[5]], sig[[-1]])[0] < 0.95                    # another phone: evidence against
    empty = RecordSignature(specs(FIELDS)).of_rows([{}])
    assert np.isnan(scheme.scores(empty, sig[[5]])[0]) and not scheme.verify(empty, sig[[5]])[0]


def test_learned_round_trips_through_json():
    rows = table(300)
    scheme, sig = learned_scheme(rows)
    again = RecordScheme(len(FIELDS)).with_learned(json.loads(json.dumps(scheme.learned)))
    assert np.array_equal(again.keys(sig), scheme.keys(sig))
    assert np.array_equal(again.scores(sig[:50], sig[50:100]), scheme.scores(sig[:50], sig[50:100]), equal_nan=True)
    # an incremental batch scored with the full run's learned dict gets the same keys as in the full run
    part = RecordSignature(specs(FIELDS)).of_rows(rows[100:150])
    assert np.array_equal(again.keys(part), scheme.keys(sig)[100:150])


def test_near_equals_brute_force():
    rng = random.Random(5)
    rows = table(150, 5)
    for k in range(30):  # near copies: some fields changed or emptied
        r = dict(rows[rng.randrange(150)])
        for f in rng.sample(FIELDS, 3):
            r[f] = None if rng.random() < 0.5 else person(rng)[f]
        rows.append(r)
    scheme, sig = learned_scheme(rows)
    keys = scheme.keys(sig)
    brute = {(a, b) for a, b in combinations(range(len(rows)), 2) if ((keys[a] == keys[b]) & (keys[a] != 0)).any()}
    i, j = scheme.near(sig)
    got = list(zip(i.tolist(), j.tolist()))
    assert len(got) == len(set(got)) and all(a < b for a, b in got)
    assert set(got) == brute and brute


def test_signature_is_deterministic_and_versioned():
    rows = table(50)
    s1, s2 = RecordSignature(specs(FIELDS)), RecordSignature(specs(FIELDS))
    assert np.array_equal(s1.of_rows(rows)[:20], s2.of_rows(rows[:20]))
    json.dumps(s1.version())
    assert s1.version() != RecordSignature(specs(FIELDS), k=16).version()


def test_key_fields_are_chosen_by_expected_partners_not_share_of_distinct_values():
    rows = table(3000, 7)
    for r in rows:  # 40 birth dates: 3000 rows make buckets of ~75, a bounded field is no key here
        r["birth_date"] = f"1980-01-{1 + int(r['id_number'][:2]) % 40:02d}"
    scheme, sig = learned_scheme(rows)
    assert FIELDS.index("birth_date") not in scheme.key_fields()
    assert FIELDS.index("id_number") in scheme.key_fields()
    keys = scheme.keys(sig)
    _, counts = np.unique(keys[keys != 0], return_counts=True)
    assert counts.max() < 40  # no bucket near the birth dates' 75 rows
    # all dates but one in more than max_bucket rows: the field is judged whole, not by the one left
    rows[0]["birth_date"] = "1999-12-31"
    assert FIELDS.index("birth_date") not in learned_scheme(rows, max_bucket=50)[0].key_fields()


def test_a_value_shared_by_more_than_max_bucket_rows_makes_no_pairs_and_is_reported():
    names = ("phone", "id_number")
    rows = [{f: r[f] for f in names} for r in table(600, 8)]
    for r in rows[:300]:
        r["phone"] = "13800000000"  # a placeholder
    rows.append(dict(rows[400]))
    scheme, sig = learned_scheme(rows, names, max_bucket=100, bands=0)
    assert sorted(scheme.key_fields()) == [0, 1] and [c for _, c in scheme.hot()] == [300]  # the phone stays a key
    i, j = scheme.near(sig)
    assert list(zip(i.tolist(), j.tolist())) == [(400, 600)]  # not the 300 * 299 / 2 pairs of the placeholder
    again = RecordScheme(2, max_bucket=100, bands=0).with_learned(
        json.loads(json.dumps(scheme.learned)))
    assert np.array_equal(again.keys(sig[:50]), scheme.keys(sig)[:50])  # incremental rows: the same keys


def test_household_columns_count_once():
    rng = random.Random(9)
    rows = table(2000, 9)
    for _ in range(400):  # families: another person at an anchor's phone and address
        a = rows[rng.randrange(2000)]
        rows.append(dict(person(rng), surname=a["surname"], phone=a["phone"], address=a["address"], status=a["status"]))
    mother = rows[-1]
    anchor = next(r for r in rows[:2000] if r["phone"] == mother["phone"])
    copy = dict(anchor, given_name=anchor["given_name"][0] + "玮")
    rows.append(copy)
    scheme, sig = learned_scheme(rows)
    plain = RecordScheme(len(FIELDS), linked=0.0).with_learned(scheme.learned)
    a, m, c = rows.index(anchor), len(rows) - 2, len(rows) - 1
    assert scheme.redundancy()[FIELDS.index("address"), FIELDS.index("phone")] > 0.5
    assert scheme.redundancy()[FIELDS.index("birth_date"), FIELDS.index("phone")] < 0.2
    assert scheme.scores(sig[[a]], sig[[m]])[0] < plain.scores(sig[[a]], sig[[m]])[0]
    assert not scheme.verify(sig[[a]], sig[[m]])[0]
    assert scheme.verify(sig[[a]], sig[[c]])[0]


def test_swapped_fields_score_as_equal_and_only_when_crosswise():
    rows = table(1000, 3)
    names = ("surname", "given_name", "birth_date", "id_number", "phone", "address")
    a = rows[5]
    swapped = dict(a, surname=a["given_name"], given_name=a["surname"], phone=None, id_number=None,
                   birth_date=a["birth_date"][:-1] + "9")
    half = dict(swapped, given_name=rows[6]["given_name"])  # only one of the two values crossed
    rows += [swapped, half]
    scheme, sig = learned_scheme(rows, names)
    off = RecordScheme(len(names), swaps=False).with_learned(scheme.learned)
    s, h = len(rows) - 2, len(rows) - 1
    fs = scheme.field_scores(sig[[5, 5]], sig[[s, h]])
    assert fs[0, :2].tolist() == [1.0, 1.0]
    assert fs[1, 0] < 1.0 and fs[1, 1] < 1.0
    assert scheme.verify(sig[[5]], sig[[s]])[0] and not off.verify(sig[[5]], sig[[s]])[0]
    assert scheme.scores(sig[[5]], sig[[h]])[0] == off.scores(sig[[5]], sig[[h]])[0]

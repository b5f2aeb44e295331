"""The group check of record tables (issue 22, session 46; dedup.index.cluster_odd, record_odd): a row
whose one link into a group is a single pair does not join through it when a row is unlike all the
others on distinctive fields where they agree (bench/results/persons5-s46.md). On by default since session 46."""

from __future__ import annotations

from bench.datasets.records.copies import FIELDS, generate
from dedup.config.model import FieldSpec
from dedup.index.clusters import cluster
from dedup.index.groups import Pair
from dedup.index.record_odd import odd_one
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.runs.full import run_full
from dedup.text.records import RecordSignature
from test_incremental import memberships
from test_record_floor_runs import config, split_runs_grouped

INIT = {"given_name": 2, "surname": 2, "street_number": 1.5, "address_1": 1.5, "address_2": 1.5, "date_of_birth": 2,
        "id_number": 3}  # the weights `dedup init` writes for these columns
SPECS = tuple(FieldSpec(name=f, kind="short", weight=float(INIT.get(f, 1))) for f in FIELDS)
PERSON = {"id": 0, "given_name": "lachlan", "surname": "wood", "street_number": "171", "address_1": "hill crescent",
          "address_2": "flat 46", "suburb": "woden", "postcode": "2972", "state": "act", "date_of_birth": "20050807",
          "id_number": "3686717"}
COPIES = [PERSON, dict(PERSON, surname=None, address_1="hill rescent"), dict(PERSON, given_name="lachlae", postcode=None)]
FATHER = dict(PERSON, street_number="1711", date_of_birth="19610923", id_number="5289163")  # a namesake at the address
DAMAGED = dict(PERSON, date_of_birth="19161123")  # a copy whose birth date is another one
SWAPPED = dict(PERSON, given_name="wood", surname="lachlan", date_of_birth="19161123")
ON = {"odd": 0.7, "odd_unlike": 2}


def odd(row: dict, **kw) -> bool:
    rows = generate(2000, 31)[0]
    sig = RecordSignature(SPECS).of_rows(rows + [row, *COPIES])
    scheme = RecordScheme(len(FIELDS), field_weights=tuple(f.weight for f in SPECS), **{**Records.against, **kw})
    scheme = scheme.with_learned(scheme.learn(sig[:2000]))
    return odd_one(scheme, sig[2000], sig[2001:])


def test_a_family_member_is_odd_one_out_and_a_damaged_or_swapped_copy_is_not():
    assert odd(FATHER, **ON)  # his birth date and id unlike all three copies', which agree
    assert not odd(FATHER)  # off: never
    assert not odd(DAMAGED, **ON)  # one field unlike: a damaged copy
    assert odd(DAMAGED, odd=0.7, odd_unlike=1)
    assert not odd(SWAPPED, **ON)  # its names are the copies' names, crosswise


def groups(odd_rule=None) -> list[list[str]]:
    """Row 1 (another person, first in key order), copies 2 and 3, and copy 4 linked to all three:
    the held-out false groups of 6 in small (persons4-s46.md §4)."""
    found = {("2", "3"), ("1", "4"), ("2", "4"), ("3", "4")}
    pairs = [Pair(a, b, 0) for a, b in sorted(found)]

    def check(ps):
        return [(min(a, b), max(a, b)) in found for a, b in ps]
    return [g.keys for g in cluster(pairs, dict.fromkeys("1234", 0), check, gather=True, merge=True,
                                    alone=lambda ps: [False] * len(ps), odd=odd_rule)]


def test_a_lone_link_to_a_row_unlike_the_rest_is_no_way_in():
    assert groups() == [["1", "4"], ["2", "3"]]  # copy 4 joins row 1's group, the first centre
    seen = []

    def unlike(x, others, way):
        seen.append((x, sorted(others), way))
        return x == "1"
    assert groups(unlike) == [["2", "3", "4"]]  # it joins its copies; row 1 stays alone
    assert ("1", ["2", "3", "4"], 1) in seen  # asked of row 1 against copy 4 and copy 4's other partners


def test_the_stamp_names_the_check_only_when_it_is_on(monkeypatch):
    cfg = config("sqlite:///src.db", "sqlite:///store.db")
    tcfg = cfg.tables["persons"]
    got = {k: v for k, v in Records.of(cfg, tcfg).stamp()["keys"].items() if k.startswith("odd")}
    assert got == {"odd": 0.7, "odd_ways": 7, "odd_unlike": 2}  # s47: group_check holds the strip* too
    monkeypatch.setattr(Records, "group_check", {})  # off: the stamp as before the setting
    assert not any(k.startswith("odd") for k in Records.of(cfg, tcfg).stamp()["keys"])


def test_full_then_incremental_with_the_check_groups_as_one_full_run(tmp_path, monkeypatch):
    """Rows 1..600 full, the rest incremental, then `full --keep-terms`: the same groups; and the check
    moved one (seed 30: a family member's row out of a group of 6; persons5-s46 seeds.py.txt)."""
    grouped = split_runs_grouped(f"sqlite:///{tmp_path / 'store.db'}", tmp_path, generate(900, seed=30)[0])
    monkeypatch.setattr(Records, "group_check", {})
    off = config(f"sqlite:///{tmp_path / 'src.db'}", f"sqlite:///{tmp_path / 'off.db'}")
    run_full(off, "persons")
    assert memberships(off, "persons") != grouped

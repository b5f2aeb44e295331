"""Evidence against in a record pair (dedup.index.record_fields.against; issue 22, s42): a
distinctive field filled in both rows and clearly different weighs more, in pairs where at most one
distinctive field is equal (a family member shares the surname and the address, not the given name
or the birth date). A pair's verdict reads the two rows and the frozen learned weights only, so a
full run then an incremental one still group as one full run that keeps what the first learned."""

from __future__ import annotations

import numpy as np
import pytest

from bench.datasets.records.copies import FIELDS, generate
from dedup.config.model import FieldSpec
from dedup.index.record_fields import against, distinctive
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.runs.full import run_full
from dedup.text.records import RecordSignature
from mongo_fixtures import mongo_live_url  # noqa: F401  (a live server when DEDUP_TEST_MONGO_URI is set)
from test_incremental import memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)
from test_record_floor_runs import config, split_runs_grouped

ON = {"against": 2.0, "against_below": 0.3, "against_top": 4, "against_needs": 1, "against_agree": 1}
EXCUSED = dict(ON, initial=1, against_near=1, initial_score=0.5)  # s43: initials and near names excused (signature v2)
INIT = {"given_name": 2, "surname": 2, "street_number": 1.5, "address_1": 1.5, "address_2": 1.5, "date_of_birth": 2,
        "id_number": 3}  # the weights `dedup init` writes for these columns
SPECS = tuple(FieldSpec(name=f, kind="short", weight=float(INIT.get(f, 1))) for f in FIELDS)
PERSON = {"id": 0, "given_name": "vosdroull", "surname": "shoollprert", "street_number": "919",
          "address_1": "jiertdrell aenue", "address_2": None, "suburb": "trolwondfert", "postcode": "4318",
          "state": "nsw", "date_of_birth": "19320522", "id_number": None}
SIBLING = dict(PERSON, given_name="broundbai", date_of_birth=None)
SIBLING_BORN = dict(PERSON, given_name="broundbai", date_of_birth="19890524")
INITIAL = dict(PERSON, given_name="v")  # a copy whose given name was cut to its initial
TYPO = dict(PERSON, given_name="vosdroul", date_of_birth="19320532")


def scores(**kw) -> np.ndarray:
    """The person against the sibling, the born sibling, the initial and the typo copy."""
    rows = generate(2000, 31)[0]
    sig = RecordSignature(SPECS).of_rows(rows + [PERSON, SIBLING, SIBLING_BORN, INITIAL, TYPO])
    scheme = RecordScheme(len(FIELDS), field_weights=tuple(f.weight for f in SPECS), **kw)
    scheme = scheme.with_learned(scheme.learn(sig[:2000]))
    return scheme.scores(sig[[2000] * 4], sig[2001:2005])


def test_a_family_member_falls_under_the_bar_and_copies_score_as_before():
    off, on = scores(), scores(**ON)
    assert (off[:2] >= RecordScheme.threshold).all()  # main: the sibling is a duplicate
    assert (on[:2] < RecordScheme.threshold).all() and (on[:2] < off[:2] - 0.1).all()
    assert np.array_equal(on[2:], off[2:])  # the initial's birth date and the typo copy: two distinctive fields equal or close


def test_a_neutral_factor_changes_nothing_and_the_default_is_s43s_choice():
    assert np.array_equal(scores(), scores(**dict(ON, against=1.0)))
    assert Records.against == {"against": 1.25, "against_below": 0.3, "against_top": 4, "against_needs": 1,
                                "against_agree": 1, "initial": 1, "initial_score": 0.5, "against_near": 1}


def test_distinctive_fields_are_those_of_most_say_and_against_counts_them():
    weights = np.array([2.0, 5.0, 1.0, 5.0])
    assert distinctive(weights, 2).tolist() == [False, True, False, True]
    scored = np.array([[0.0, 0.1, 0.0, 1.0], [0.0, 0.1, 0.0, 0.2], [0.0, 0.9, 0.0, 1.0], [0.0, 0.1, 0.0, 0.0]])
    used = np.array([[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0]], float)
    got = against(scored, used, weights, below=0.3, factor=3.0, top=2, needs=1, agree=0)
    # row 0: one distinctive field equal (agree 0 allows none); row 1: both unlike; row 2: none
    # unlike; row 3: the equal-looking field is empty in one row, so only field 1 counts
    assert got.tolist() == [[1, 1, 1, 1], [1, 3, 1, 3], [1, 1, 1, 1], [1, 3, 1, 1]]
    assert against(scored, used, weights, 0.3, 3.0, 2, needs=2, agree=0)[3].tolist() == [1, 1, 1, 1]


def test_the_stamp_names_the_rule_only_when_it_is_on(monkeypatch):
    cfg = config("sqlite:///src.db", "sqlite:///store.db")
    tcfg = cfg.tables["persons"]
    shipped = Records.of(cfg, tcfg).stamp()["keys"]
    assert {k: v for k, v in shipped.items() if k.startswith(("against", "initial"))} == dict(Records.against, against_agree_at=1.0)
    monkeypatch.setattr(Records, "against", {})
    assert not any(k.startswith(("against", "initial")) for k in Records.of(cfg, tcfg).stamp()["keys"])
    monkeypatch.setattr(Records, "against", ON)
    got = {k: v for k, v in Records.of(cfg, tcfg).stamp()["keys"].items() if k.startswith(("against", "initial"))}
    assert got == dict(ON, against_near=-1, against_agree_at=1.0)  # s43's keys at their "off" values; no initial


def check_exact(url, tmp_path, monkeypatch, n: int, setting: dict = ON, seed: int = 5) -> None:
    """Rows 1..2n/3 full, the rest incremental, then `full --keep-terms` on the same store: the same
    groups, and the rule moved some (a one full run without it groups otherwise)."""
    rows = generate(n, seed=seed)[0]
    monkeypatch.setattr(Records, "against", setting)
    grouped = split_runs_grouped(url, tmp_path, rows)
    src = tmp_path / "src.db"
    monkeypatch.setattr(Records, "against", {})
    off = config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'off.db'}")
    run_full(off, "persons")
    assert memberships(off, "persons") != grouped


SETTINGS = pytest.mark.parametrize("setting, seed", [(ON, 5), (EXCUSED, 9)], ids=["s42", "s43-excused"])  # seeds it moves at 240 and 900 rows (s47: seed 7 no longer, the strip check groups it alike)


@SETTINGS
def test_full_then_incremental_with_the_rule_groups_as_one_full_run(store_url, tmp_path, monkeypatch, setting, seed):  # noqa: F811
    check_exact(store_url, tmp_path, monkeypatch, 240 if store_url.startswith("mongodb") else 900, setting, seed)


@SETTINGS
def test_full_then_incremental_with_the_rule_on_a_live_server(mongo_live_url, tmp_path, monkeypatch, setting, seed):  # noqa: F811
    check_exact(mongo_live_url, tmp_path, monkeypatch, 240, setting, seed)

"""A record pair needs something personal in common (``RecordScheme.guard``; issue 22, s46): one of
its distinctive fields (an id, a birth date, a name) filled in both rows and scoring at least the
guard, or excused as an initial or a near name. A bare address matched to a person at that address
scored 0.87-1.0 on the address fields alone; the street-number pair keys a wider floor takes meet
such pairs. The guard reads the two rows and the frozen learned weights only, like the evidence
against, so a full run then an incremental one still verify alike."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.datasets.records.copies import FIELDS, generate
from dedup.index.record_fields import shared
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.text.records import RecordSignature
from test_record_against import INITIAL, PERSON, SPECS, TYPO
from test_record_floor_runs import config

ADDRESS = ("street_number", "address_1", "address_2", "suburb", "postcode", "state")
BARE = {k: (v if k in ADDRESS or k == "id" else None) for k, v in PERSON.items()}  # the address, nothing else
FAR = dict(PERSON, given_name=None, surname=None, date_of_birth="19871130")  # a birth date unlike the person's


def scores(**kw) -> np.ndarray:
    """The person against the bare address, the far birth date, the initial and the typo copy."""
    rows = generate(2000, 31)[0]
    sig = RecordSignature(SPECS).of_rows(rows + [PERSON, BARE, FAR, INITIAL, TYPO])
    scheme = RecordScheme(len(FIELDS), field_weights=tuple(f.weight for f in SPECS), **{**Records.against, **kw})
    scheme = scheme.with_learned(scheme.learn(sig[:2000]))
    return scheme.scores(sig[[2000] * 4], sig[2001:2005])


def test_a_pair_of_nothing_personal_in_common_scores_0_and_copies_as_before():
    off, on = scores(guard=-1.0), scores(guard=0.5)
    assert off[0] >= RecordScheme.threshold  # without it the bare address is the person
    assert on[0] == 0.0 and on[1] == 0.0  # nothing personal filled in both; a birth date far off
    assert np.array_equal(on[2:], off[2:])  # the initial (excused) and the typo copy: as before


def test_shared_asks_one_distinctive_field_filled_in_both_and_near():
    weights = np.array([5.0, 4.0, 1.0])  # top 2: fields 0 and 1
    scored = np.array([[0.0, 0.0, 1.0], [0.6, 0.0, 1.0], [0.2, 0.0, 1.0], [0.0, 0.9, 0.0]])
    filled = np.array([[False, False, True], [True, False, True], [True, True, True], [False, True, True]])
    assert shared(scored, filled, weights, 2, 0.5).tolist() == [False, True, False, True]
    assert shared(scored, filled, weights, 2, 0.0).tolist() == [False, True, True, True]
    excused = np.zeros((4, 3), bool)
    excused[2, 0] = True  # an initial
    assert shared(scored, filled, weights, 2, 0.5, excused).tolist() == [False, True, True, True]


@dataclass(frozen=True)
class Guarded(RecordScheme):
    guard: float = 0.5


@dataclass(frozen=True)
class Unguarded(RecordScheme):
    guard: float = -1.0


def test_the_stamp_names_the_guard_only_when_it_is_on(monkeypatch):
    cfg = config("sqlite:///:memory:", "sqlite:///:memory:")
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Guarded)
    assert Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]["guard"] == 0.5
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Unguarded)
    assert "guard" not in Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]  # off: the stamp as before

"""The floor's share kept by the keys that fill its room (``RecordScheme.floor_room``) and a cap on the
keys the share brings in (``floor_spread``; issue 22, s46). With ``floor_share`` 3 on a floored table
the floor ran out of keys, and the capped keys that filled its room put the given name back in five
pair keys; the spread keys themselves cost candidates (address 2 + state, 2.28 expected partners, in
place of a name pair of 1.21). Both read what the full run learned only, like the share."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bench.datasets.records.copies import FIELDS, generate
from dedup.index.record_keys import choose, within_share
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.text.records import RecordSignature
from test_record_against import SPECS
from test_record_floor_runs import config
from test_record_floor_share import COPIES_20K, held


def test_the_spread_takes_no_key_over_its_cap():
    spread = choose(COPIES_20K, 0.0, 12, 20.0, 3.65, share=3)
    assert (2, 6) in spread and COPIES_20K[(2, 6)] == 2.17  # street number + postcode, in for a name pair
    capped = choose(COPIES_20K, 0.0, 12, 20.0, 3.65, share=3, spread=2.0)
    assert capped == [k for k in spread if k != (2, 6)]
    before = choose(COPIES_20K, 0.0, 12, 20.0, 3.65)
    assert choose(COPIES_20K, 0.0, 12, 20.0, 3.65, spread=1.0) == before  # no share, nothing turned away: no cap


def test_the_keys_that_fill_the_room_keep_the_share():
    chosen = [(0, 1), (0, 3), (0, 5), (4, 6)]  # the given name in three
    more = [(0, 4), (2, 4), (4, 6), (2, 6), (0, 1), (4, 7)]
    assert within_share(chosen, more, 3) == [(2, 4), (4, 6), (2, 6)]  # (4, 7): address 2 in three by then
    assert within_share([], [(0, 1), (0, 2)], 1) == [(0, 1)]


def test_a_floored_table_keeps_the_share_in_all_its_pair_keys():
    rows, _ = generate(6000, 1, 0.4, 0.08)
    sig = RecordSignature(SPECS).of_rows(rows)
    scheme = RecordScheme(len(FIELDS), field_weights=tuple(f.weight for f in SPECS),
                          **{**Records.against, "floor_share": 3})
    scheme = scheme.with_learned(scheme.learn(sig))
    assert scheme.floored() and max(held(scheme.pair_keys()).values()) > 3  # the room broke the share
    roomed = replace(scheme, floor_room=3).pair_keys()
    assert max(held(roomed).values()) <= 3 and roomed == scheme.pair_keys()[:len(roomed)]


@dataclass(frozen=True)
class Roomed(RecordScheme):
    floor_room: int = 3
    floor_spread: float = 0.5


def test_the_stamp_names_room_and_spread_only_when_on(monkeypatch):
    cfg = config("sqlite:///:memory:", "sqlite:///:memory:")
    keys = Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]
    assert "floor_room" not in keys and "floor_spread" not in keys  # off: the stamp as before
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Roomed)
    keys = Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]
    assert keys["floor_room"] == 3 and keys["floor_spread"] == 0.5

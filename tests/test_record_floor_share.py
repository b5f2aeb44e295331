"""The floor's pair keys spread over the fields (``RecordScheme.floor_share``; issue 22, s45): on a
20,000-row table of persons each entered up to six times the cheapest pair keys all held the given
name or the surname, so a copy with a typo in both names that kept its street number, street and
postcode was never a candidate. No field may now be in more than ``floor_share`` floor pair keys. The
keys are chosen from what the full run learned only, so a full run then an incremental one still
group as one full run that keeps what the first learned."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bench.datasets.records.copies import generate
from dedup.index.record_keys import choose
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.runs.full import run_full
from mongo_fixtures import mongo_live_url  # noqa: F401  (a live server when DEDUP_TEST_MONGO_URI is set)
from test_incremental import memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)
from test_record_floor_runs import config, split_runs_grouped

# expected partners of the pair keys of bench/datasets/records/copies.py at 20,000 rows, seed 1 (fields:
# 0 given name, 1 surname, 2 street number, 3 street, 4 address 2, 5 suburb, 6 postcode; session 45)
COPIES_20K = {(0, 1): 1.14, (0, 3): 1.19, (1, 3): 1.34, (0, 5): 1.37, (0, 6): 1.43, (1, 5): 1.46, (0, 4): 1.48,
              (1, 6): 1.51, (0, 2): 1.57, (1, 2): 1.59, (3, 5): 1.59, (2, 3): 1.79, (2, 5): 2.07, (2, 6): 2.17,
              (4, 6): 1.62, (3, 6): 1.8, (5, 6): 2.4}


def held(keys: list) -> dict:
    out: dict = {}
    for k in keys:
        for f in k:
            out[f] = out.get(f, 0) + 1
    return out


def test_no_field_is_in_more_than_share_floor_pair_keys():
    before = choose(COPIES_20K, 0.0, 12, 20.0, 3.65)
    assert held(before)[0] == 6 and (2, 6) not in before and (2, 3) not in before  # the names took the floor
    spread = choose(COPIES_20K, 0.0, 12, 20.0, 3.65, share=3)
    assert max(held(spread).values()) <= 3 and (2, 6) in spread  # street number + postcode
    assert sum(COPIES_20K[k] for k in spread) <= 20.0  # within the budget still
    assert choose(COPIES_20K, 0.0, 12, 20.0, 3.65, share=0) == before


def test_the_stamp_names_the_spread_only_when_it_is_on(monkeypatch):
    cfg = config("sqlite:///:memory:", "sqlite:///:memory:")
    keys = Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]
    assert RecordScheme.floor_share == 5 and keys["floor_share"] == 5  # shipped (bench/results/persons3-s45.md)
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Unspread)
    assert "floor_share" not in Records.of(cfg, cfg.tables["persons"]).stamp()["keys"]  # off: the stamp as before


@dataclass(frozen=True)
class Unspread(RecordScheme):
    floor_share: int = 0


@dataclass(frozen=True)
class Spread2(RecordScheme):
    floor_share: int = 2  # binds on a table of 300 rows (the shipped 5 binds from about 20,000)


def check_exact(url, tmp_path, monkeypatch, n: int = 300, seed: int = 2) -> None:
    """With the spread at 2 (on purpose: it binds at this size), rows 1..2n/3 full, the rest
    incremental, then `full --keep-terms` on the same store: the same groups; and on this table the
    spread moves groups (one full run of all rows with and without it)."""
    rows = generate(n, seed=seed)[0]
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Spread2)
    split_runs_grouped(url, tmp_path, rows)
    src = tmp_path / "src.db"
    on = config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'on.db'}")
    run_full(on, "persons")
    monkeypatch.setattr("dedup.methods.records.RecordScheme", Unspread)
    off = config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'off.db'}")
    run_full(off, "persons")
    assert memberships(off, "persons") != memberships(on, "persons")


def test_full_then_incremental_with_the_spread_groups_as_one_full_run(store_url, tmp_path, monkeypatch):  # noqa: F811
    check_exact(store_url, tmp_path, monkeypatch)


@pytest.mark.parametrize("seed", [2])
def test_full_then_incremental_with_the_spread_on_a_live_server(mongo_live_url, tmp_path, monkeypatch, seed):  # noqa: F811
    check_exact(mongo_live_url, tmp_path, monkeypatch, seed=seed)

"""`dedup eval` measures exactly what `dedup full` stores, through the same stages."""

from __future__ import annotations

import pytest

from dedup.config import parse_config
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.eval.sweep import run_eval
from dedup.runs.full import run_full

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    """40 identical petitions, then 160 generated ones (with their own planted duplicates)."""
    tmp = tmp_path_factory.mktemp("eval")
    sample = generate_petitions(161, seed=11)
    rows = [dict(sample.rows[0], id=i) for i in range(1, 41)] + [dict(r, id=40 + n) for n, r in enumerate(sample.rows[1:], 1)]
    src = f"sqlite:///{tmp / 'src.db'}"
    write_sample_db(src, SampleTable(rows, {}))
    return parse_config({"source": {"url": src}, "store": {"url": f"sqlite:///{tmp / 'store.db'}"},
                         "text": {"workers": 1}, "tables": {"petitions": {"key": "id", "fields": FIELDS}}})


def test_eval_finds_exactly_the_groups_of_a_full_run(config):
    groups = run_full(config, "petitions").groups
    assert any(g.size == 40 for g in groups) and len(groups) > 3
    truth = {k: f"g{g.id}" for g in groups for k in g.keys}  # full's own groups as the truth
    result = run_eval(config, "petitions", truth=truth)
    cur = result["current"]
    # precision and recall are exactly 1 only if eval grouped the rows exactly as full did
    assert (cur["precision"], cur["recall"], cur["groups"]) == (1.0, 1.0, len(groups))
    assert result["false_pairs"] == [] and result["missed_pairs"] == []
    # the sweep's point at the current setting, computed from the widest candidates, agrees
    sweep = result["sweeps"][0]
    point = next(p for p in sweep["points"] if p["value"] == sweep["current"])
    assert (point["precision"], point["recall"], point["groups"]) == (1.0, 1.0, len(groups))


@pytest.mark.parametrize("match, knobs", [
    ({}, {"match.threshold"}),
    ({"method": "simhash"}, {"simhash.max_distance", "simhash.min_similarity"}),
])
def test_the_shipped_defaults_measure_among_the_best_of_their_sweeps(match, knobs, tmp_path):
    """Measured on labelled rows, not read from the lists: each sweep holds a point at the configured
    default, no swept value scores a better F1 there, and the sweep does tell values apart (its worst
    point scores lower), so a default moved to a poor value fails here."""
    sample = generate_petitions(300, seed=11)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, sample)
    cfg = parse_config({"source": {"url": src}, "store": {"url": f"sqlite:///{tmp_path / 'store.db'}"},
                        "text": {"workers": 1}, **({"match": match} if match else {}),
                        "tables": {"petitions": {"key": "id", "fields": FIELDS}}})
    result = run_eval(cfg, "petitions", truth={str(k): str(v) for k, v in sample.truth.items()})
    assert {s["knob"] for s in result["sweeps"]} == knobs
    for sweep in result["sweeps"]:
        f1 = {p["value"]: p["f1"] for p in sweep["points"]}
        assert sweep["current"] in f1, sweep["knob"]
        assert f1[sweep["current"]] == max(f1.values()), (sweep["knob"], f1)
        assert min(f1.values()) < f1[sweep["current"]], (sweep["knob"], f1)
    if match:
        currents = {s["knob"]: s["current"] for s in result["sweeps"]}
        assert currents == {"simhash.max_distance": cfg.max_distance, "simhash.min_similarity": cfg.min_similarity}

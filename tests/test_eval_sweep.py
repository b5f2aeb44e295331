"""`dedup eval` measures exactly what `dedup full` stores, through the same stages."""

from __future__ import annotations

import pytest

from dedup.config import parse_config
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.eval.sweep import DEFAULT_DISTANCES, DEFAULT_SIMILARITIES, run_eval
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


def test_the_sweeps_include_the_shipped_defaults(config):
    assert config.max_distance in DEFAULT_DISTANCES
    assert config.min_similarity in DEFAULT_SIMILARITIES and config.min_field_similarity in DEFAULT_SIMILARITIES

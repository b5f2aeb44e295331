"""Session 47, second round (bench/results/topic5-s47.md): `dedup eval` leaves out of its sweep the candidate
pairs that the ``wide_keys`` guard refuses at every threshold it sweeps, so bands of 2 cost eval about what
bands of 4 did, and every figure it reports stays what sweeping all the candidates gives."""

from __future__ import annotations

import numpy as np
import pytest

import dedup.eval.sweep as S
from dedup.config import parse_config
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.eval.metrics import pair_quality
from dedup.index.unkeyed import keyed, unkeyed_kept
from dedup.runs.full import run_full

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    """run_eval on 400 generated petitions (their shared sentences put unlike rows in one band of 2),
    with the recipe, keys and sketches it measured."""
    tmp = tmp_path_factory.mktemp("eval_unkeyed")
    sample = generate_petitions(400, seed=5)
    src = f"sqlite:///{tmp / 'src.db'}"
    write_sample_db(src, sample)
    cfg = parse_config({"source": {"url": src}, "store": {"url": f"sqlite:///{tmp / 'store.db'}"},
                        "text": {"workers": 1}, "tables": {"petitions": {"key": "id", "fields": FIELDS}}})
    truth = {str(k): str(v) for k, v in sample.truth.items()}
    seen: dict = {}
    measured = S._measure_scored

    def kept(config, recipe, result, sk, *a):
        seen.update(recipe=recipe, keys=result.keys, sk=sk)
        return measured(config, recipe, result, sk, *a)
    S._measure_scored = kept
    try:
        result = S.run_eval(cfg, "petitions", truth=truth)
    finally:
        S._measure_scored = measured
    return cfg, truth, result, seen


def _all_candidates(seen) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate pair of the recipe's keys, unscreened (what eval swept before)."""
    at = {k: n for n, k in enumerate(seen["keys"])}
    pairs = seen["recipe"].candidates(seen["keys"], seen["sk"])
    return np.array([at[p.a] for p in pairs], np.int64), np.array([at[p.b] for p in pairs], np.int64)


def test_eval_scores_only_the_pairs_some_swept_threshold_could_keep(evaluated):
    _, _, result, seen = evaluated
    method = seen["recipe"].method
    v = method.verifier
    assert v.wide_keys  # the shipped default
    i, j = _all_candidates(seen)
    a, b = method.signatures(seen["sk"][i]), method.signatures(seen["sk"][j])
    lowest = min(p["value"] for p in result["sweeps"][0]["points"])
    low = v.__class__(**{**v.__dict__, "threshold": lowest})
    short = np.minimum(a[:, 0], b[:, 0]) < v.short_chars
    could = keyed(a, b, v.identity, v.perms, v.wide_keys) | unkeyed_kept(low, a, b, v.scores(a, b), short)
    scored = sum(sum(h["true"]) + sum(h["false"]) for h in result["histograms"][:1])
    assert (~could).sum() > len(i) // 2  # most candidates of bands of 2 are refused at every threshold
    assert scored == could.sum()


def test_the_sweep_is_what_all_candidates_give(evaluated):
    _, truth, result, seen = evaluated
    method, keys = seen["recipe"].method, seen["keys"]
    i, j = _all_candidates(seen)
    a, b = method.signatures(seen["sk"][i]), method.signatures(seen["sk"][j])
    for point in result["sweeps"][0]["points"]:
        keep = method.at_threshold(point["value"])(a, b)
        q = pair_quality(S._groups(keys, i[keep], j[keep]), truth, list(truth)).as_dict()
        assert {k: point[k] for k in q} == q, point["value"]


def test_eval_at_the_default_is_full_run_scored(evaluated):
    cfg, truth, result, _ = evaluated
    q = pair_quality([g.keys for g in run_full(cfg, "petitions").groups], truth, list(truth)).as_dict()
    assert {k: result["current"][k] for k in ("precision", "recall", "f1")} == \
        {k: q[k] for k in ("precision", "recall", "f1")}

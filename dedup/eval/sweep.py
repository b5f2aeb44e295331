"""`dedup eval`: the configured recipe measured against labelled truth, with its knobs swept.

A fields fingerprint (tables of records without text) has no distance to sweep: its candidates
share a field, and ``simhash.min_field_similarity`` is swept on their field-by-field scores.

The table is read and fingerprinted once, as a full run would (IDF learned from the table,
nothing written to the store). Candidate pairs are searched once at the widest distance swept;
each sweep point only filters those pairs (by fingerprint distance and by sketch similarity) and
groups them again, so a sweep of ten points costs little more than one run.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..config.model import Config
from ..db.source import Source
from ..index.blocks import BlockLayout
from ..index.groups import UnionFind
from ..index.keys import key_sort
from ..index.similarity import distance_limit, similarity, sketch_distance
from ..runs.parallel import resolve_workers
from ..runs.recipe import Recipe
from ..runs.stages import read_rows
from ..text.normalize import value_to_text
from ..text.terms import TermModel
from . import DEFAULT_DISTANCES, DEFAULT_SIMILARITIES
from .metrics import false_pairs, missed_pairs, pair_quality

SHOWN_PAIRS = 50
SIMILARITY_BINS = [round(x, 2) for x in np.arange(-0.2, 1.0001, 0.05)]


def run_eval(config: Config, table: str | None, truth: dict[str, str] | None = None,
             truth_column: str | None = None, distances=DEFAULT_DISTANCES, similarities=DEFAULT_SIMILARITIES,
             progress=None, on_total=None) -> dict:
    """Quality of the configured recipe on ``table`` and its sweeps, as one JSON-able dict.

    The rows are read, sketched and grouped by the same stages as a full run (the current
    setting's groups are exactly the ones `dedup full` would store)."""
    tcfg = config.table(table)
    if truth_column:
        tcfg = replace(tcfg, display=tuple(dict.fromkeys([*tcfg.display, truth_column])))
    recipe = Recipe.of(config, tcfg)
    started = time.perf_counter()
    with Source(config.source_url, tcfg, config.batch_size) as source:
        if on_total is not None:
            on_total(source.count())
        result = read_rows(source, recipe, progress, workers=resolve_workers(config.text.workers))
        recipe = recipe.learn_content(result.features)  # what the table shares, as a full run learns it
        sketches = recipe.sketch(result.features, TermModel.learn(result.features) if recipe.idf else None)
        recipe = recipe.learn(sketches)  # as a full run does
        every_key = list(result.keys) + [s.key for s in result.skipped]
        if truth_column:
            values = source.fetch(every_key, (truth_column,))
            truth = {k: v for k in every_key if (v := value_to_text(values.get(k, {}).get(truth_column)))}
        measure = _measure_scored if recipe.method.scored else _measure
        out = measure(config, recipe, result, sketches, truth or {}, every_key, distances, similarities)
        shown = [p for kind in ("false_pairs", "missed_pairs") for p in out[kind]]
        cols = tcfg.display or tuple(f.name for f in tcfg.fields)
        rows = source.fetch(sorted({k for p in shown for k in (p["a"], p["b"])}, key=key_sort), cols)
        for p in shown:
            for side in ("a", "b"):
                vals = rows.get(p[side], {})
                p[f"{side}_text"] = " | ".join(t for c in cols if (t := value_to_text(vals.get(c))))
    out["unlabelled_rows"] = sum(1 for k in every_key if k not in (truth or {}))  # each its own cluster
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


def _candidates(recipe: Recipe, keys: list[str], sk: np.ndarray, layout: BlockLayout | None = None,
                lowest: float | None = None):
    """Candidate pairs as index arrays (i, j) with their fingerprint distance, from the recipe's own
    candidate stage (identical rows collapsed), at ``layout`` (default: the recipe's); ``lowest``: the
    lowest threshold swept (a pair refused at every one is left out: Recipe.candidates)."""
    index = {k: n for n, k in enumerate(keys)}
    pairs = recipe.candidates(keys, sk, layout, lowest)
    i = np.fromiter((index[p.a] for p in pairs), np.int64, len(pairs))
    j = np.fromiter((index[p.b] for p in pairs), np.int64, len(pairs))
    return i, j, np.fromiter((p.distance for p in pairs), np.int64, len(pairs))


def _measure(config: Config, recipe: Recipe, result, sk: np.ndarray, truth: dict[str, str], every_key: list[str],
             distances, similarities) -> dict:
    tcfg = recipe.table
    keys = result.keys
    bits = sk.shape[1] * 64
    widest = max([config.max_distance, *distances])
    i, j, d64 = _candidates(recipe, keys, sk, BlockLayout.for_distance(widest))
    dsk = sketch_distance(sk[i], sk[j]) if len(i) else np.empty(0, np.int64)
    verify = None if config.min_similarity is None else distance_limit(config.min_similarity, bits)

    def quality(max_d: int, max_sk: int | None):
        keep = d64 <= max_d
        if max_sk is not None:
            keep &= dsk <= max_sk
        groups = _groups(keys, i[keep], j[keep])
        return groups, pair_quality(groups, truth, every_key)

    groups = [g.keys for g in recipe.groups(keys, sk)]  # exactly what `dedup full` finds
    current = pair_quality(groups, truth, every_key)
    label = f"max_distance={config.max_distance}" + (
        f", min_similarity={config.min_similarity} (sketch {bits} bits)" if verify is not None else "")
    sweeps = [{"knob": "simhash.max_distance", "current": config.max_distance,
               "points": [{"value": k, **quality(k, verify)[1].as_dict()} for k in sorted(set(distances))]}]
    if bits > 64 or verify is not None:
        sweeps.append({"knob": "simhash.min_similarity", "current": config.min_similarity, "points": [
            {"value": s, **quality(config.max_distance, distance_limit(s, bits))[1].as_dict()}
            for s in sorted(set(similarities))]})
    same = _same_cluster(keys, truth, i, j)
    sim = similarity(dsk, bits)
    hist = [
        {"measure": "64-bit Hamming distance of candidate pairs", "bins": list(range(widest + 1)),
         "true": np.bincount(d64[same], minlength=widest + 1).tolist(),
         "false": np.bincount(d64[~same], minlength=widest + 1).tolist(), "threshold": config.max_distance,
         "accept": "at_most"},
        {"measure": f"similarity estimated from {bits} sketch bits", "bins": SIMILARITY_BINS,
         "true": _binned(sim[same], SIMILARITY_BINS), "false": _binned(sim[~same], SIMILARITY_BINS),
         "threshold": config.min_similarity, "accept": "at_least"},
    ]
    return {
        "table": tcfg.name, "rows": result.rows_read, "fingerprinted": len(keys),
        "skipped": len(result.skipped), "truth_clusters": len(set(truth.values())),
        "current": {"label": label, **current.as_dict()},
        "sweeps": sweeps, "histograms": hist,
        **_shown_pairs(groups, truth, every_key, keys, sk, lambda a, b: similarity(sketch_distance(a, b), bits)),
    }


def _measure_scored(config: Config, recipe: Recipe, result, sk: np.ndarray, truth: dict[str, str],
                    every_key: list[str], distances, similarities) -> dict:
    """A method whose verifier scores candidate pairs (the minhash methods' estimated Jaccard or
    field score, a fields fingerprint's weighted field similarity): its threshold is swept on those scores."""
    tcfg, method = recipe.table, recipe.method
    keys = result.keys
    knob, current_t, label = method.knob, method.threshold, method.sweep_label
    swept = sorted(set(similarities) | {current_t})
    i, j, _ = _candidates(recipe, keys, sk, lowest=swept[0])  # s47: pairs no swept threshold keeps left out
    score_of, keep_at = method.scores, method.sweep(sk[i], sk[j])
    score = score_of(sk[i], sk[j]) if len(i) else np.empty(0)

    def quality(threshold: float):
        keep = keep_at(threshold)
        return pair_quality(_groups(keys, i[keep], j[keep]), truth, every_key)

    groups = [g.keys for g in recipe.groups(keys, sk)]  # exactly what `dedup full` finds
    current = pair_quality(groups, truth, every_key)
    same = _same_cluster(keys, truth, i, j)
    return {
        "table": tcfg.name, "rows": result.rows_read, "fingerprinted": len(keys),
        "skipped": len(result.skipped), "truth_clusters": len(set(truth.values())),
        "current": {"label": label, **current.as_dict()},
        "sweeps": [{"knob": knob, "current": current_t, "points": [
            {"value": s, **quality(s).as_dict()} for s in swept]}],
        "histograms": [{"measure": method.sweep_measure, "bins": SIMILARITY_BINS,
                        "true": _binned(score[same], SIMILARITY_BINS),
                        "false": _binned(score[~same], SIMILARITY_BINS), "threshold": current_t,
                        "accept": "at_least"}],
        **_shown_pairs(groups, truth, every_key, keys, sk, score_of),
    }


def _groups(keys: list[str], i: np.ndarray, j: np.ndarray) -> list[list[str]]:
    uf = UnionFind()
    for a, b in zip(i.tolist(), j.tolist()):
        uf.union(a, b)
    return [sorted((keys[x] for x in c), key=key_sort) for c in uf.components()]


def _binned(values: np.ndarray, bins: list[float]) -> list[int]:
    pos = np.clip(np.searchsorted(np.asarray(bins), values, side="right") - 1, 0, len(bins) - 1)
    return np.bincount(pos, minlength=len(bins)).tolist()


def _same_cluster(keys: list[str], truth: dict[str, str], i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Whether each candidate pair (i, j) is a true pair; an unlabelled row is its own cluster."""
    label_of = np.array([truth.get(k, "\x00" + k) for k in keys], dtype=object)
    return label_of[i] == label_of[j] if len(i) else np.zeros(0, bool)


def _shown_pairs(groups, truth: dict, every_key: list[str], keys: list[str], sk: np.ndarray, score_of) -> dict:
    """The false and the missed pairs, each with its fingerprint distance and its similarity
    (``score_of(sketches_a, sketches_b)``: what the recipe compares with its threshold)."""
    index = {k: n for n, k in enumerate(keys)}

    def pair(a: str, b: str) -> dict:
        ia, ib = index.get(a), index.get(b)
        d = s = None
        if ia is not None and ib is not None:
            d = int(np.bitwise_count(sk[ia, 0] ^ sk[ib, 0]))
            s = round(float(score_of(sk[[ia]], sk[[ib]])[0]), 3)
        return {"a": a, "b": b, "distance": d, "similarity": s, "a_cluster": truth.get(a), "b_cluster": truth.get(b)}

    return {"false_pairs": [pair(a, b) for a, b in false_pairs(groups, truth, SHOWN_PAIRS)],
            "missed_pairs": [pair(a, b) for a, b in missed_pairs(groups, truth, every_key, SHOWN_PAIRS)]}

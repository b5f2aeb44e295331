"""`dedup eval --decisions`: a threshold suggested from decisions alone (partial truth).

Each decided pair stands for the candidate pairs of its similarity bin (dedup.runs.calibrate):
weighted by (candidate pairs in the bin) / (decided pairs in the bin), the decided pairs estimate,
for each threshold t, precision = share of "same" among pairs scoring >= t and recall = share of
all "same" pairs that score >= t. Recall counts only candidate pairs (rows sharing a block): a
pair the blocks never meet is not seen here. Bins nobody decided on are left out and reported.
"""

from __future__ import annotations

import numpy as np

from ..index.decisions import SAME
from ..runs.calibrate import STEP, Candidates, candidates
from ..runs.explain import Scorer


def decision_quality(scorer: Scorer, decisions, thresholds=None) -> dict:
    cands = candidates(scorer)
    scored = scorer.pairs([d.pair for d in decisions])
    labelled = [(scored[d.pair]["similarity"], d.verdict == SAME) for d in decisions
                if d.pair in scored and scored[d.pair]["similarity"] is not None]
    current = scorer.threshold
    base = {"table": scorer.table, "measure": scorer.measure, "knob": scorer.knob, "current": current,
            "decisions": len(decisions), "labelled_pairs": len(labelled),
            "labelled_same": sum(1 for _, s in labelled if s), "candidate_pairs": int(len(cands.i))}
    if not labelled:
        return {**base, "points": [], "suggested": None,
                "note": "no decided pair has two stored rows: run `dedup review --calibrate` first"}
    score = np.array([s for s, _ in labelled])
    same = np.array([x for _, x in labelled])
    weight, coverage = _weights(cands, score)
    grid = sorted({round(float(x), 4) for x in (thresholds if thresholds is not None else _grid(score))}
                  | ({current} if current is not None else set()))
    points = [_point(t, score, same, weight) for t in grid]
    best = max(points, key=lambda p: (p["f1"], p["precision"], p["threshold"]))
    return {**base, "coverage": round(coverage, 4), "points": points, "suggested": best}


def _grid(score: np.ndarray) -> list[float]:
    lo, hi = np.floor(score.min() / STEP) * STEP, np.ceil(score.max() / STEP) * STEP
    return list(np.arange(lo, hi + STEP / 2, STEP))


def _weights(cands: Candidates, score: np.ndarray) -> tuple[np.ndarray, float]:
    """Each decided pair's weight (candidate pairs it stands for), and the share of candidate pairs
    in bins with a decision."""
    bins = np.floor(score / STEP).astype(np.int64)
    finite = cands.score[~np.isnan(cands.score)]
    cbins = np.floor(finite / STEP).astype(np.int64)
    labelled_bins, per_bin = np.unique(bins, return_counts=True)
    found = dict(zip(*np.unique(cbins, return_counts=True))) if len(cbins) else {}
    n_label = dict(zip(labelled_bins.tolist(), per_bin.tolist()))
    weight = np.array([max(found.get(b, 0), n_label[b]) / n_label[b] for b in bins.tolist()], dtype=float)
    covered = sum(found.get(b, 0) for b in n_label)
    return weight, (covered / len(finite) if len(finite) else 1.0)


def _point(t: float, score: np.ndarray, same: np.ndarray, weight: np.ndarray) -> dict:
    kept = score >= t - 1e-12
    tp = float((weight * (kept & same)).sum())
    predicted = float((weight * kept).sum())
    positives = float((weight * same).sum())
    precision = tp / predicted if predicted else 1.0
    recall = tp / positives if positives else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"threshold": round(t, 4), "precision": round(precision, 4), "recall": round(recall, 4),
            "f1": round(f1, 4), "decided_at_or_above": int(kept.sum())}


def render_decision_quality(result: dict) -> str:
    lines = [f"{result['table']}: {result['labelled_pairs']} decided pairs ({result['labelled_same']} same) "
             f"among {result['candidate_pairs']:,} candidate pairs; measure: {result['measure']}"]
    if result.get("note"):
        return "\n".join(lines + [result["note"]]) + "\n"
    lines.append(f"estimates cover the similarity bins holding {result['coverage']:.0%} of the candidate pairs "
                 "(recall: among candidate pairs)")
    lines.append(f"  {'threshold':>9}  {'precision':>9}  {'recall':>6}  {'f1':>6}  decided>=t")
    for p in result["points"]:
        mark = "*" if result["current"] is not None and abs(p["threshold"] - result["current"]) < 1e-9 else " "
        lines.append(f"{mark} {p['threshold']:>9.3f}  {p['precision']:>9.4f}  {p['recall']:>6.4f}  {p['f1']:>6.4f}  "
                     f"{p['decided_at_or_above']}")
    s = result["suggested"]
    lines.append(f"suggested {result['knob']}: {s['threshold']:.3f} (estimated precision {s['precision']:.4f}, "
                 f"recall {s['recall']:.4f}; * = current {result['current']})")
    return "\n".join(lines) + "\n"

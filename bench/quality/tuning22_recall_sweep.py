"""The sweep behind issue 22's recall defaults (identity keys for long contents, with the
threshold and identity_threshold around them), scored as `dedup full` groups rows: star clusters
(dedup.index.clusters), on TUNING sets only (bench/datasets/tuning22 and bench/datasets/labelled petitions).

    python -m bench.quality.tuning22_recall_sweep [--sets forms:5000:0,places:3000:0,...]

Each set's content features are made once; for each (common_share, common_rows, common_floor) of
WEIGHTS the full run's ContentModel is learned and the weighted signatures made; candidates
searched with the BandScheme of each of KEYS (MinHash values a band; identity keys for short
contents only, or for all), verified with TextVerifier at each threshold and identity_threshold,
and grouped by star clustering with the verifier as its check. One line per point and set
(pairwise P / R / F1, the largest group mixing truth clusters, how many such groups have more than
5 rows), then the points ranked by their lowest F1 over the sets. Output:
bench/results/tuning22_recall_sweep.log. A wider grid (common_share 0 and 0.002, floors 0.05 to
0.3, r 3 and 4, thresholds 0.4 to 0.75; stopped after the forms sets for time) is
bench/results/logs/tuning22_recall_sweep_wide.log: below 0.75 every point gave forms:5000:0 false
groups of more than 5 rows (at 0.65: 1 or 2 of them, the largest 8 or 11 rows).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from bench.quality.tuning22_sweep import load
from bench.quality.tuning22_sweep import score as pairwise_score
from dedup.index.bands import BandScheme, TextVerifier
from dedup.index.clusters import star_clusters
from dedup.index.groups import Pair
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import TextSignature

DEFAULT_SETS = "forms:5000:0,forms:20000:1,places:3000:0,places:3000:1,tickets:2000:0,petitions:5000:0"
WEIGHTS = [(0.002, 10, 0.3)]  # (share, rows, floor): the shipped weighting (tuning22_sweep.py chose it)
THRESHOLDS = (0.7, 0.75)
IDENTITY_THRESHOLDS = (0.35, 0.4, 0.45)
KEYS = tuple(itertools.product((4,), (False, True)))  # (MinHash values a band, identity keys for long contents)


def star_labels(n: int, s: np.ndarray, i: np.ndarray, j: np.ndarray, verifier: TextVerifier) -> np.ndarray:
    """Each row's group (star clusters of the verified pairs; a row in none: a group of its own)."""
    key = [str(x) for x in range(n)]

    def check(pairs):
        a = np.array([int(p) for p, _ in pairs], np.int64)
        b = np.array([int(q) for _, q in pairs], np.int64)
        return verifier(s[a], s[b]).tolist() if len(a) else []

    clusters = star_clusters([Pair(key[a], key[b], 0) for a, b in zip(i.tolist(), j.tolist())], int, check)
    labels = np.arange(n, dtype=np.int64)
    for c in clusters:
        labels[[int(k) for k in c]] = int(c[0])
    return labels


def score(labels: np.ndarray, code: np.ndarray) -> tuple[float, float, float, int, int]:
    """tuning22_sweep's pairwise P, R, F1 and largest group holding more than one truth cluster,
    plus how many such groups have more than 5 rows."""
    pair = np.unique(np.stack([labels, code]), axis=1)[0]  # each (group, cluster) once, by group
    mixed = np.unique(pair, return_counts=True)
    bad = mixed[0][mixed[1] > 1]
    sizes = np.unique(labels[np.isin(labels, bad)], return_counts=True)[1] if len(bad) else np.zeros(0, np.int64)
    return (*pairwise_score(labels, code), int((sizes > 5).sum()))


def score_point(s: np.ndarray, i: np.ndarray, j: np.ndarray, verifier: TextVerifier, code: np.ndarray) -> tuple:
    """``score`` of the star clusters of the candidates (i, j) the verifier keeps."""
    keep = verifier(s[i], s[j])
    return score(star_labels(len(s), s, i[keep], j[keep], verifier), code)


def point_table(names: tuple, order: list, allowed=None) -> None:
    """Print a sweep's ranked points (``order``: (point, per-set results) as ``ranked`` gives) as a
    markdown table: the point's values under ``names``, whether it is allowed (when given), min P,
    min R, mean F1, the largest false group, false groups over 5 rows, P and R per set."""
    head = (*names, *(("allowed",) if allowed else ()), "min P", "min R", "mean F1", "largest false group",
            "false groups > 5", "P per set", "R per set")
    print("\n| " + " | ".join(head) + " |\n" + "|---" * len(head) + "|")
    for point, rs in order:
        cells = [*map(str, point), *((str(allowed(rs)),) if allowed else ()), f"{min(x[1] for x in rs):.4f}",
                 f"{min(x[2] for x in rs):.4f}", f"{np.mean([x[3] for x in rs]):.4f}", str(max(x[4] for x in rs)),
                 str(sum(x[5] for x in rs)), " ".join(f"{x[1]:.4f}" for x in rs), " ".join(f"{x[2]:.4f}" for x in rs)]
        print("| " + " | ".join(cells) + " |")


def ranked(results: dict, off: tuple) -> tuple:
    """(allowed, the points ranked) of a rule's sweep: ``results`` maps each point to its (spec, P, R,
    F1, largest false group, false groups > 5) per set; allowed: precision kept on every set (within
    0.001 of point ``off``, the rule off) and no false group over 5 rows. Ranked: allowed first, then
    the highest lowest recall, then the mean F1."""
    base = {spec: x for spec, *x in results[off]}

    def allowed(rs) -> bool:
        return all(p >= base[spec][0] - 0.001 and over5 == 0 for spec, p, _, _, _, over5 in rs)
    return allowed, sorted(results.items(), key=lambda kv: (not allowed(kv[1]), -min(x[2] for x in kv[1]),
                                                            -np.mean([x[3] for x in kv[1]])))


def sweep_set(spec: str, results: dict) -> None:
    data, identity, content = load(spec)
    rows = sorted(data.rows, key=lambda r: r["id"])
    labs = {lab: i for i, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
    code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
    sig = TextSignature(content, identity)
    head, hashes, counts = sig.parts(rows)
    for share, least, floor in WEIGHTS:
        model = ContentModel.learn(hashes, len(rows), share, least, floor)
        ids = ContentModel.learn(head[:, 1:].ravel(), len(rows), share, least, floor, IDENTITY_SALT)
        s = sig.finish(head, hashes, counts, model, ids)
        for r, long_identity in KEYS:
            i, j = BandScheme(len(identity), r=r, long_identity=long_identity).near(s)
            for t, it in itertools.product(THRESHOLDS, IDENTITY_THRESHOLDS):
                t0 = time.perf_counter()
                verifier = TextVerifier(len(identity), threshold=t, identity_threshold=it)
                p, rec, f1, big, over5 = score_point(s, i, j, verifier, code)
                point = (share, floor, r, long_identity, t, it)
                results.setdefault(point, []).append((spec, p, rec, f1, big, over5))
                print(f"{spec:<16} share {share:<6} floor {floor:<4} r {r} long_identity {long_identity!s:<5} t {t:.2f} it {it:.2f}: "
                      f"P {p:.4f} R {rec:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    a = ap.parse_args()
    results: dict[tuple, list] = {}
    for spec in a.sets.split(","):
        sweep_set(spec, results)
    print("\n| common_share | common_floor | r | long identity keys | threshold | identity_threshold | min F1 | mean F1 | min P | min R "
          "| largest false group | false groups > 5 |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
    ranked = sorted(results.items(), key=lambda kv: (-min(x[3] for x in kv[1]), -np.mean([x[3] for x in kv[1]])))
    for (share, floor, r, li, t, it), rs in ranked:
        print(f"| {share} | {floor} | {r} | {li} | {t} | {it} | {min(x[3] for x in rs):.4f} | {np.mean([x[3] for x in rs]):.4f} "
              f"| {min(x[1] for x in rs):.4f} | {min(x[2] for x in rs):.4f} | {max(x[4] for x in rs)} "
              f"| {sum(x[5] for x in rs)} |")


if __name__ == "__main__":
    main()

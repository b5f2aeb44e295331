"""The sweep behind the ``distinct`` rule's defaults (issue 22: neighbours' rewordings of one
incident, whose whole texts are under match.threshold, kept by their distinctive details), on
TUNING sets only (bench/datasets/tuning22 and bench/datasets/labelled petitions).

    python -m bench.quality.tuning22_distinct_sweep [--sets forms:5000:0,places:3000:0,...]

Each set is signed once per (distinct_perms, distinct_weight) of SIGNS (distinct_weight: a
feature weighing at least this in the shipped weighting is distinctive; 1.0: only the features
no more common than match.common_rows / common_share allow, 0.5: also those in up to twice as
many rows, a place named by a few dozen complaints of a large table) with the shipped weighting;
candidates from the shipped BandScheme; verified with TextVerifier at the shipped threshold /
identity_threshold and each (distinct_threshold, distinct_floor, distinct_shared) of GRID
(distinct_floor 0.75: the rule off, the recipe before), grouped by star clustering (as `dedup
full` does). One line per point and set (pairwise P / R / F1, the largest group mixing truth
clusters, how many such groups have more than 5 rows), then the points ranked: precision kept on
every set (within 0.001 of the rule off) and no false group over 5 rows first, then the highest
lowest recall, then the mean F1 (ties: distinct_share 0.5, 0.7 and 0.9 give the same pairs on
every tuning set; the middle, 0.7, is shipped). Output: bench/results/logs/tuning22_distinct_sweep.log.
The rule ships off all the same (distinct_floor 0.75): bench/results/topic-recall-i22.md says why.

Round 1 (not kept: its log was overwritten by round 2) had the sets of DEFAULT_SETS only (places
at 3,000 rows), distinct_perms 32 and 64, distinct_weight 1.0, thresholds 0.2-0.35, floors
0.35-0.5, shared 3-6; it chose 0.3 / 0.5 / 4 at 32 values (64 values were no better), which on
the held-out topic_place at 20,000 rows lost precision (0.980 -> 0.954): round 2 adds the tuning
places at 20,000 rows and the stricter points (log: logs/tuning22_distinct_sweep_round2.log;
distinct_weight 0.5 gave false groups of 16 rows on the places at 20,000; chose 0.3 / 0.55 / 4).
Round 3 (this grid): a test showed the rule lowering the bar to distinct_floor in a small table
where nothing is common yet (every feature distinctive), so the rule needs each row's distinctive
features to be at most distinct_share of its cleaned length (texts mostly shared template).
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from bench.quality.tuning22_recall_sweep import DEFAULT_SETS, ranked, score_point
from bench.quality.tuning22_sweep import load
from dedup.index.bands import BandScheme, TextVerifier
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import TextSignature

SETS = DEFAULT_SETS + ",places:20000:2"  # round 2: the places at 20,000 rows too (precision must hold as tables grow)
WEIGHTING = (0.002, 10, 0.3)  # the shipped common_share, common_rows, common_floor
SIGNS = ((32, 1.0),)  # (distinct_perms, distinct_weight): which features are distinctive
GRID = [(0.0, 0.75, 0, 0.7)] + list(itertools.product((0.3, 0.4), (0.5, 0.55, 0.6), (4, 6), (0.5, 0.7, 0.9)))


def sweep_set(spec: str, results: dict) -> None:
    data, identity, content = load(spec)
    rows = sorted(data.rows, key=lambda r: r["id"])
    labs = {lab: i for i, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
    code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
    for perms, weight in SIGNS:
        sig = TextSignature(content, identity, distinct_perms=perms, distinct_weight=weight)
        head, hashes, counts = sig.parts(rows)
        model = ContentModel.learn(hashes, len(rows), *WEIGHTING)
        ids = ContentModel.learn(head[:, 1:].ravel(), len(rows), *WEIGHTING, IDENTITY_SALT)
        s = sig.finish(head, hashes, counts, model, ids)
        i, j = BandScheme(len(identity)).near(s)
        for t, floor, shared, most in GRID:
            verifier = TextVerifier(len(identity), distinct_threshold=t, distinct_floor=floor, distinct_shared=shared,
                                    distinct_share=most)
            p, rec, f1, big, over5 = score_point(s, i, j, verifier, code)
            results.setdefault((perms, weight, t, floor, shared, most), []).append((spec, p, rec, f1, big, over5))
            print(f"{spec:<18} distinct_perms {perms} weight {weight} threshold {t:.2f} floor {floor:.2f} shared {shared} "
                  f"share {most}: "
                  f"P {p:.4f} R {rec:.4f} F1 {f1:.4f} largest false {big} false>5 {over5}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    a = ap.parse_args()
    results: dict[tuple, list] = {}
    for spec in a.sets.split(","):
        sweep_set(spec, results)
    allowed, order = ranked(results, (*SIGNS[0], *GRID[0]))
    print("\nRanked: precision kept on every set (P >= the rule off's - 0.001) and no false group over 5 rows first, "
          "then the highest lowest recall, then the mean F1.")
    print("\n| distinct_perms | distinct_weight | distinct_threshold | distinct_floor | distinct_shared | distinct_share | allowed | min P | min R | mean R "
          "| mean F1 | largest false group | false groups > 5 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (perms, weight, t, floor, shared, most), rs in order:
        print(f"| {perms} | {weight} | {t} | {floor} | {shared} | {most} | {allowed(rs)} | {min(x[1] for x in rs):.4f} | {min(x[2] for x in rs):.4f} "
              f"| {np.mean([x[2] for x in rs]):.4f} | {np.mean([x[3] for x in rs]):.4f} | {max(x[4] for x in rs)} "
              f"| {sum(x[5] for x in rs)} |")

if __name__ == "__main__":
    main()

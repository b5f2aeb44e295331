"""The sweep behind rule ``numbers``'s defaults (issue 22: refiles and neighbours' rewordings of one
incident, whose whole texts share a topic template with other incidents and fall under
match.threshold, kept because they name the same numbers), on TUNING sets only
(bench/datasets/tuning22, with the hard negatives of places_hard, and bench/datasets/labelled petitions).

    python -m bench.quality.tuning22_numbers_sweep [--sets forms:5000:0,places_hard:3000:0,...]

Each set is signed once with the shipped weighting and 16 number tokens a row
(dedup.text.numbers); candidates from the shipped BandScheme; verified with TextVerifier at the
shipped bars and each (numbers_floor, numbers_least, numbers_share) of GRID (numbers_floor 0.75:
the rule off, the recipe before), grouped by star clustering (as `dedup full` does). One line per
point and set (pairwise P / R / F1, the largest group mixing truth clusters, how many such groups
have more than 5 rows), then the points ranked: precision kept on every set (within 0.001 of the
rule off) and no false group over 5 rows first, then the highest lowest recall, then the mean F1.
Round 1 (GRID1, log: bench/results/logs/tuning22_numbers_sweep.log): the rule alone chose
numbers_floor 0.5, numbers_least 4, numbers_share 0.8. Round 2 (GRID, ``--round 2``, log:
logs/tuning22_numbers_sweep_round2.log): the numbers also count against a long pair the bars keep,
under ``numbers_sure``, sharing less than ``numbers_against`` of its numbers (another incident
of one topic at one place: the template alike, its dates and numbers not), around round 1's point;
chose numbers_floor 0.45, numbers_against 0.5 (numbers_sure 0.85, 0.9 and 1.0 gave the same pairs
on every tuning set: the middle is shipped). Round 3 (log:
logs/tuning22_numbers_sweep_round3.log, run at commit 0122676, whose BandScheme had ``numbers_at``):
the chosen point with and without a candidate key of each long row's two smallest number hashes (it
took one MinHash band's place): no better, not kept (the key, and this script's ``--round 3``, are
in git history only).
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from bench.quality.tuning22_recall_sweep import DEFAULT_SETS, ranked, score_point
from bench.quality.tuning22_sweep import load
from dedup.index.bands import BandScheme, TextVerifier
from dedup.text.numbers import KEEP
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import TextSignature

SETS = DEFAULT_SETS + ",places_hard:3000:0,places_hard:20000:2"  # hard negatives: new incidents at one place
WEIGHTING = (0.002, 10, 0.3)  # the shipped common_share, common_rows, common_floor
OFF = (0.75, 3, 0.8, 0.0, 1.0)  # (numbers_floor, numbers_least, numbers_share, numbers_against, numbers_sure)
GRID1 = [OFF] + [(*p, 0.0, 1.0) for p in itertools.product((0.35, 0.4, 0.45, 0.5, 0.55), (3, 4, 5), (0.7, 0.8, 0.9, 1.0))]
GRID = [OFF, (0.5, 4, 0.8, 0.0, 1.0)] + list(itertools.product((0.45, 0.5, 0.55), (4, 5), (0.8,), (0.34, 0.5),
                                                               (0.85, 0.9, 1.0)))


def signed(spec: str) -> tuple:
    """(signatures, candidate pairs i and j, truth codes, numbers_at, identity columns) of one set:
    signed with the shipped weighting and its number tokens, candidates from the shipped BandScheme."""
    s, _raw, *rest = signed_raw(spec)
    return (s, *rest)


def signed_raw(spec: str) -> tuple:
    """``signed``, with each row's identity words as hashed (before the common ones are blanked)
    after the signatures (bench/quality/zhbar_s39_sweep.py marks them its own ways)."""
    data, identity, content = load(spec)
    rows = sorted(data.rows, key=lambda r: r["id"])
    labs = {lab: i for i, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
    code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
    sig = TextSignature(content, identity, numbers=KEEP)
    head, hashes, counts = sig.parts(rows)
    model = ContentModel.learn(hashes, len(rows), *WEIGHTING)
    ids = ContentModel.learn(head[:, 1:].ravel(), len(rows), *WEIGHTING, IDENTITY_SALT)
    s = sig.finish(head, hashes, counts, model, ids, sig.numbers_of(rows))
    i, j = BandScheme(len(identity)).near(s)
    return s, head[:, 1:].copy(), i, j, code, sig.numbers_at, len(identity)


def sweep_set(spec: str, results: dict, grid: list[tuple]) -> None:
    s, i, j, code, at, identity = signed(spec)
    score_grid(spec, s, i, j, code, at, identity, grid, results)


def score_grid(spec, s, i, j, code, at, identity, grid, results) -> None:
    for floor, least, share, against, sure in grid:
        verifier = TextVerifier(identity, numbers_floor=floor, numbers_least=least, numbers_share=share,
                                numbers_against=against, numbers_sure=sure, numbers_at=at)
        p, rec, f1, big, over5 = score_point(s, i, j, verifier, code)
        results.setdefault((floor, least, share, against, sure), []).append((spec, p, rec, f1, big, over5))
        print(f"{spec:<22} floor {floor:.2f} least {least} share {share:.1f} against {against} sure {sure}: "
              f"P {p:.4f} R {rec:.4f} F1 {f1:.4f} largest false {big} false>5 {over5}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--round", type=int, default=2, help="1: the rule alone (GRID1); 2: with the numbers against (GRID)")
    a = ap.parse_args()
    results: dict[tuple, list] = {}
    for spec in a.sets.split(","):
        sweep_set(spec, results, GRID1 if a.round == 1 else GRID)
    allowed, order = ranked(results, OFF)
    print("\nRanked: precision kept on every set (P >= the rule off's - 0.001) and no false group over 5 rows first, "
          "then the highest lowest recall, then the mean F1. Recall per set: " + ", ".join(x[0] for x in results[OFF]))
    head = ("numbers_floor", "numbers_least", "numbers_share", "numbers_against", "numbers_sure", "allowed", "min P", "min R",
            "mean F1", "largest false group", "false groups > 5", "R per set")
    print("\n| " + " | ".join(head) + " |\n" + "|---" * len(head) + "|")
    for point, rs in order:
        cells = [*map(str, point), str(allowed(rs)), f"{min(x[1] for x in rs):.4f}", f"{min(x[2] for x in rs):.4f}",
                 f"{np.mean([x[3] for x in rs]):.4f}", str(max(x[4] for x in rs)), str(sum(x[5] for x in rs)),
                 " ".join(f"{x[2]:.4f}" for x in rs)]
        print("| " + " | ".join(cells) + " |")

if __name__ == "__main__":
    main()

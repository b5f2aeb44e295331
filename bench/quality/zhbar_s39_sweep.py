"""The sweep behind rule ``content_rare_identity`` (issue 22, session 39, i22-zhbar), on TUNING sets only:
a lower identity bar only for a long pair whose equal identity value is rare in the table.

    python -m bench.quality.zhbar_s39_sweep [--sets forms_several:200000:2,...] [--save F.json] [--rank A.json,B.json]

Session 38 (bench/results/zhrecall-s38.md) measured the identity bar 0.35 for every equal identity
value: more recall, but precision falling as the table grows. The diagnosis on the tuning forms and
forms_several at 200,000 rows (log: bench/results/logs/s39/zhbar/diag_200k.log) found every false
pair the lower bar adds to share only a *name*, 19 of 20 a name in more than 40 rows (under the
common bar of 400 rows at that size, 0.002 of the rows), while most true pairs it adds share a
value seen in at most 5 rows (or the address or phone too). Points: ``off`` (the shipped 0.45 for all),
``all 0.35`` (session 38's), and (``identity_rare_rows`` N, ``identity_rare_threshold`` B): the bar B
only when the equal value was in at most N rows of the table, 0.45 otherwise. Each set is signed
once (tuning22_numbers_sweep.signed_raw: the shipped weighting); each N marks the identity words with
dedup.text.signature.mark_identity, as a full run does. Groups as ``dedup full`` makes them
(zhrecall_s38_sweep.labels). Ranked: false groups over 5 rows (all sets) first, then how much
precision falls as a family's table grows (the sum of each family's drops from one size to the
next larger), then the mean F1 (to 4 places), then the higher bar and the smaller N.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import replace

import numpy as np

from bench.quality.tuning22_brief_sweep import SETS_EDITS
from bench.quality.tuning22_numbers_sweep import WEIGHTING, signed_raw
from bench.quality.tuning22_sweep import score
from bench.quality.zhrecall_s38_sweep import false_over, labels, verifier
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import mark_identity

SETS = (SETS_EDITS + ",forms_several:5000:0,forms_several:20000:1,petitions:5000:0,tickets:2000:0,"
        "tickets:5000:1,tickets:20000:2,forms_several:200000:2,forms:200000:2")
GRID = [("off", 0, 0.45), ("all", 0, 0.35)] + [("rare", n, b) for n in (5, 10, 20) for b in (0.35, 0.30)]


def marked(s: np.ndarray, raw: np.ndarray, rare_rows: int) -> np.ndarray:
    """The signatures with their identity words as a full run with ``identity_rare_rows`` makes them."""
    model = ContentModel.learn(raw.ravel(), len(s), *WEIGHTING, IDENTITY_SALT, keep_rows=rare_rows)
    out, ids = s.copy(), raw.copy()
    mark_identity(ids, model)
    out[:, 1:1 + raw.shape[1]] = ids
    return out


def sweep_set(spec: str, results: dict, grid: list = GRID) -> None:
    s, raw, i, j, code, at, identity = signed_raw(spec)  # the GENERIC bit never changes a key's rows
    for kind, n, bar in grid:
        ver = verifier(identity, at, bar if kind == "all" else 0.45, 0.75)
        if kind == "rare":
            ver = replace(ver, identity_rare_threshold=bar)
        lab = labels(marked(s, raw, n) if kind == "rare" else s, i, j, ver)
        p, r, f1, big = score(lab, code)
        over5 = false_over(lab, code, 5)
        results[f"{kind} {n} {bar}"].append((spec, p, r, f1, big, over5))
        print(f"{spec:<24} {kind:<4} rare_rows {n:>2} bar {bar:.2f}: P {p:.4f} R {r:.4f} F1 {f1:.4f} "
              f"largest false {big} false>5 {over5}", flush=True)


def falls(rs: list) -> float:
    """The sum of each family's precision drops from one size to the next larger."""
    fam: dict[str, list] = defaultdict(list)
    for spec, p, *_ in rs:
        kind, n, _seed = spec.split(":")
        fam[kind].append((int(n), p))
    return sum(max(0.0, a[1] - b[1]) for xs in fam.values() for a, b in zip(sorted(xs), sorted(xs)[1:]))


def _tie(point: str) -> tuple:
    """This sweep's last ranking keys: the higher bar, then the smaller N."""
    _kind, n, bar = point.split()
    return -float(bar), int(n)


def rank(results: dict, tie=_tie, title: str = "point",
         why: str = "then the higher bar and the smaller N") -> None:
    """Print ``results`` (point -> per-set (spec, P, R, F1, largest false, false > 5)) ranked: false
    groups over 5 rows, precision falls as tables grow, mean F1, then ``tie(point)``."""
    def key(kv):
        rs = kv[1]
        return (sum(x[5] for x in rs), round(falls(rs), 4), -round(float(np.mean([x[3] for x in rs])), 4), *tie(kv[0]))
    print(f"\nRanked: false groups over 5 rows, then the precision falls as tables grow, then mean F1, {why}")
    print("Per set: " + ", ".join(x[0] for x in next(iter(results.values()))))
    print(f"\n| {title} | false groups > 5 | P falls (sum) | mean F1 | min P | min R | P per set | R per set |\n"
          "|---|--:|--:|--:|--:|--:|---|---|")
    for point, rs in sorted(results.items(), key=key):
        print(f"| {point} | {sum(x[5] for x in rs)} | {falls(rs):.4f} | {np.mean([x[3] for x in rs]):.4f} | "
              f"{min(x[1] for x in rs):.4f} | {min(x[2] for x in rs):.4f} | {' '.join(f'{x[1]:.4f}' for x in rs)} | "
              f"{' '.join(f'{x[2]:.4f}' for x in rs)} |")


def run(sweep_set, grid: list, parse_point, ranked, description: str) -> None:
    """The command line of a sweep of this shape: ``--sets``, ``--points`` (each parsed by
    ``parse_point``), ``--save`` and ``--rank`` (saved results of several runs ranked together)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--points", help="only these points of the grid (the 200k sets: time)")
    ap.add_argument("--save", help="write the results as JSON (to rank several runs together)")
    ap.add_argument("--rank", help="rank the saved results of these files (comma-separated) instead")
    a = ap.parse_args()
    results: dict[str, list] = defaultdict(list)
    if a.rank:
        for f in a.rank.split(","):
            for point, rs in json.load(open(f)).items():
                results[point] += [tuple(x) for x in rs]
        most = max(len(rs) for rs in results.values())
        results = defaultdict(list, {k: rs for k, rs in results.items() if len(rs) == most})  # points run on every set
    else:
        points = grid if not a.points else [parse_point(p) for p in a.points.split(",")]
        for spec in a.sets.split(","):
            sweep_set(spec, results, points)
        if a.save:
            json.dump(results, open(a.save, "w"))
    ranked(results)


def main() -> None:
    run(sweep_set, GRID, lambda p: (p.split(":")[0], int(p.split(":")[1]), float(p.split(":")[2])), rank,
        __doc__.splitlines()[0])


if __name__ == "__main__":
    main()

"""Whether star clustering should merge, when a row is placed, the groups of its partners whose
heads match it and each other (dedup.index.clusters ``merge``, issue 22), chosen on issue 22's
TUNING sets only (bench/datasets/tuning22 and the labelled petitions of tuning22_recall_sweep.py).

    python -m bench.quality.recall_s37_sweep [--sets forms:5000:0,...]

The shipped pipeline in process (bench/quality/recall_s35_sweep.py's ``prepared``): for each set,
pairwise P / R / F1, the largest false group and false groups over 5 rows, for the shipped
clustering before merging (``gather``), the same with ``merge`` and the share of the heads' pairs
that must verify (``clusters.MERGE_SHARE``) at 1/2, 1/3 and 1/4, and session 35's post-pass (``gather+heads``,
merging after placement: an upper bound, not something a run can do and stay incremental). The
rule (as tuning22_recall_sweep.ranked): a variant is allowed when no set's precision falls more than
0.001 below ``gather`` and no false group has more than 5 rows; of those, the highest lowest recall,
then the highest mean F1, ties to the stricter share. Chosen: 1/3 (bench/results/recall-s37.md).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench.quality.recall_s35_sweep import prepared, scored
from bench.quality.tuning22_recall_sweep import DEFAULT_SETS
from dedup.index import clusters

VARIANTS = {"gather": {"gather": True}, "merge 1/2": {"gather": True, "merge": True},
            "merge 1/3": {"gather": True, "merge": True}, "merge 1/4": {"gather": True, "merge": True},
            "gather+heads": {"gather": True}}
SHARES = {"merge 1/2": 0.5, "merge 1/3": 1 / 3, "merge 1/4": 0.25}  # clusters.MERGE_SHARE of each


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    a = ap.parse_args()
    table = []
    shipped_share = clusters.MERGE_SHARE
    for spec in a.sets.split(","):
        n, s, verified, ver, code, _ = prepared(spec)
        print(f"\n{spec}: {n} rows, {len(verified)} verified pairs", flush=True)
        for name, kw in VARIANTS.items():
            t = time.process_time()
            clusters.MERGE_SHARE = SHARES.get(name, shipped_share)  # gather+heads: no merge at placement
            cl, (p, r, f1, big, over5) = scored(n, s, verified, ver, code, kw, name.endswith("+heads"))
            table.append((spec, name, p, r, f1, big, over5))
            print(f"  {name:<14} P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
                  f"groups {len(cl)} CPU {time.process_time() - t:.2f} s", flush=True)
    print("\n| set | clustering | P | R | F1 | largest false group | false groups > 5 |\n|---|---|--:|--:|--:|--:|--:|")
    for spec, name, p, r, f1, big, over5 in table:
        print(f"| {spec} | {name} | {p:.4f} | {r:.4f} | {f1:.4f} | {big} | {over5} |")
    base = {x[0]: x for x in table if x[1] == "gather"}
    for name in VARIANTS:
        rs = [x for x in table if x[1] == name]
        kept = all(x[2] >= base[x[0]][2] - 0.001 and x[6] == 0 for x in rs)
        print(f"{name}: mean F1 {np.mean([x[4] for x in rs]):.4f}, lowest R {min(x[3] for x in rs):.4f}, "
              f"false groups > 5 {sum(x[6] for x in rs)}, precision kept (within 0.001 of gather) {kept}")


if __name__ == "__main__":
    main()

"""Held-out quality of the record recipe (settings frozen) and of MinHash LSH on the same rows.

    python -m bench.datasets.heldout.persons_wide --rows 20000 --seed 100 --out /tmp/ho/s20k_100
    python -m bench.quality.records.score /tmp/ho/s20k_100 [more folders] [--minhash 0.3,0.4,0.5,0.6,0.7]

Pairwise precision / recall / F1 of connected components against truth.csv. MinHash LSH is
bench/quality/minhash_baseline (datasketch, 128 permutations, character 3-grams of all 12 columns tagged
by column, each LSH pair kept if its estimated Jaccard >= the threshold). Never used for tuning
(bench/datasets/heldout/README.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.quality.minhash_baseline import char_ngrams, minhash_groups
from bench.datasets.records.training import heldout
from bench.quality.records.pipeline import peak_rss_mb, quality, run
from dedup.eval.metrics import pair_quality


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--minhash", default="", help="comma-separated Jaccard thresholds (none by default)")
    a = ap.parse_args(argv)
    print("| set | method | P | R | F1 | predicted | true | largest group | notes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for folder in a.folders:
        rows, truth, fields = heldout(folder)
        name = Path(folder).name
        t0 = time.perf_counter()
        labels, info = run(rows, fields)
        secs = time.perf_counter() - t0
        q = quality(labels, rows, truth)
        print(f"| {name} | records recipe (defaults) | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
              f"{q.predicted_pairs} | {q.true_pairs} | {q.largest_group} | {secs:.1f} s, cand/row "
              f"{info['cand_per_row']:.2f}, keys/row {info['keys_per_row']:.1f}, largest bucket "
              f"{info['largest_bucket']}, key fields {info['key_fields']}, pair keys {info['pair_keys']} |", flush=True)
        for t in [float(x) for x in a.minhash.split(",") if x]:
            t0 = time.perf_counter()
            res = minhash_groups(rows, "id", lambda row: char_ngrams(row, list(fields), 3), t, num_perm=128)
            q = pair_quality([[str(k) for k in g] for g in res.groups], truth)
            print(f"| {name} | MinHash LSH char3 t={t} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
                  f"{q.predicted_pairs} | {q.true_pairs} | {q.largest_group} | {time.perf_counter() - t0:.1f} s |",
                  flush=True)
    print(f"peak RSS {peak_rss_mb():.0f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

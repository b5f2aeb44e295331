"""Scale check: signature + learn + keys + candidate pairs + verify + components, timed, with peak RSS.

    python -m bench.perf.records_scale --rows 100000 [--seed 3]
    python -m bench.perf.records_scale --rows 50000
    python -m bench.perf.records_scale --table copies --rows 100000   (and 200000: n and 2n)

Rows: the widened training persons table (common.training: 11 fields, among them gender with 2
values and status with 10; 15 % household members). Generating the rows is not timed; peak RSS
(ru_maxrss) is the whole process's, generation included. Run each size in its own process (peak RSS is per process).
"""

from __future__ import annotations

import argparse
import time

from bench.datasets.records.training import training
from bench.quality.records.pipeline import peak_rss_mb, quality, run
from bench.datasets.records.copies import FIELDS as COPY_FIELDS, generate


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--table", choices=("training", "copies"), default="training",
                    help="copies: bench/datasets/records/copies.py (every person entered 1-5 more times; the floor keys)")
    a = ap.parse_args(argv)
    if a.table == "copies":
        rows, truth = generate(a.rows, a.seed)
        fields = COPY_FIELDS
    else:
        rows, truth, fields = training(a.rows, a.seed)
    rss0 = peak_rss_mb()
    t0 = time.perf_counter()
    labels, info = run(rows, fields)
    secs = time.perf_counter() - t0
    q = quality(labels, rows, truth)
    stages = ", ".join(f"{k} {v:.2f}" for k, v in info["seconds"].items())
    print(f"| {a.rows} | {secs:.1f} s ({stages}) | {peak_rss_mb():.0f} MB (after generating: {rss0:.0f} MB) | "
          f"{info['cand_per_row']:.2f} | {info['largest_bucket']} | {info['keys_per_row']:.1f} of {info['m']} | "
          f"{a.rows / info['seconds']['signature']:.0f} rows/s | P {q.precision:.4f} R {q.recall:.4f} F1 {q.f1:.4f} | "
          f"key fields {info['key_fields']}, pair keys {info['pair_keys']} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""CPU µs a row of each featurising step, this checkout beside a baseline checkout, on the
news-length petitions table (issue 26).

    python -m bench.perf.featurise_steps --baseline-code /path/to/a/checkout/of/main
                                         [--rows 20000] [--seed 100] [--repeat 3] [--out bench/out/vs_rensa]
                                         [--kernels]

The table is bench/perf/vs_rensa.py's (bench/datasets/heldout/petitions_news.py at ``--rows``,
``--seed``, with its ``dedup.yaml``: the shipped defaults). Each checkout runs
bench/perf/featurise_steps_child.py in a process of its own, one core, the two alternating
``--repeat`` times; each step's figure is the lowest of its repeats (CPU seconds, ``process_time``:
other work on a shared machine disturbs it less than wall time, not not at all). Steps indented
are parts of the step above them, timed alone. ``--kernels``: both load the compiled kernels
(dedup.index.kernels) first, untimed, as a large table's text workers do.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.perf import featurise_steps_child
from bench.perf.vs_rensa import make_table
from bench.support import OUT, child_env


def measure(folder: Path, rows: int, code: Path | None, kernels: bool = False) -> dict[str, float]:
    done = subprocess.run([sys.executable, featurise_steps_child.__file__, str(folder / "dedup.yaml"),
                           str(folder / "petitions.db"), str(rows)] + (["kernels"] if kernels else []),
                          check=True, capture_output=True, text=True, env=child_env(code))
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-code", type=Path, required=True, help="a checkout of main")
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=OUT / "vs_rensa")
    ap.add_argument("--kernels", action="store_true", help="load the compiled kernels first, untimed")
    args = ap.parse_args(argv)
    folder = make_table(args.rows, args.seed, args.out)
    best: dict[str, dict[str, float]] = {"base": {}, "this": {}}
    loads = [os.getloadavg()[0]]
    for _ in range(args.repeat):
        for side, code in (("base", args.baseline_code), ("this", None)):
            for step, us in measure(folder, args.rows, code, args.kernels).items():
                best[side][step] = min(us, best[side].get(step, us))
            loads.append(os.getloadavg()[0])
    say = sys.stdout.write
    say(f"{args.rows:,} rows of {folder}; lowest of {args.repeat} alternating runs; 1-minute load "
        f"{min(loads):.2f} to {max(loads):.2f}\n\n| step | baseline µs/row | this µs/row | this / baseline |\n"
        "| --- | ---: | ---: | ---: |\n")
    for step, us in best["this"].items():
        base = best["base"].get(step)
        ratio = f"{us / base:.2f}" if base else "-"
        say(f"| {step} | {base if base is not None else '-'} | {us} | {ratio} |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

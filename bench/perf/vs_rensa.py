"""`dedup full` beside the rensa MinHash-LSH pipeline on one news-length petitions table (issue 26).

    python -m bench.perf.vs_rensa [--rows 200000] [--seed 100] [--out bench/out/vs_rensa]
                                  [--baseline-code /path/to/a/checkout/of/main] [--repeat 1]

Makes the held-out petitions table of news-length text (bench/datasets/heldout/petitions_news.py:
``petitions.db``, ``truth.csv`` and the ``dedup.yaml`` it writes, the shipped defaults with
``text.workers`` auto), then runs, each in a process of its own:

- **dedup**: ``run_full`` on that ``dedup.yaml`` (reading the SQLite table, writing a fresh SQLite
  store); wall seconds and the user+sys CPU seconds of the child and its workers
  (``RUSAGE_CHILDREN``). With ``--baseline-code`` the same run with that checkout's dedup, right after.
- **rensa**: the rows read first (not timed), then bench/quality/peers.py ``minhash_rensa``: rensa's
  ``RMinHash`` (128 permutations) of each row's character 3-grams of title and content (Python
  shingling), ``RMinHashLSH`` at each threshold 0.5-0.9, every candidate kept when its estimated
  Jaccard reaches the threshold, connected components. Its seconds are the shingling and sketching
  plus the LSH, verification and components of the threshold with the best F1 on the truth (the
  threshold is chosen on the answer: a bound dedup does not get); it writes nothing.

Each line gives wall, CPU, precision, recall and F1 against ``truth.csv``, with the 1-minute load
before and after. The table is made once per (rows, seed) under ``--out`` and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from bench.support import OUT, ROOT, child_env

# The dedup child imports dedup only, so that a baseline checkout's dedup (first on PYTHONPATH) runs it.
DEDUP_CHILD = """
import json, sys, time
from dedup.config import load_config
from dedup.runs.full import run_full
t0 = time.perf_counter(); c0 = time.process_time()
result = run_full(load_config(sys.argv[1]))
print(json.dumps({"groups": [list(g.keys) for g in result.groups], "rows": result.rows_read,
                  "inner_wall": time.perf_counter() - t0, "stages": getattr(result, "stages", {}),
                  "stages_cpu": getattr(result, "stages_cpu", {})}))
"""


def make_table(rows: int, seed: int, out: Path) -> Path:
    """The petitions_news table in ``out/news-ROWS-SEED`` (made once)."""
    from bench.datasets.heldout.petitions_news import generate_petitions, write_all

    folder = out / f"news-{rows}-s{seed}"
    if not (folder / "truth.csv").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        write_all(generate_petitions(rows, seed), str(folder))
    return folder


def measured(argv: list[str], env: dict) -> dict:
    """Run a child (``argv``), its last stdout line JSON; with wall, CPU of it and its workers, load."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run(argv, check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "wall": wall,
            "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "load": [round(load, 2), round(os.getloadavg()[0], 2)]}


def run_dedup(folder: Path, code: Path | None = None) -> dict:
    store = folder / "petitions-store.db"
    for leftover in folder.glob("petitions-store.db*"):
        leftover.unlink()
    out = measured([sys.executable, "-c", DEDUP_CHILD, str(folder / "dedup.yaml")], child_env(code))
    store.unlink(missing_ok=True)
    return out


def rensa_child(folder: Path) -> None:
    """In its own process: read the rows (not timed), sweep the thresholds; one JSON line."""
    from bench.quality import peers
    from bench.quality.minhash_baseline import pair_quality, read_rows, read_truth

    rows = read_rows(str(folder / "petitions.db"), "petitions", "id", ["title", "content"])
    truth = read_truth(str(folder / "truth.csv"))
    c0 = time.process_time()
    sweep = peers.minhash_rensa(rows, ["title", "content"], [t for t in peers.MINHASH_THRESHOLDS if t >= 0.5])
    cpu_all = time.process_time() - c0
    scored = [{"threshold": s.threshold, "seconds": s.seconds, "shared": s.shared, "cpu": s.cpu, **pair_quality(s.groups, truth)}
              for s in sweep]
    best = max(scored, key=lambda s: s["f1"])
    sys.stdout.write(json.dumps({"best": best, "sweep": scored, "cpu_whole_sweep": cpu_all, "rows": len(rows)}) + "\n")


def line(name: str, r: dict, quality: dict, wall: float, cpu: float | None) -> str:
    cpu_text = f"{cpu:8.1f}" if cpu is not None else "       -"
    return (f"| {name:<44} | {r['rows']:>7,} | {wall:7.1f} | {cpu_text} | {quality['precision']:.3f} | "
            f"{quality['recall']:.3f} | {quality['f1']:.3f} | {r['load'][0]:.2f} → {r['load'][1]:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--out", type=Path, default=OUT / "vs_rensa")
    ap.add_argument("--baseline-code", type=Path, help="a checkout of main: its dedup full runs too")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, alternating (the table shows each)")
    ap.add_argument("--rensa-child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rensa_child:
        rensa_child(args.rensa_child)
        return 0
    from bench.quality.minhash_baseline import pair_quality, read_truth

    t0 = time.perf_counter()
    folder = make_table(args.rows, args.seed, args.out)
    truth = read_truth(str(folder / "truth.csv"))
    say = sys.stdout.write
    say(f"table {folder} ({time.perf_counter() - t0:.1f} s); {os.cpu_count()} CPUs; uptime: "
        f"{subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n\n")
    say("| method | rows | wall s | CPU s | precision | recall | F1 | load (1 min) before → after |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
    for _ in range(args.repeat):
        runs = [("dedup full (this checkout)", None)] + ([("dedup full (baseline code)", args.baseline_code)]
                                                          if args.baseline_code else [])
        for name, code in runs:
            r = run_dedup(folder, code)
            say(line(name, r, pair_quality(r["groups"], truth), r["wall"], r["cpu"]) + "\n")
            say("  stages (s): " + ", ".join(f"{k} {v:.1f}" for k, v in r["stages"].items()) + "\n")
            if r.get("stages_cpu"):  # the run's own process only: its workers' and writer's CPU are not in it
                say("  stages, CPU s of the run's process: " + ", ".join(f"{k} {v:.1f}" for k, v in r["stages_cpu"].items()) + "\n")
        r = measured([sys.executable, "-m", "bench.perf.vs_rensa", "--rensa-child", str(folder)], child_env())
        b = r["best"]
        say(line(f"rensa MinHash LSH, best threshold {b['threshold']}", r, b, b["seconds"], b["cpu"]) + "\n")
        say(f"  rensa: shingling + sketching {b['shared']:.1f} s of it; the whole sweep of "
            f"{len(r['sweep'])} thresholds {r['wall']:.1f} s wall (reading included), {r['cpu']:.1f} s CPU\n")
    say(f"\nuptime after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

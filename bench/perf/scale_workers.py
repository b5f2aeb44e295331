"""Issue 26's many-core check: `dedup full` on the demo generator's petitions (SQLite source and
store) at each size and worker count asked, each run in a process of its own; prints a table of
wall seconds, rows/s, the stage seconds and peak memory, and writes the JSON beside it.

    python -m bench.perf.scale_workers --sizes 200000,1000000 --workers 2,15 --out scale.json

A size's table is generated once (``generate_petitions(n, seed=5)``) and read by every worker
count; the store is new for every run. ``--skip`` leaves out size:workers pairs (e.g.
``1000000:2``, a slow pair on a machine of few cores).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dedup.demo.generator import generate_petitions, write_sample_db

CHILD = r"""
import json, resource, sys, yaml
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.runs.full import run_full
src, store, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
raw = yaml.safe_load(DEMO_CONFIG)
raw["source"]["url"], raw["store"]["url"] = src, store
raw.setdefault("text", {})["workers"] = workers
r = run_full(parse_config(raw, origin="bench"))
print(json.dumps({"rows": r.rows_read, "groups": len(r.groups), "stages": r.stages,
                  "self_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "children_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def one_run(src: str, store: str, workers: int) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, src, store, str(workers)], check=True,
                         stdout=subprocess.PIPE, text=True,  # its log and any traceback pass through
                         cwd=tempfile.gettempdir())  # the installed dedup, not a checkout's (-c puts cwd first)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return {**result, "workers": workers, "seconds": round(time.perf_counter() - start, 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="200000,1000000")
    p.add_argument("--workers", default="2,15")
    p.add_argument("--skip", default="", help="size:workers pairs left out, comma-separated")
    p.add_argument("--out", default="scale_workers.json")
    a = p.parse_args(argv)
    skip = {tuple(int(x) for x in s.split(":")) for s in a.skip.split(",") if s}
    runs = []
    with tempfile.TemporaryDirectory(prefix="dedup-scale-") as d:
        for n in (int(s) for s in a.sizes.split(",")):
            t = time.perf_counter()
            src = f"sqlite:///{Path(d) / f'src{n}.db'}"
            write_sample_db(src, generate_petitions(n, seed=5))
            print(f"{n:,} rows generated and written in {time.perf_counter() - t:.1f} s", flush=True)
            for w in (int(s) for s in a.workers.split(",")):
                if (n, w) in skip:
                    continue
                run = one_run(src, f"sqlite:///{Path(d) / f'store{n}-{w}.db'}", w)
                runs.append(run)
                peak = max(run["self_rss_mb"], run["children_rss_mb"])
                stages = " ".join(f"{k} {v:.1f}" for k, v in run["stages"].items())
                print(f"{n:>9,} rows {w:>2} workers: {run['seconds']:7.1f} s {n / run['seconds']:8,.0f} rows/s "
                      f"groups {run['groups']:,} peak {peak:,.0f} MB ({peak * 1024 / n:.2f} KB/row) | {stages}", flush=True)
            os.remove(Path(d) / f"src{n}.db")
    Path(a.out).write_text(json.dumps({"cpus": os.cpu_count(), "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

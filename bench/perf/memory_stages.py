"""Issue 26: where a full run's memory goes, stage by stage. `dedup full` on the demo generator's
petitions (SQLite source and store, the demo config) in a process of its own, which samples its own
RSS and its children's (the workers, the store writer) every 0.02 s and charges each sample to the
stage running (dedup.runs.clock.StageClock); prints the largest RSS of the run's process per stage,
its children's largest, the run's process's own peak (VmHWM), the largest child's (getrusage), the
largest children sampled with the stage each was first seen in, and the CPU seconds of the run's
processes. (getrusage's peak of the run's process is not its own: Linux keeps the launching
process's RSS at the fork across the exec, here this script's, holding the generated rows; it was
the "run's process" figure up to memory-s38.md.)

    python -m bench.perf.memory_stages --rows 200000 --workers 1 --baseline-code /path/to/main
    python -m bench.perf.memory_stages --rows 200000 --baseline-code /path/to/main --baseline-only
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.support import child_env
from dedup.demo.generator import generate_petitions, write_sample_db

CHILD = r"""
import json, os, resource, sys, threading, yaml
from contextlib import contextmanager
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.runs import clock as clock_module
from dedup.runs.full import run_full

PAGE = os.sysconf("SC_PAGE_SIZE")
now, peaks, kids, each = ["start"], {}, {}, {}  # each: child pid -> [stage first seen in, largest RSS]

def rss(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except OSError:
        return 0

def children():
    out = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out

def watch(stop):
    while not stop.wait(0.02):
        stage = now[-1]
        peaks[stage] = max(peaks.get(stage, 0), rss("self"))
        sizes = {c: rss(c) for c in children()}
        kids[stage] = max(kids.get(stage, 0), sum(sizes.values()))
        for c, size in sizes.items():
            seen = each.setdefault(c, [stage, 0])
            seen[1] = max(seen[1], size)

def hwm():  # the run's own high-water RSS since exec (getrusage's also holds the launching process's RSS at the fork)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024

stage = clock_module.StageClock.stage
@contextmanager
def marked(self, name):
    now[0] = "outside stages"  # before the first: "start"
    now.append(name)
    try:
        with stage(self, name):
            yield
    finally:
        now.pop()
clock_module.StageClock.stage = marked

stop = threading.Event()
threading.Thread(target=watch, args=(stop,), daemon=True).start()
src, store, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
raw = yaml.safe_load(DEMO_CONFIG)
raw["source"]["url"], raw["store"]["url"] = src, store
raw.setdefault("text", {})["workers"] = workers
r = run_full(parse_config(raw, origin="bench"))
stop.set()
mb = 1 << 20
print(json.dumps({"rows": r.rows_read, "groups": len(r.groups), "stages": r.stages, "stages_cpu": r.stages_cpu,
                  "parent_mb": {k: v / mb for k, v in peaks.items()}, "children_mb": {k: v / mb for k, v in kids.items()},
                  "self_peak_mb": hwm(), "self_rusage_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "each_child_mb": sorted(([s, v / mb] for s, v in each.values()), key=lambda c: -c[1])[:4],
                  "children_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "cpu_s": sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage,
                                                                      (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))}))
"""


def one_run(src: str, store: str, workers: int, code: Path | None) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, src, store, str(workers)], stdout=subprocess.PIPE, text=True,
                         cwd=tempfile.gettempdir(), env=child_env(code), check=True).stdout
    return {**json.loads(out.strip().splitlines()[-1]), "seconds": time.perf_counter() - start,
            "code": str(code) if code else "this checkout", "workers": workers}


def show(run: dict) -> str:
    n = run["rows"]
    peak = max(run["self_peak_mb"], run["children_peak_mb"])
    stages = ", ".join(f"{k} {v:,.0f}" + (f" (children {run['children_mb'][k]:,.0f})" if run["children_mb"].get(k) else "")
                       for k, v in run["parent_mb"].items())
    return (f"{n:,} rows, {run['workers']} workers, {run['code']}: {run['seconds']:.0f} s "
            f"({run.get('cpu_s', 0):.0f} CPU s, the run's processes together), groups {run['groups']:,}, "
            f"peak {peak:,.0f} MB ({peak * 1024 / n:.2f} KB/row; run's process {run['self_peak_mb']:,.0f}, "
            f"largest child {run['children_peak_mb']:,.0f})\n    RSS MB by stage: {stages}"
            f"\n    largest children sampled (stage first seen in, MB): {run.get('each_child_mb')}"
            f"; getrusage's peak of the run's process {run.get('self_rusage_mb', 0):,.0f} (with the launcher's RSS at the fork)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=200_000)
    p.add_argument("--workers", default="1")
    p.add_argument("--baseline-code", type=Path, help="also run with dedup from this checkout, right after")
    p.add_argument("--baseline-only", action="store_true", help="run the baseline alone (this checkout measured before)")
    p.add_argument("--out", default="memory_stages.json")
    a = p.parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory(prefix="dedup-mem-") as d:
        src = f"sqlite:///{Path(d) / 'src.db'}"
        write_sample_db(src, generate_petitions(a.rows, seed=5))
        for w in (int(s) for s in a.workers.split(",")):
            for code in ([] if a.baseline_only else [None]) + ([a.baseline_code] if a.baseline_code else []):
                run = one_run(src, f"sqlite:///{Path(d) / f'store-{w}-{len(runs)}.db'}", w, code)
                runs.append(run)
                print(show(run), flush=True)
    Path(a.out).write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

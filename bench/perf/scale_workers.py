"""Issue 26's many-core check: `dedup full` on the demo generator's petitions (SQLite source and
store) at each size and worker count asked, each run in a process of its own; prints a table of
wall seconds, rows/s, the stage seconds and peak memory, and writes the JSON beside it.

    python -m bench.perf.scale_workers --sizes 200000,1000000 --workers 2,15 --out scale.json
    python -m bench.perf.scale_workers --sizes 20000 --workers 1,2 --baseline-code /path/to/main

A size's table is generated once (``generate_petitions(n, seed=5)``) and read by every worker
count; the store is new for every run. ``--skip`` leaves out size:workers pairs (e.g.
``1000000:2``, a slow pair on a machine of few cores). ``--baseline-code``: each run is made
again, right after, with dedup from that checkout (e.g. a worktree of main), so both share the
machine's load.

Memory: ``peak`` is the largest process's peak RSS (getrusage: the run's own process, or its
largest child); ``tree`` is the largest sum of RSS (and of PSS, shared pages counted once) over the
run's process and its children, sampled every 0.1 s from /proc (Linux; blank elsewhere).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.support import child_env
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


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc/<pid>/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def _rollup(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in KB of one process, (0, 0) once it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            fields = dict(line.split()[:2] for line in f if line.split()[0] in ("Rss:", "Pss:"))
        return int(fields["Rss:"]), int(fields["Pss:"])
    except (OSError, KeyError, ValueError):
        return 0, 0


class TreePeak:
    """The largest sum of RSS and of PSS over a process tree, sampled on a thread until stopped."""

    def __init__(self, pid: int, every: float = 0.1):
        self.pid, self.every, self.rss_kb, self.pss_kb = pid, every, 0, 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stop.wait(self.every):
            sums = [sum(x) for x in zip(*(_rollup(p) for p in _tree(self.pid)))] or [0, 0]
            self.rss_kb, self.pss_kb = max(self.rss_kb, sums[0]), max(self.pss_kb, sums[1])

    def done(self) -> tuple[float, float]:
        self.stop.set()
        self.thread.join()
        return self.rss_kb / 1024, self.pss_kb / 1024


def one_run(src: str, store: str, workers: int, code: Path | None = None) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, src, store, str(workers)],
                            stdout=subprocess.PIPE, text=True,  # its log and any traceback pass through
                            cwd=tempfile.gettempdir(),  # -c puts cwd first: dedup comes from PYTHONPATH
                            env=child_env(code))
    peak = TreePeak(proc.pid) if os.path.exists("/proc/self/smaps_rollup") else None
    out, _ = proc.communicate()
    tree_rss, tree_pss = peak.done() if peak is not None else (None, None)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, "scale_workers child")
    result = json.loads(out.strip().splitlines()[-1])
    return {**result, "workers": workers, "seconds": round(time.perf_counter() - start, 2),
            "tree_rss_mb": tree_rss, "tree_pss_mb": tree_pss, "code": str(code) if code else "this checkout"}


def line(n: int, run: dict) -> str:
    """One row of the printed table."""
    peak = max(run["self_rss_mb"], run["children_rss_mb"])
    tree = f" tree RSS {run['tree_rss_mb']:,.0f} PSS {run['tree_pss_mb']:,.0f} MB" if run["tree_rss_mb"] else ""
    stages = " ".join(f"{k} {v:.1f}" for k, v in run["stages"].items())
    who = "base" if run["code"] != "this checkout" else "this"
    return (f"{n:>9,} rows {run['workers']:>2} workers {who}: {run['seconds']:7.1f} s {n / run['seconds']:8,.0f} rows/s "
            f"groups {run['groups']:,} peak {peak:,.0f} MB ({peak * 1024 / n:.2f} KB/row){tree} | {stages}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="200000,1000000")
    p.add_argument("--workers", default="2,15")
    p.add_argument("--skip", default="", help="size:workers pairs left out, comma-separated")
    p.add_argument("--baseline-code", type=Path, help="also run each with dedup from this checkout (e.g. main)")
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
                for code in [None] + ([a.baseline_code] if a.baseline_code else []):
                    tag = "base" if code else "this"
                    run = one_run(src, f"sqlite:///{Path(d) / f'store{n}-{w}-{tag}.db'}", w, code)
                    runs.append({**run, "size": n})
                    print(line(n, run), flush=True)
            os.remove(Path(d) / f"src{n}.db")
    Path(a.out).write_text(json.dumps({"cpus": os.cpu_count(), "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

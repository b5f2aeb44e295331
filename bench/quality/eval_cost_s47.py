"""What `dedup eval` costs and reports on a tuning set, beside `dedup full` (issue 22/26, session 47).

Bands of 2 values made eval sweep several times the candidates of bands of 4 (bench/results/topic5-s47.md);
this measures it in three steps, each its own process, so a checkout's eval is timed alone:
    python -m bench.quality.eval_cost_s47 prepare tickets:20000:0 /tmp/x      # tuning rows to SQLite + truth
    python -m bench.quality.eval_cost_s47 eval /tmp/x /tmp/x/eval.json         # run_eval: wall, CPU, peak RSS, pairs
    python -m bench.quality.eval_cost_s47 full /tmp/x /tmp/x/full.json         # run_full's groups scored
Run ``eval`` and ``full`` with the current directory (or PYTHONPATH) at the checkout measured.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path


def prepare(spec: str, folder: Path) -> None:
    """The tuning set ``spec`` (recall22_where.load) as SQLite table t, its config and truth."""
    import sqlite3

    from bench.quality.quality22 import starter_config
    from bench.quality.recall22_where import load
    data, identity, content = load(spec)
    folder.mkdir(parents=True, exist_ok=True)
    cols = ("id", *identity, *content)
    con = sqlite3.connect(folder / "t.db")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, " + ", ".join(f'"{c}" TEXT' for c in cols[1:]) + ")")
    con.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(cols))})",
                    ([r["id"], *(None if r.get(c) is None else str(r[c]) for c in cols[1:])] for r in data.rows))
    con.commit()
    con.close()
    starter_config(folder / "t.db", "t", folder / "dedup.yaml")
    (folder / "truth.json").write_text(json.dumps({str(k): str(v) for k, v in data.truth.items()}))


def evaluate(folder: Path, out: Path) -> None:
    """run_eval at the checkout's defaults; the candidate pairs it sweeps counted where it makes them."""
    import dedup.eval.sweep as S
    from dedup.config import load_config
    counted: list[int] = []
    made = S._candidates

    def counting(*a, **kw):
        got = made(*a, **kw)
        counted.append(len(got[0]))
        return got
    S._candidates = counting
    truth = json.loads((folder / "truth.json").read_text())
    cpu, wall = time.process_time(), time.perf_counter()
    got = S.run_eval(load_config(folder / "dedup.yaml"), "t", truth=truth)
    facts = {"eval_wall_s": round(time.perf_counter() - wall, 2), "eval_cpu_s": round(time.process_time() - cpu, 2),
             "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "candidates": counted,
             "current": got["current"], "sweeps": got["sweeps"], "histograms": got["histograms"]}
    out.write_text(json.dumps(facts, indent=1))
    sys.stdout.write(json.dumps({k: facts[k] for k in ("eval_wall_s", "eval_cpu_s", "peak_rss_mb", "candidates")}
                                | {k: facts["current"][k] for k in ("precision", "recall", "f1")}) + "\n")


def full(folder: Path, out: Path) -> None:
    """run_full's groups scored against the truth (what eval's ``current`` must equal)."""
    from dedup.config import load_config
    from dedup.eval.metrics import pair_quality
    from dedup.runs.full import run_full
    truth = json.loads((folder / "truth.json").read_text())
    config = load_config(folder / "dedup.yaml")
    groups = run_full(config, "t").groups
    q = pair_quality([g.keys for g in groups], truth, list(truth)).as_dict()
    out.write_text(json.dumps(q, indent=1))
    sys.stdout.write(json.dumps({k: q[k] for k in ("precision", "recall", "f1")}) + "\n")


def main(argv: list[str]) -> None:
    mode, arg, *rest = argv
    if mode == "prepare":
        prepare(arg, Path(rest[0]))
    elif mode == "eval":
        evaluate(Path(arg), Path(rest[0]))
    else:
        full(Path(arg), Path(rest[0]))


if __name__ == "__main__":
    main(sys.argv[1:])

"""`dedup eval` beside `dedup full` on one table of many identical rows: eval must cost about what full does.

The table: ``--identical`` copies of one petition plus ``--others`` generated petitions (the demo
generator), all labelled. Both commands run in this process on the same SQLite table, one after
the other, with the shipped defaults (one worker process, so neither is helped by a pool the
other did not start); the script prints both times and their ratio.

    python -m bench.perf.bench_eval [--identical 600] [--others 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bench.support import machine_facts, sqlite_url, timed
from dedup.config import parse_config
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.eval.sweep import run_eval
from dedup.runs.full import run_full

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


def table(identical: int, others: int, seed: int) -> tuple[SampleTable, dict[str, str]]:
    """``identical`` copies of the first generated petition (keys 1..), then ``others`` more."""
    sample = generate_petitions(others + 1, seed=seed)
    first, rest = sample.rows[0], sample.rows[1:]
    rows = [dict(first, id=i) for i in range(1, identical + 1)]
    rows += [dict(r, id=identical + n) for n, r in enumerate(rest, 1)]
    truth = {str(r["id"]): ("same" if r["id"] <= identical else f"own{r['id']}") for r in rows}
    return SampleTable(rows, {}), truth


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--identical", type=int, default=600)
    ap.add_argument("--others", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    sample, truth = table(args.identical, args.others, args.seed)
    m = machine_facts()
    print(f"python {m['python']}, {m['cpu_count']} CPUs, load {m['load_average_1min']:.1f}")
    with tempfile.TemporaryDirectory(prefix="dedup-bench-eval-") as d:
        src = sqlite_url(Path(d), "src.db")
        write_sample_db(src, sample)
        config = parse_config({"source": {"url": src}, "store": {"url": sqlite_url(Path(d), "store.db")},
                               "text": {"workers": 1}, "tables": {"petitions": {"key": "id", "fields": FIELDS}}})
        full, full_secs = timed(run_full, config, "petitions")
        evaluated, eval_secs = timed(run_eval, config, "petitions", truth=truth)
    print(f"{args.identical} identical rows + {args.others} others ({len(sample.rows)} rows)")
    print(f"  dedup full: {full_secs:7.2f} s  {len(full.groups)} groups")
    print(f"  dedup eval: {eval_secs:7.2f} s  {evaluated['current']['groups']} groups, "
          f"precision {evaluated['current']['precision']:.3f}, recall {evaluated['current']['recall']:.3f}")
    print(f"  eval / full: {eval_secs / full_secs:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

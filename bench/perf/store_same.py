"""Whether this checkout's `dedup full` stores what a baseline checkout's stores: every table's rows.

    python -m bench.perf.store_same --baseline-code /path/to/a/checkout/of/main [--rows 20000] [--seed 100] [--demo]

Runs ``run_full`` on the news-length petitions table of bench/perf/vs_rensa.py with each checkout
(each in a process of its own, a fresh SQLite store each), then compares every table of the two
stores row by row, sorted, leaving out the columns that hold clock times (started_at, finished_at,
updated_at, lock_expires) and the runs' summaries (they hold seconds). One line a table.
``--demo``: the demo generator's petitions and config instead (bench/perf/store_write.py's).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from bench.support import OUT, ROOT, child_env

RUN = "import os, sys; os.chdir(sys.argv[1]); from dedup.config import load_config; " \
      "from dedup.runs.full import run_full; run_full(load_config('dedup.yaml'))"
TIMES = {"started_at", "finished_at", "updated_at", "lock_expires", "summary"}


def stored(table: Path, into: Path, code: Path | None) -> sqlite3.Connection:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for name in ("petitions.db", "dedup.yaml"):
        shutil.copy(table / name, into)
    subprocess.run([sys.executable, "-c", RUN, str(into)], check=True, env=child_env(code), cwd=ROOT)
    return sqlite3.connect(into / "petitions-store.db")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-code", type=Path, required=True)
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--out", type=Path, default=OUT / "vs_rensa")
    ap.add_argument("--demo", action="store_true", help="the demo generator's petitions (seed 5)")
    args = ap.parse_args(argv)
    from bench.perf.store_write import demo_table
    from bench.perf.vs_rensa import make_table

    table = demo_table(args.rows, args.out) if args.demo else make_table(args.rows, args.seed, args.out)
    a = stored(table, table / "same-this", None)
    b = stored(table, table / "same-baseline", args.baseline_code)
    differ = 0
    for (name,) in a.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
        cols = ", ".join(c[1] for c in a.execute(f"PRAGMA table_info({name})") if c[1] not in TIMES)
        query = f"SELECT {cols} FROM {name} ORDER BY {cols}"
        mine, theirs = a.execute(query).fetchall(), b.execute(query).fetchall()
        differ += mine != theirs
        same = "same" if mine == theirs else "DIFFERENT"
        sys.stdout.write(f"{name}: {len(mine)} rows here, {len(theirs)} in the baseline's: {same}\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

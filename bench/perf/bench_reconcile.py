"""What `dedup incremental --reconcile` costs on a table of a million keys, beside the same
incremental run without it, and beside one without its lookback window.

    python -m bench.perf.bench_reconcile [--rows 1000000] [--deleted 1000] [--work /tmp/dedup-reconcile]

The source is a SQLite table of --rows rows (id, content, updated_at one minute apart, an index on
(updated_at, id) as a table read by its watermark has); the store (SQLite) holds every row with a
stand-in fingerprint and its watermark text, as a full run leaves them, written by
``store.replace_table`` (no block entries and no groups: their removal follows the number of
deleted rows, not the table's size, and is the changed-row path the incremental benchmarks
measure). Then --deleted random rows are deleted from the source and, each in a fresh process on
a fresh copy of the store:

* ``incremental``: nothing new; the lookback window (1 day: 1,440 rows) is read again and left alone;
* ``incremental, lookback 0``: the same without the window;
* ``incremental --reconcile``: the key column read by keyset (10,000 keys a query), the store's keys
  read, the vanished ones removed;

each with wall seconds (``run_incremental``), peak RSS (VmHWM), and the reconcile's parts timed alone
(``Source.keys``, ``store.keys``) in the first process. Machine load is printed with the numbers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import sqlalchemy as sa

from bench.support import child_env
from dedup.config.parse import parse_config
from dedup.db.watermark import row_watermark_text, watermark_position
from dedup.runs.recipe import Recipe
from dedup.store import RunRecord, TableSnapshot, open_store

BASE = dt.datetime(2020, 1, 1)


def config(work: Path, lookback: str = "1d", store: str = "run-store.db"):
    return parse_config({"source": {"url": f"sqlite:///{work / 'src.db'}"},
                         "store": {"url": f"sqlite:///{work / store}"},
                         "tables": {"petitions": {"key": "id", "watermark": "updated_at", "watermark_lookback": lookback,
                                                  "fields": {"content": "text"}}}})


def build(work: Path, rows: int, deleted: int) -> None:
    work.mkdir(parents=True, exist_ok=True)
    for name in ("src.db", "store.db"):
        (work / name).unlink(missing_ok=True)
    engine = sa.create_engine(f"sqlite:///{work / 'src.db'}")
    md = sa.MetaData()
    tbl = sa.Table("petitions", md, sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
                   sa.Column("content", sa.Text), sa.Column("updated_at", sa.DateTime),
                   sa.Index("ix_petitions_wm", "updated_at", "id"))
    md.create_all(engine)
    times = [BASE + dt.timedelta(minutes=i) for i in range(rows)]
    with engine.begin() as conn:
        for start in range(0, rows, 50_000):
            conn.execute(tbl.insert(), [{"id": i + 1, "content": f"第{i + 1}条", "updated_at": times[i]}
                                        for i in range(start, min(rows, start + 50_000))])
    cfg = config(work, store="store.db")
    recipe = Recipe.of(cfg, "petitions")
    store = open_store(cfg.store_url)
    try:
        run_id = store.start_run(RunRecord("petitions", "full", dt.datetime.now()))
        fps = np.random.default_rng(1).integers(0, 2**63, size=rows, dtype=np.uint64)
        store.replace_table(TableSnapshot(
            "petitions", run_id, [str(i + 1) for i in range(rows)], fps, [], [], recipe.version(),
            watermark_position(times[-1], rows), row_watermarks=[row_watermark_text(t) for t in times]))
        store.finish_run(run_id, "ok", {})
    finally:
        store.close()
    gone = random.Random(2).sample(range(1, rows + 1), deleted)
    with engine.begin() as conn:
        for start in range(0, len(gone), 500):
            conn.execute(tbl.delete().where(tbl.c.id.in_(gone[start:start + 500])))
    engine.dispose()


def measure(work: Path, kind: str) -> dict:
    """In this process: one incremental run of ``kind`` on a fresh copy of the store."""
    from dedup.db.source import Source
    from dedup.runs.incremental import run_incremental

    shutil.copyfile(work / "store.db", work / "run-store.db")
    cfg = config(work, "0" if kind == "no-lookback" else "1d")
    parts = {}
    if kind == "reconcile":
        with Source(cfg.source_url, cfg.tables["petitions"]) as source:
            start = time.perf_counter()
            n = sum(len(keys) for keys in source.keys())
            parts["source_keys_s"], parts["source_keys"] = round(time.perf_counter() - start, 2), n
        store = open_store(cfg.store_url)
        start = time.perf_counter()
        parts["store_keys"] = len(store.keys("petitions"))
        parts["store_keys_s"] = round(time.perf_counter() - start, 2)
        store.close()
    start = time.perf_counter()
    result = run_incremental(cfg, reconcile=kind == "reconcile")
    seconds = time.perf_counter() - start
    return {"kind": kind, "seconds": round(seconds, 2), "rows": result.rows_read, "unchanged": result.unchanged,
            "deleted": result.deleted, "peak_rss_mb": _peak_mb(),
            **parts}


def _peak_mb() -> int:
    """This process's peak RSS (VmHWM: ru_maxrss would carry the parent's over exec)."""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) // 1024 for line in fh if line.startswith("VmHWM:"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--deleted", type=int, default=1000)
    ap.add_argument("--work", type=Path, default=Path("/tmp/dedup-reconcile"))
    ap.add_argument("--reuse", action="store_true", help="measure the tables a previous run built in --work")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.work, args.measure)))
        return
    start = time.perf_counter()
    if not args.reuse:
        build(args.work, args.rows, args.deleted)
    print(f"{'reused' if args.reuse else 'built'} {args.rows:,} rows, {args.deleted:,} deleted from the source, in {time.perf_counter() - start:.0f} s")
    for kind in ("incremental", "no-lookback", "reconcile"):
        out = subprocess.run([sys.executable, "-m", "bench.perf.bench_reconcile", "--work", str(args.work), "--measure", kind],
                             check=True, capture_output=True, text=True, env=child_env())
        print(out.stdout.strip().splitlines()[-1], "| load", open("/proc/loadavg").read().split()[0])


if __name__ == "__main__":
    main()

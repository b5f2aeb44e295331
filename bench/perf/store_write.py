"""The SQL store write of a full run alone, step by step, beside a baseline checkout (issue 26).

    python -m bench.perf.store_write [--rows 200000] [--seed 100] [--out bench/out/vs_rensa]
                                     [--baseline-code /path/to/a/checkout/of/main] [--repeat 2]
                                     [--store postgresql+psycopg://127.0.0.1/test] [--demo]

Makes (once) the news-length petitions table of bench/perf/vs_rensa.py and, with this checkout, the
snapshot a full run hands the store (rows, sketches, block entries, terms, groups, changes: pickled
beside the table as ``snapshot.pkl``); then writes it into a fresh SQLite store file in a process of
its own, alternately with this checkout's and the baseline's dedup, in one transaction as
``SqlStore._replace`` does. ``--store`` writes into a server store instead (the table's rows there
are deleted before and after each write). ``--demo``: the demo generator's petitions (``generate_petitions(rows, seed=5)``, the demo
config, as bench/perf/scale_workers.py) instead of the news-length ones. Each line: the CPU seconds of each write step, the commit's wall
seconds, the whole wall and CPU seconds and the 1-minute load.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

from bench.support import OUT, ROOT, child_env

SNAPSHOT = """
import os, pickle, sys
from dedup.config import load_config
from dedup.index.pairs import distinct_rows
from dedup.runs.featurise import featurise_table
from dedup.runs.full import rows_snapshot, settle_groups, snapshot
from dedup.runs.locking import table_run
from dedup.runs.parallel import resolve_workers
from dedup.runs.recipe import Recipe
os.chdir(sys.argv[1])
config = load_config("dedup.yaml")
recipe = Recipe.of(config, None)
with table_run(config, recipe.table, "full") as (source, store, run):
    f = featurise_table(source, recipe, workers=resolve_workers(config.text.workers))
    distinct = distinct_rows(f.rows.keys, f.recipe.matrix(f.sketches))
    groups = f.recipe.groups(f.rows.keys, f.sketches, [], None, distinct)
    changes, _ = settle_groups(store, run, f.recipe.table.name, groups)
    base = snapshot(run, f.recipe, f.terms, groups, changes, f.rows.skipped, f.rows.watermark)
    import dedup.runs.full as full_module  # the watermarks given apart since session 40; before, taken from the rows
    wms = (full_module.watermarks_of(f.rows),) if hasattr(full_module, "watermarks_of") else ()
    snap = rows_snapshot(base, f.recipe, f.rows, f.sketches, distinct, *wms)
with open("snapshot.pkl", "wb") as out:
    pickle.dump(snap, out, protocol=5)
"""


def write_child(folder: Path, url: str | None) -> None:
    """In its own process: the pickled snapshot written into a fresh store, one JSON line."""
    from dedup.store import sql_schema as S
    from dedup.store import sql_write as W
    from dedup.store.model import checked_terms
    from dedup.store.sql import SqlStore

    with open(folder / "snapshot.pkl", "rb") as f:
        snap = pickle.load(f)
    for leftover in folder.glob("write-store.db*"):
        leftover.unlink()
    store = SqlStore(url or f"sqlite:///{folder / 'write-store.db'}")
    hashes, counts = checked_terms(snap.table, snap.terms)
    steps = {
        "rows": lambda c: W.add_rows(c, snap.table, snap.keys, [int(v) for v in snap.fingerprints], snap.sketches,
                                     snap.row_watermarks),
        "blocks": lambda c: W.add_blocks(c, snap.table, snap.blocks),
        "terms": lambda c: W.add_terms(c, snap.table, hashes, counts),
        "groups": lambda c: W.add_groups(c, snap.table, snap.groups),
        "changes": lambda c: W.add_changes(c, snap.table, snap.run_id, snap.changes)}
    cpu: dict[str, float] = {}
    walls: dict[str, float] = {}  # a server's own work shows in the wall seconds, not the CPU
    wall0, cpu0 = time.perf_counter(), time.process_time()
    with store.engine.begin() as conn:
        for tbl in S.PER_TABLE:
            conn.execute(tbl.delete().where(tbl.c.table_name == snap.table))
        for name, step in steps.items():
            c, w = time.process_time(), time.perf_counter()
            step(conn)
            cpu[name], walls[name] = time.process_time() - c, time.perf_counter() - w
        commit = time.perf_counter()
    commit_wall = time.perf_counter() - commit
    wall1, cpu1 = time.perf_counter(), time.process_time()
    if url:
        with store.engine.begin() as conn:
            for tbl in S.PER_TABLE:
                conn.execute(tbl.delete().where(tbl.c.table_name == snap.table))
    out = {"cpu_steps": cpu, "wall_steps": walls, "commit_wall": commit_wall, "wall": wall1 - wall0,
           "cpu": cpu1 - cpu0, "entries": len(snap.blocks), "rows": len(snap.keys)}
    store.close()
    for leftover in folder.glob("write-store.db*"):
        leftover.unlink()
    sys.stdout.write(json.dumps(out) + "\n")


def demo_table(rows: int, out: Path) -> Path:
    """The demo generator's petitions (seed 5) in ``out/demo-ROWS`` with the demo config (made once)."""
    import yaml

    from dedup.demo import DEMO_CONFIG
    from dedup.demo.generator import generate_petitions, write_sample_db

    folder = out / f"demo-{rows}"
    if not (folder / "dedup.yaml").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        write_sample_db(f"sqlite:///{folder.resolve() / 'petitions.db'}", generate_petitions(rows, seed=5))
        raw = yaml.safe_load(DEMO_CONFIG)
        raw["source"]["url"], raw["store"]["url"] = "sqlite:///petitions.db", "sqlite:///petitions-store.db"  # the cwd's
        (folder / "dedup.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True))
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--out", type=Path, default=OUT / "vs_rensa")
    ap.add_argument("--baseline-code", type=Path)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--store", help="a SQLAlchemy URL of a server store to write into (default: a fresh SQLite file)")
    ap.add_argument("--demo", action="store_true", help="the demo generator's petitions (seed 5)")
    ap.add_argument("--write-child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.write_child:
        write_child(args.write_child, args.store)
        return 0
    from bench.perf.vs_rensa import make_table

    folder = demo_table(args.rows, args.out) if args.demo else make_table(args.rows, args.seed, args.out)
    if not (folder / "snapshot.pkl").is_file():
        subprocess.run([sys.executable, "-c", SNAPSHOT, str(folder)], check=True, env=child_env(), cwd=ROOT)
    codes = [("this checkout", None)] + ([("baseline code", args.baseline_code)] if args.baseline_code else [])
    for _ in range(args.repeat):
        for name, code in codes:
            load = os.getloadavg()[0]
            done = subprocess.run([sys.executable, "-m", "bench.perf.store_write", "--write-child", str(folder)]
                                  + (["--store", args.store] if args.store else []),
                                  check=True, capture_output=True, text=True, env=child_env(code), cwd=ROOT)
            r = json.loads(done.stdout.strip().splitlines()[-1])
            steps = ", ".join(f"{k} {v:.2f}/{r['wall_steps'].get(k, float('nan')):.2f}" for k, v in r["cpu_steps"].items())
            sys.stdout.write(f"{name:<14} {r['rows']:,} rows, {r['entries']:,} block entries: wall {r['wall']:.2f} s, "
                             f"CPU {r['cpu']:.2f} s (CPU/wall s by step: {steps}; commit wall {r['commit_wall']:.2f}); "
                             f"load {load:.2f} → {os.getloadavg()[0]:.2f}\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

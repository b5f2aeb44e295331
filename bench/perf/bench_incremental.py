"""Cost of one incremental run against a large store, beside a full run over the same rows.

    python -m bench.perf.bench_incremental [--stored 100000] [--new 1000] [--postgres]

Generates the sample petitions table (dedup.demo), runs `full` over the first --stored rows,
appends --new rows, runs `incremental`, and prints the incremental run's seconds and the number
of store round trips (SQL statements sent), next to a full run over all rows measured in the
same process: the baseline incremental runs exist to beat. SQLite always; PostgreSQL with
--postgres (a fresh schema, dropped afterwards).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa

import dedup.runs.locking as pipeline  # where runs open their store
from dedup.config import parse_config
from dedup.runs.incremental import run_incremental
from dedup.runs.full import run_full
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
POSTGRES = os.environ.get("DEDUP_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def config(source_url: str, store_url: str):
    return parse_config({"source": {"url": source_url}, "store": {"url": store_url},
                         "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": FIELDS}}})


class CountingStores:
    """Keeps the stores the pipeline opens, to read their round-trip counters afterwards."""

    def __init__(self):
        self.opened = []
        self.real = pipeline.open_store

    def __enter__(self):
        def spy(*args, **kwargs):
            store = self.real(*args, **kwargs)
            self.opened.append(store)
            return store
        pipeline.open_store = spy
        return self

    def __exit__(self, *exc):
        pipeline.open_store = self.real

    @property
    def statements(self) -> int:
        return sum(getattr(s, "statements", 0) for s in self.opened)


def append(url: str, rows: list[dict]) -> None:
    engine = sa.create_engine(url)
    tbl = sa.Table("petitions", sa.MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        for start in range(0, len(rows), 1000):
            conn.execute(tbl.insert(), rows[start:start + 1000])
    engine.dispose()


def measure(label: str, store_url: str, sample: SampleTable, stored: int, workdir: Path) -> dict:
    src = f"sqlite:///{workdir / f'src-{uuid.uuid4().hex[:6]}.db'}"
    write_sample_db(src, SampleTable(sample.rows[:stored], sample.truth))
    cfg = config(src, store_url)
    t = time.perf_counter()
    run_full(cfg)
    full_stored = time.perf_counter() - t
    append(src, sample.rows[stored:])
    with CountingStores() as spy:
        t = time.perf_counter()
        inc = run_incremental(cfg)
        inc_s = time.perf_counter() - t
    baseline_cfg = config(src, f"sqlite:///{workdir / f'baseline-{uuid.uuid4().hex[:6]}.db'}")
    t = time.perf_counter()
    run_full(baseline_cfg)
    full_all = time.perf_counter() - t
    return {"store": label, "stored": stored, "new": inc.rows_read, "full_stored_s": full_stored,
            "incremental_s": inc_s, "round_trips": spy.statements, "full_all_s": full_all,
            "new_groups": len(inc.new_groups), "rows_joining": inc.rows_joining}


def postgres_schema_url() -> tuple[str, callable]:
    schema = "bench_" + uuid.uuid4().hex[:8]
    admin = sa.create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))

    def drop():
        with admin.connect() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    return f"{POSTGRES}?options={quote(f'-csearch_path={schema}')}", drop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stored", type=int, default=100_000)
    ap.add_argument("--new", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--postgres", action="store_true", help="also measure a PostgreSQL store")
    args = ap.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, text.workers auto; "
          f"{args.stored} stored rows + {args.new} new rows (sample seed {args.seed})")
    sample = generate_petitions(args.stored + args.new, seed=args.seed)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        results.append(measure("sqlite", f"sqlite:///{work / 'store.db'}", sample, args.stored, work))
        if args.postgres:
            url, drop = postgres_schema_url()
            try:
                results.append(measure("postgresql", url, sample, args.stored, work))
            finally:
                drop()
    print(f"{'store':<11} {'new rows':>8} {'incremental s':>13} {'round trips':>11} "
          f"{'full over all s (baseline)':>27} {'speed-up':>8}")
    for r in results:
        print(f"{r['store']:<11} {r['new']:>8} {r['incremental_s']:>13.2f} {r['round_trips']:>11} "
              f"{r['full_all_s']:>27.2f} {r['full_all_s'] / r['incremental_s']:>7.1f}x")
    print("(full over all rows always writes to a SQLite store; the first full run over the stored rows took "
          + ", ".join(f"{r['store']} {r['full_stored_s']:.1f} s" for r in results) + ")")


if __name__ == "__main__":
    sys.exit(main())

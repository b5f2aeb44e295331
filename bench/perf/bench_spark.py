"""`dedup full` on this machine beside `dedup full --engine spark` on the same rows: time and groups.

Run by hand (not part of the tests; needs the `spark` extra and Java):

    python -m bench.perf.bench_spark [--rows 200000] [--seed 5] [--master local[2]] [--partitions 0] [--workers 2]
        [--spark-only] [--common-share 1.0]

On a standalone cluster (``--master spark://127.0.0.1:7077``) the executors must import the same
dedup: ``PYSPARK_SUBMIT_ARGS="--conf spark.executorEnv.PYTHONPATH=$PWD pyspark-shell"``.

The sample (``generate_petitions(rows, seed)``, the demo's config) is written to a SQLite file in
a temp directory; the local run (``--workers`` featurising processes) and the Spark run (first,
so that the process's peak memory is the Spark driver's) each fill a store of their own. Printed: seconds of each (the Spark run's with and without starting the
session), rows/s, groups, whether the groups are identical (members, distances and pairs), the
store file sizes, and the load average before and after. Every number is measured in this run.

The driver's memory: ``driver peak`` is the process's high-water mark (getrusage) after the
Spark run, the sample written by a child process so that it is not counted; ``during the run``
is the peak resident size sampled every 50 ms while ``run_full_spark`` ran, beside the size at
its start (the session and imports); ``driver JVM`` the same for the driver's JVM (with a local
master it holds the executors too; on a cluster only the driver).
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

from dedup.config import parse_config
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.runs.full import run_full

FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}


def load() -> str:
    """The load average (1, 5, 15 minutes): other jobs on the machine slow every number down."""
    path = Path("/proc/loadavg")
    return " ".join(path.read_text().split()[:3]) if path.exists() else "?"


def config(source_url: str, store_path: Path, workers: int, match: dict):
    return parse_config({"source": {"url": source_url}, "store": {"url": f"sqlite:///{store_path}"},
                         "text": {"workers": workers}, "match": match,
                         "tables": {"petitions": {"key": "id", "watermark": "updated_at", "fields": FIELDS}}})


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident size now (Linux /proc; 0 elsewhere or once it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


class PeakRss:
    """The largest resident size seen every ``every`` seconds while the block runs, of this
    process and of ``pid`` (the driver's JVM)."""

    def __init__(self, pid: int | None = None, every: float = 0.05):
        self.every, self.pid = every, pid
        self.peak = self.start = self.jvm_peak = self.jvm_start = 0.0
        self._done = threading.Event()

    def __enter__(self):
        self.start = self.peak = rss_mb()
        self.jvm_start = self.jvm_peak = rss_mb(self.pid) if self.pid else 0.0
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        self.peak = max(self.peak, rss_mb())
        if self.pid:
            self.jvm_peak = max(self.jvm_peak, rss_mb(self.pid))

    def _watch(self) -> None:
        while not self._done.wait(self.every):
            self._sample()

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()
        self._sample()


def jvm_pid(spark) -> int | None:
    """The PID of the driver's JVM (the py4j gateway PySpark started; None if it did not)."""
    proc = getattr(spark.sparkContext._gateway, "proc", None)
    return proc.pid if proc is not None else None


def write_sample(source_url: str, rows: int, seed: int) -> None:
    write_sample_db(source_url, generate_petitions(rows, seed=seed))


def groups_of(result) -> list:
    return [(g.keys, g.distances, [(p.a, p.b, p.distance) for p in g.pairs]) for g in result.groups]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--partitions", type=int, default=0, help="key ranges (0: two a core)")
    ap.add_argument("--workers", type=int, default=2, help="featurising processes of the local run")
    ap.add_argument("--spark-only", action="store_true", help="no local run (to measure the Spark driver alone)")
    ap.add_argument("--common-share", type=float, default=None,
                    help="match.common_share (default: the shipped one; 1.0: nothing learned, what Spark needed before)")
    args = ap.parse_args()
    match = {} if args.common_share is None else {"common_share": args.common_share}
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("dedup.runs.spark").setLevel(logging.DEBUG)  # the Spark run's steps, timed
    from dedup.runs.spark import run_full_spark, spark_session

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        source_url = f"sqlite:///{tmp / 'src.db'}"
        child = multiprocessing.get_context("spawn").Process(target=write_sample, args=(source_url, args.rows, args.seed))
        child.start()  # in a child: the sample's memory is not the driver's
        child.join()
        if child.exitcode:
            sys.exit(f"writing the sample failed (exit code {child.exitcode})")
        print(f"rows {args.rows:,} (generate_petitions seed {args.seed}), load before {load()}", flush=True)

        # the Spark run first, so the process's peak memory then is the Spark driver's alone
        t = time.perf_counter()
        spark = spark_session(args.master)
        spark.sparkContext.setLogLevel("ERROR")
        session_s = time.perf_counter() - t
        t = time.perf_counter()
        with PeakRss(jvm_pid(spark)) as rss:
            far = run_full_spark(config(source_url, tmp / "spark.db", 1, match), "petitions", spark=spark,
                                 partitions=args.partitions)
        spark_s = time.perf_counter() - t
        driver_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        spark.stop()
        print(f"spark  ({args.master}): {spark_s:7.1f} s  {args.rows / spark_s:7.0f} rows/s  "
              f"{len(far.groups):,} groups  (+{session_s:.1f} s starting the session)  "
              f"driver peak {driver_mb:.0f} MB (during the run {rss.peak:.0f} MB, "
              f"{rss.start:.0f} MB at its start)  driver JVM peak {rss.jvm_peak:.0f} MB "
              f"({rss.jvm_start:.0f} MB at its start)  load {load()}", flush=True)
        if args.spark_only:
            return

        t = time.perf_counter()
        local = run_full(config(source_url, tmp / "local.db", args.workers, match), "petitions")
        local_s = time.perf_counter() - t
        print(f"local  (workers {args.workers}): {local_s:7.1f} s  {args.rows / local_s:7.0f} rows/s  "
              f"{len(local.groups):,} groups  load {load()}", flush=True)
        same = groups_of(far) == groups_of(local)
        print(f"groups identical: {same}")
        for name in ("local.db", "spark.db"):
            size = sum(f.stat().st_size for f in tmp.glob(name + "*"))
            print(f"store {name}: {size / 1e6:.1f} MB ({size / args.rows * 1e6 / 1e9:.2f} GB per million rows)")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()

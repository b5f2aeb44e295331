"""The MongoDB store beside the SQLite store on a real wire-protocol server: `dedup full` of N rows,
then an incremental run of --new rows, on the same table.

    python -m bench.perf.bench_mongo_store [--rows 100000] [--new 1000] [--generator demo|news]
                                      [--secantusd PATH | --mongo-url URL [--server-pid PID]]
                                      [--profile-server DIR]

By default a SecantusDB server (a MongoDB wire-protocol server written in Python, on WiredTiger;
``pip install secantusdb``, as .ci/run starts one) is started from --secantusd on a free port with
a throw-away data directory and stopped at the end; --mongo-url uses a running server instead
(its CPU time from --server-pid, or else from the local process psutil finds listening on the
URL's port). --profile-server samples the server with py-spy (20 Hz, --nonblocking: the server is
not paused) during each MongoDB run and prints the shares of its samples by command handler and
by function: where a run's server CPU goes.

The rows are bench_incremental_scale.py's (bench/datasets/incremental_samples.py): the first N rows of the
demo generator (or the held-out news generator), then --new rows, half edited copies of stored
rows, half fresh. Both stores get the same source table: `run_full` over rows 1..N, then the new
rows are appended and `run_incremental` reads them. Each run is measured in a fresh process:

- seconds: wall time of the run (run_full / run_incremental, as the CLI calls them);
- store s: wall time spent inside store calls (everything the store does, waiting included);
- server CPU s: the server's own CPU seconds during the run (user + system time of its process,
  psutil or /proc/PID/stat, before and after); wait s: the time the client waited for replies (the
  sum of the durations a pymongo CommandListener reports);
- client CPU s: this process's CPU seconds and its text workers';
- round trips: commands sent (CommandListener, getMore included; SQLite: SQL statements), and
  per command and collection the statements they carried (a server pays per document written);
- sent / received MB: bytes on the wire, counted where pymongo writes and reads its socket;
- store calls: per store method, the calls the run made and their seconds.

Timing on a shared machine: the load average is printed beside every run, and the ratio of the
two stores is given in CPU seconds too (server + client against the SQLite run's), which other
work on the machine does not inflate the way it does wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.perf.bench_incremental import append, config
from bench.datasets.incremental_samples import news_new_rows, new_rows, sample_of
from bench.support import child_env, sqlite_url
from bench.perf.mongo_server import ServerProfile, pid_listening, server_cpu, start_server

TABLE = "petitions"
SEEDS = {"demo": 42, "news": 110}
ORIGINALS_FROM = 10_000


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


class Wire:
    """Round trips, waiting time and bytes of pymongo's traffic in this process."""

    def __init__(self):
        from pymongo import monitoring
        import pymongo.network_layer as layer
        import pymongo.synchronous.pool as pool

        self.commands: dict[str, int] = {}
        self.statements: dict[str, int] = {}  # "command collection" -> documents or statements it carried
        self.waited = 0.0
        self.waited_by: dict[str, float] = {}
        self.sent = self.received = 0
        wire = self

        class Listener(monitoring.CommandListener):
            def started(self, event):
                wire.commands[event.command_name] = wire.commands.get(event.command_name, 0) + 1
                wire.count_statements(event.command_name, event.command)

            def succeeded(self, event):
                wire.wait(event)

            def failed(self, event):
                wire.wait(event)

        monitoring.register(Listener())
        real_send, real_receive = pool.sendall, layer.receive_data

        def sendall(sock, buf):
            wire.sent += len(buf)
            return real_send(sock, buf)

        def receive_data(conn, length, deadline):
            wire.received += length
            return real_receive(conn, length, deadline)

        pool.sendall, layer.receive_data = sendall, receive_data

    def count_statements(self, name: str, command) -> None:
        """Statements of a write (a server pays per statement, not per command), finds by collection."""
        items = {"insert": "documents", "update": "updates", "delete": "deletes"}.get(name)
        if items is None and name not in ("find", "aggregate", "distinct", "count"):
            return
        n = len(command.get(items) or ()) if items else 1
        label = f"{name} {command.get(name)}"
        self.statements[label] = self.statements.get(label, 0) + n

    def wait(self, event) -> None:
        seconds = event.duration_micros / 1e6
        self.waited += seconds
        self.waited_by[event.command_name] = round(self.waited_by.get(event.command_name, 0.0) + seconds, 2)

    @property
    def round_trips(self) -> int:
        return sum(self.commands.values())


def timed_store(seconds: list[float], calls: dict[str, list] | None = None):
    """Wraps dedup.runs.locking.open_store so that the time spent in the store's methods adds up in
    ``seconds[0]``, and the store opened is kept in ``seconds[1:]``; ``calls``: method name ->
    [calls, seconds] (what the run asked of the store, and what each kind of call cost)."""
    import dedup.runs.locking as locking

    real = locking.open_store

    class Timed:
        def __init__(self, store):
            self._store = store

        def __getattr__(self, name):
            attr = getattr(self._store, name)
            if not callable(attr):
                return attr

            def call(*args, **kwargs):
                started = time.perf_counter()
                try:
                    return attr(*args, **kwargs)
                finally:
                    spent = time.perf_counter() - started
                    seconds[0] += spent
                    if calls is not None:
                        tally = calls.setdefault(name, [0, 0.0])
                        tally[0] += 1
                        tally[1] = round(tally[1] + spent, 3)
            return call

    def opener(*args, **kwargs):
        started = time.perf_counter()
        store = real(*args, **kwargs)
        seconds[0] += time.perf_counter() - started
        seconds.append(store)
        return Timed(store)

    locking.open_store = opener


def measure(kind: str, src: str, store_url: str, pid: int | None) -> dict:
    """In this (fresh) process: one run of ``kind`` (full or incremental), measured."""
    import resource

    from dedup.runs.full import run_full
    from dedup.runs.incremental import run_incremental

    wire = Wire() if store_url.startswith("mongodb") else None
    in_store: list = [0.0]
    calls: dict[str, list] = {}
    timed_store(in_store, calls)
    cfg = config(src, store_url)
    cpu0, server0, load0 = time.process_time(), server_cpu(pid), load()
    started = time.perf_counter()
    result = (run_full if kind == "full" else run_incremental)(cfg)
    seconds = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = {"kind": kind, "seconds": seconds, "store_s": in_store[0], "client_cpu": time.process_time() - cpu0,
           "workers_cpu": children.ru_utime + children.ru_stime, "server_cpu": server_cpu(pid) - server0,
           "rows": result.rows_read, "load": f"{load0}/{load()}", "store_calls": calls}
    if kind == "full":
        out["groups"] = len(result.groups)
    else:
        out["groups"] = len(result.new_groups) + len(result.grown_groups)
        out["joining"] = result.rows_joining
    if wire is not None:
        out.update(round_trips=wire.round_trips, waited=wire.waited, sent=wire.sent, received=wire.received,
                   commands=wire.commands, waited_by=wire.waited_by, statements=wire.statements)
    else:
        out["round_trips"] = sum(getattr(s, "statements", 0) for s in in_store[1:])
    return out


def in_child(kind: str, src: str, store_url: str, pid: int | None) -> dict:
    cmd = [sys.executable, "-m", "bench.perf.bench_mongo_store", "--measure", kind, src, store_url, "--server-pid", str(pid or 0)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=child_env())
    if done.returncode:
        sys.exit(f"{kind} on {store_url} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def drop_database(url: str) -> None:
    import pymongo

    client = pymongo.MongoClient(url)
    try:
        client.drop_database(client.get_default_database().name)
    finally:
        client.close()


def prepare(work: Path, generator: str, rows: int, n_new: int, seed: int) -> tuple[str, list[dict]]:
    """The source table of rows 1..N, and the new rows to append."""
    from bench.perf.bench_incremental_scale import index_watermark
    from dedup.demo.generator import SampleTable, write_sample_db

    sample, docs = sample_of(generator, rows, seed, min(ORIGINALS_FROM, rows))
    if generator == "news":
        fresh, _planted = news_new_rows(sample, docs, n_new, seed)
    else:
        fresh, _planted = new_rows(sample, n_new, seed, min(ORIGINALS_FROM, rows))
    src = sqlite_url(work, "source.db")
    write_sample_db(src, SampleTable(sample.rows[:rows], {}))
    index_watermark(src)
    return src, fresh


def row(store: str, r: dict) -> str:
    mb = lambda key: f"{r[key] / 2**20:.1f}" if key in r else "-"  # noqa: E731
    cell = lambda key: f"{r[key]:.1f}" if key in r else "-"  # noqa: E731
    return (f"| {store} | {r['kind']} | {r['rows']:,} | {r['seconds']:.1f} | {r['store_s']:.1f} | {cell('waited')} | "
            f"{r['server_cpu']:.1f} | {r['client_cpu'] + r['workers_cpu']:.1f} | {r['round_trips']:,} | {mb('sent')} | {mb('received')} | "
            f"{r['groups']} | {r['load']} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--new", type=int, default=1_000)
    ap.add_argument("--generator", choices=("demo", "news"), default="demo")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--secantusd", default=shutil.which("secantusd-py") or "/work/secvenv/bin/secantusd-py",
                    help="the SecantusDB server to start (default: secantusd-py on PATH)")
    ap.add_argument("--mongo-url", help="use this running server instead of starting one")
    ap.add_argument("--server-pid", type=int, help="the running server's pid, for its CPU time "
                    "(default: the local process listening on --mongo-url's port, found with psutil)")
    ap.add_argument("--profile-server", metavar="DIR",
                    help="sample the server with py-spy during each MongoDB run; raw profiles go to DIR")
    ap.add_argument("--work", help="scratch directory (default: a new temporary one, removed afterwards)")
    ap.add_argument("--measure", nargs=3, metavar=("KIND", "SOURCE", "STORE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(*args.measure, args.server_pid)))
        return
    seed = SEEDS[args.generator] if args.seed is None else args.seed
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="dedup-bench-mongo-"))
    work.mkdir(parents=True, exist_ok=True)
    proc = None
    try:
        if args.mongo_url:
            url = args.mongo_url.rstrip("/")
            pid = args.server_pid or pid_listening(url)
            print(f"server at {url}: pid {pid or 'unknown (no server CPU)'}", flush=True)
        else:
            proc, url = start_server(args.secantusd, work)
            pid = proc.pid
        mongo = f"{url}/bench_mongo_store"
        drop_database(mongo)
        src, fresh = prepare(work, args.generator, args.rows, args.new, seed)
        (work / "store.db").unlink(missing_ok=True)
        stores = {"SQLite": sqlite_url(work, "store.db"), "MongoDB (SecantusDB)": mongo}
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, shipped defaults; generator {args.generator} "
              f"seed {seed}: full of {args.rows:,} rows, then incremental of {args.new:,} new rows", flush=True)
        results: dict[str, list[dict]] = {name: [] for name in stores}
        for kind in ("full", "incremental"):
            if kind == "incremental":
                append(src, fresh)
            for name, store_url in stores.items():
                is_mongo = store_url.startswith("mongodb")
                profile = ServerProfile(args.profile_server if is_mongo else None, pid, kind)
                r = in_child(kind, src, store_url, pid if is_mongo else None)
                summary = profile.stop()
                results[name].append(r)
                print(f"  {name} {kind}: {r['seconds']:.1f} s (store {r['store_s']:.1f} s, server CPU "
                      f"{r['server_cpu']:.1f} s), {r['round_trips']} round trips, load {r['load']}"
                      + (f"; commands {r['commands']}, seconds waited {r['waited_by']}, statements {r['statements']}"
                         if "commands" in r else "") + f"; store calls [n, s] {r['store_calls']}", flush=True)
                if summary:
                    print(summary, flush=True)
        print("| store | run | rows | seconds | store s | wait s | server CPU s | client CPU s | round trips "
              "| sent MB | received MB | groups | load |")
        print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
        for name, rs in results.items():
            for r in rs:
                print(row(name, r))
        sqlite, mongo_rs = results["SQLite"], results["MongoDB (SecantusDB)"]
        for s, m in zip(sqlite, mongo_rs):
            ratio = m["seconds"] / s["seconds"]
            print(f"{s['kind']}: MongoDB / SQLite {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'missed'});"
                  f" MongoDB wall {m['seconds']:.1f} s: store calls {m['store_s']:.1f} s, server CPU {m['server_cpu']:.1f} s,"
                  f" client CPU {m['client_cpu'] + m['workers_cpu']:.1f} s (SQLite wall {s['seconds']:.1f} s,"
                  f" CPU {s['client_cpu'] + s['workers_cpu']:.1f} s); in CPU seconds, which a busy machine does not"
                  f" inflate: {(m['server_cpu'] + m['client_cpu'] + m['workers_cpu']) / (s['client_cpu'] + s['workers_cpu']):.2f}x")
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

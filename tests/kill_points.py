"""Randomized kill points: the stores, the scenarios and one kill, for tests/test_kill_points.py.

A scenario is a command (``migrate``, a first ``full`` on an empty store, ``full``, ``incremental``,
``incremental --reconcile``, ``decide``) run on a saved store state and source. Its reference is
the command run once, unkilled. A kill point restores the same state, starts the command as a real
``dedup`` process, SIGKILLs it (or one of its child processes: a featurising worker or the store
writer) at a random moment, runs the command again to the end, and compares the store with the
reference: the same groups with the same ids, the same rows, fingerprints and decisions.

A store backend saves and restores whole states: a copy of the SQLite file, a copy of a MariaDB
database's tables, a copy of a MongoDB database's collections and indexes.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from click.testing import CliRunner

from dedup.cli import main as cli
from dedup.store import open_store
from helpers import child_env, children

# The command's process: the store writer's row floor lowered so that these small tables use it too.
HOOK = ("import sys, dedup.runs.store_writer as w; w.MIN_ROWS = 1; sys.argv[0] = 'dedup'; "
        "from dedup.console import main; main()")
EXIT_DEADLINE = 120  # seconds a killed run's main process may take to end after a child was killed


def store_state(url: str, table: str = "petitions") -> dict:
    """What a run leaves that must not depend on a kill: groups and their ids, rows, decisions."""
    store = open_store(url)
    try:
        return {
            "groups": sorted((g.id, tuple(sorted(g.keys))) for g in store.groups(table)),
            "fingerprints": store.fingerprints(table),
            "decisions": sorted((d.a, d.b, d.verdict) for d in store.decisions(table)),
            "max_group_id": store.max_group_id(table),
        }
    finally:
        store.close()


def differences(got: dict, want: dict) -> str:
    out = []
    for name in want:
        if got[name] != want[name]:
            if isinstance(want[name], list):
                extra, missing = set(got[name]) - set(want[name]), set(want[name]) - set(got[name])
                out.append(f"{name}: {len(extra)} extra {sorted(extra)[:3]}, {len(missing)} missing {sorted(missing)[:3]}")
            elif isinstance(want[name], dict):
                diff = {k for k in set(got[name]) | set(want[name]) if got[name].get(k) != want[name].get(k)}
                out.append(f"{name}: {len(diff)} keys differ, e.g. {sorted(diff)[:3]}")
            else:
                out.append(f"{name}: {got[name]!r} != {want[name]!r}")
    return "; ".join(out)


# --- stores whose whole state can be saved and restored ------------------------------------------

class SqliteStore:
    name = "sqlite"

    def __init__(self, root: Path):
        self.root = root
        self.path = root / "store.db"
        self.url = f"sqlite:///{self.path}"

    def _files(self, base: Path) -> list[Path]:
        return [base.with_name(base.name + suffix) for suffix in ("", "-wal", "-shm")]

    def blank(self) -> None:
        for f in self._files(self.path):
            f.unlink(missing_ok=True)

    def save(self, label: str) -> None:
        for src, dst in zip(self._files(self.path), self._files(self.root / f"saved-{label}.db")):
            dst.unlink(missing_ok=True)
            if src.exists():
                shutil.copyfile(src, dst)

    def restore(self, label: str) -> None:
        self.blank()
        for src, dst in zip(self._files(self.root / f"saved-{label}.db"), self._files(self.path)):
            if src.exists():
                shutil.copyfile(src, dst)

    def dispose(self) -> None:
        pass


class _StateCopies:
    """Saving and restoring a state by copying it whole (``_copy``) to and from a database of its own."""

    db: str
    prefix: str

    def _copy(self, src: str, dst: str) -> None:
        raise NotImplementedError

    def save(self, label: str) -> None:
        self._copy(self.db, f"{self.prefix}_{label}")

    def restore(self, label: str) -> None:
        self._copy(f"{self.prefix}_{label}", self.db)


class MariadbStore(_StateCopies):
    """A database per state; restoring copies each table (CREATE TABLE LIKE, INSERT SELECT)."""

    name = "mariadb"

    def __init__(self, server_url: str):
        self.admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
        self.prefix = "k_" + uuid.uuid4().hex[:8]
        self.db = self.prefix + "_work"
        self.url = sa.make_url(server_url).set(database=self.db).render_as_string(hide_password=False)
        self.blank()

    def _run(self, *statements: str) -> None:
        with self.admin.connect() as c:
            for s in statements:
                c.exec_driver_sql(s)

    def _copy(self, src: str, dst: str) -> None:
        self._run(f"DROP DATABASE IF EXISTS `{dst}`", f"CREATE DATABASE `{dst}` CHARACTER SET utf8mb4")
        with self.admin.connect() as c:
            tables = [r[0] for r in c.exec_driver_sql(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (src,))]
            for t in tables:
                c.exec_driver_sql(f"CREATE TABLE `{dst}`.`{t}` LIKE `{src}`.`{t}`")
                c.exec_driver_sql(f"INSERT INTO `{dst}`.`{t}` SELECT * FROM `{src}`.`{t}`")

    def blank(self) -> None:
        self._run(f"DROP DATABASE IF EXISTS `{self.db}`", f"CREATE DATABASE `{self.db}` CHARACTER SET utf8mb4")

    def dispose(self) -> None:
        with self.admin.connect() as c:
            names = [r[0] for r in c.exec_driver_sql("SHOW DATABASES") if r[0].startswith(self.prefix)]
            for n in names:
                c.exec_driver_sql(f"DROP DATABASE `{n}`")
        self.admin.dispose()


class PostgresStore(_StateCopies):
    """A database per state; saving and restoring copy a whole database (CREATE DATABASE ... TEMPLATE),
    its sequences with it (the runs' and decisions' SERIAL ids go on where the saved state left them),
    once the source's sessions are ended (a killed run's, a pooled one: the template must be idle)."""

    name = "postgresql"

    def __init__(self, server_url: str):
        url = sa.make_url(server_url).set(query={})  # the fixture's search_path option: a schema of its own
        self.admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        self.prefix = "k_" + uuid.uuid4().hex[:8]
        self.db = self.prefix + "_work"
        self.url = url.set(database=self.db).render_as_string(hide_password=False)
        self.blank()

    def _copy(self, src: str, dst: str) -> None:
        with self.admin.connect() as c:
            c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{dst}" WITH (FORCE)')
            c.exec_driver_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = %s AND pid <> pg_backend_pid()", (src,))
            c.exec_driver_sql(f'CREATE DATABASE "{dst}" TEMPLATE "{src}"')  # waits for the ended sessions to go

    def blank(self) -> None:
        with self.admin.connect() as c:
            c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')
            c.exec_driver_sql(f'CREATE DATABASE "{self.db}"')

    def dispose(self) -> None:
        with self.admin.connect() as c:
            names = [r[0] for r in c.exec_driver_sql("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                                      (self.prefix + "%",))]
            for n in names:
                c.exec_driver_sql(f'DROP DATABASE "{n}" WITH (FORCE)')
        self.admin.dispose()


class MongoStore(_StateCopies):
    """A database per state; restoring copies each collection's documents and indexes."""

    name = "mongo"

    def __init__(self, server_uri: str):
        import pymongo
        from mongo_fixtures import with_database

        self.client = pymongo.MongoClient(server_uri)
        self.prefix = "k_" + uuid.uuid4().hex[:8]
        self.db = self.prefix + "_work"
        self.url = with_database(server_uri, self.db)

    def _copy(self, src: str, dst: str) -> None:
        self.client.drop_database(dst)
        for name in self.client[src].list_collection_names():
            source, target = self.client[src][name], self.client[dst][name]
            docs = list(source.find())
            if docs:
                target.insert_many(docs)
            for index, info in source.index_information().items():
                if index != "_id_":
                    options = {k: v for k, v in info.items() if k in ("unique", "sparse", "partialFilterExpression")}
                    target.create_index(info["key"], name=index, **options)

    def blank(self) -> None:
        self.client.drop_database(self.db)

    def dispose(self) -> None:
        for name in self.client.list_database_names():
            if name.startswith(self.prefix):
                self.client.drop_database(name)
        self.client.close()


# --- scenarios and kills --------------------------------------------------------------------------

@dataclass
class Scenario:
    name: str
    state: str | None  # the saved store state it starts from; None: an empty store
    source: str  # the source file it reads
    args: list[str]
    children: bool  # whether its process has child processes worth killing (workers, store writer)
    seconds: float = 0.0  # how long the unkilled command took as a process
    startup: float = 0.0  # how long a process takes to start and read its config (`dedup report`)
    reference: dict | None = None


def run_in_process(config: Path, args: list[str]) -> None:
    """The command run to the end in this process, as a cron job would run it again."""
    got = CliRunner().invoke(cli, ["-c", str(config), *args])
    if got.exit_code != 0:
        raise AssertionError(f"`dedup {' '.join(args)}` exited {got.exit_code} on the rerun: {got.output[-800:]}"
                             f"{got.exception!r}")


def children_of(pid: int) -> list[int]:
    return sorted(children(pid, live_only=True))


def start(config: Path, args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", HOOK, "-c", str(config), *args], env=child_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, errors="replace")


def timed_run(config: Path, args: list[str]) -> float:
    began = time.monotonic()
    proc = start(config, args)
    _, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        raise AssertionError(f"`dedup {' '.join(args)}` exited {proc.returncode}: {err[-800:]}")
    return time.monotonic() - began


@dataclass
class Kill:
    """What one kill point did: whom it killed and when, and whether the process was still running."""
    target: str
    delay: float
    landed: bool
    note: str = ""


def _kill_child(pid: int) -> bool:
    """SIGKILL one child; False where it had already ended (a worker that finished its share)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def kill_once(config: Path, scenario: Scenario, rng: random.Random) -> Kill:
    """Start the scenario's command, SIGKILL it or a child at a random moment, wait for its end.
    A child is killed at a random moment after the first child process appeared."""
    target = rng.choice(["main", "child"]) if scenario.children else "main"
    proc = start(config, scenario.args)
    began = time.monotonic()
    try:
        if target == "child":
            _wait(proc, lambda: children_of(proc.pid), began + 2 * scenario.seconds + 5)
            spawned = time.monotonic() - began
            delay = spawned + rng.uniform(0.0, max(0.05, 0.9 * scenario.seconds - spawned))
        else:  # after the start-up (a kill before it only tests Python's start), before the unkilled run's end
            delay = rng.uniform(0.6 * scenario.startup, max(0.9 * scenario.seconds, scenario.startup + 0.2))
        _wait(proc, lambda: False, began + delay)
        if proc.poll() is not None:
            return Kill(target, delay, landed=False)
        kids = children_of(proc.pid) if target == "child" else []
        if target == "child" and not kids:
            target = "main (no child then)"
        if kids and not _kill_child(rng.choice(kids)):
            return Kill(target, delay, landed=False)  # the child ended between the listing and the kill
        if not kids:
            proc.kill()
        try:
            _, err = proc.communicate(timeout=EXIT_DEADLINE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate(timeout=60)
            return Kill(target, delay, landed=True, note=f"HUNG: still running {EXIT_DEADLINE} s after the kill")
        note = ""
        if kids and proc.returncode not in (0, 1):
            note = f"main exited {proc.returncode} after its child was killed: {err.strip()[-300:]}"
        return Kill(target, delay, landed=True, note=note)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(60)


def _wait(proc: subprocess.Popen, condition, deadline: float) -> None:
    """Until ``condition()`` holds, the process ends or the deadline passes."""
    while time.monotonic() < deadline and proc.poll() is None and not condition():
        time.sleep(0.005)

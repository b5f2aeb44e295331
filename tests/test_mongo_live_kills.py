"""Live MongoDB: `dedup incremental --reconcile` killed mid-run (SIGKILL, and exits at chosen writes,
the next run's roll-forward included), and the server itself killed mid-run and restarted on its
data directory; the run repeated then ends with exactly the groups and group ids of a clean run.

The process kills use the shared server (DEDUP_TEST_MONGO_URI, tests/mongo_fixtures.py). The
server kill starts a SecantusDB of its own: the ``secantusd-py`` named by DEDUP_TEST_SECANTUSD
(.ci/run sets it), skipped without it, failed under CI.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

import pytest

from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.store import open_store
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from helpers import Child, child_env, wait_until
from mongo_fixtures import IN_CI, mongo_live_url  # noqa: F401 (a fixture)
from test_mongo_kills import WRITES, cfg_for, mutate_source

pytestmark = pytest.mark.faults

# `python -c` of a dedup command whose process, from its first write to the store's changes (a
# roll-forward's or apply_changes'), counts the writes and at DEDUP_TEST_CUT_AT exits (os._exit,
# as a kill) or, with DEDUP_TEST_PAUSE_FILE, says so on stderr and waits for that file to appear
CHILD = f"""
import os, sys, time
from pymongo.collection import Collection
from dedup.store.mongo import MongoStore
at, pause = int(os.environ["DEDUP_TEST_CUT_AT"]), os.environ.get("DEDUP_TEST_PAUSE_FILE")
state = {{"armed": False, "n": 0}}
for name in {WRITES!r}:
    def cut(self, *a, _real=getattr(Collection, name), **k):
        if state["armed"]:
            state["n"] += 1
            if state["n"] == at and not pause:
                os._exit(9)
            if state["n"] == at:
                print(f"paused at write {{at}}", file=sys.stderr, flush=True)
                while not os.path.exists(pause):
                    time.sleep(0.05)
        return _real(self, *a, **k)
    setattr(Collection, name, cut)
def armed(real):
    def run(self, *a, **k):
        state["armed"] = True
        return real(self, *a, **k)
    return run
MongoStore.apply_changes = armed(MongoStore.apply_changes)
if hasattr(MongoStore, "_roll_forward"):
    MongoStore._roll_forward = armed(MongoStore._roll_forward)
from dedup.console import main
sys.argv = ["dedup", *sys.argv[1:]]
main()
"""


def outcome(store_url: str) -> tuple[dict[int, list[str]], list[str]]:
    """Groups by id, and the rows the store holds."""
    store = open_store(store_url)
    try:
        return {g.id: sorted(g.keys) for g in store.groups("petitions")}, sorted(store.keys("petitions"))
    finally:
        store.close()


def scene(tmp_path, store_url):
    """A source after a full run into ``store_url``, changed since; the clean run's groups by id
    and rows (a SQLite store given the same two runs); the config file a child runs with."""
    sample = generate_petitions(130, seed=27, duplicate_share=0.35)
    src = f"sqlite:///{tmp_path / 'src.db'}"
    write_sample_db(src, SampleTable(sample.rows[:90], sample.truth))
    ref = f"sqlite:///{tmp_path / 'reference.db'}"
    run_full(cfg_for(src, ref))
    run_full(cfg_for(src, store_url))
    mutate_source(src, sample)
    run_incremental(cfg_for(src, ref), reconcile=True)
    path = tmp_path / "dedup.yaml"
    path.write_text(
        f'source: {{url: "{src}", batch_size: 37}}\nstore: {{url: "{store_url}"}}\ntables:\n  petitions:\n'
        "    key: id\n    watermark: updated_at\n"
        "    fields: {name: short, phone: short, address: short, title: text, content: text}\n", encoding="utf-8")
    return outcome(ref), str(path)


def dedup(config: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, "-v", "-c", config, *args], env={**child_env(), **env},
                          capture_output=True, text=True, timeout=600)


def test_a_reconcile_killed_at_any_moment_then_run_again_ends_as_a_clean_run(tmp_path, mongo_live_url):  # noqa: F811
    expected, config = scene(tmp_path, mongo_live_url)
    with Child([sys.executable, "-m", "dedup", "-v", "-c", config, "incremental", "--reconcile"]) as child:
        child.wait_for_line("petitions: writing the changes of run")
        assert child.stop(signal.SIGKILL) == -signal.SIGKILL
    for at in (2, 7, 40, 3):  # each run killed in turn, the first ones while finishing the killed one
        done = dedup(config, "incremental", "--reconcile", DEDUP_TEST_CUT_AT=str(at))
        assert done.returncode in (0, 9), done.stderr
    done = dedup(config, "incremental", "--reconcile", DEDUP_TEST_CUT_AT="0")
    assert done.returncode == 0, done.stderr
    assert outcome(mongo_live_url) == expected
    done = dedup(config, "incremental", "--reconcile", "--json", DEDUP_TEST_CUT_AT="0")
    assert done.returncode == 0, done.stderr
    assert outcome(mongo_live_url) == expected


# --- the server killed and restarted on its data ------------------------------------------------

SERVER = os.environ.get("DEDUP_TEST_SECANTUSD")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    import pymongo

    client = pymongo.MongoClient(url, serverSelectionTimeoutMS=1000)
    try:
        client.admin.command("ping")
        return True
    except Exception:  # any driver error: not up yet
        return False
    finally:
        client.close()


class Server:
    """A secantusd-py of the test's own on ``port``, keeping its data in ``data``."""

    def __init__(self, port: int, data, log):
        self.url = f"mongodb://127.0.0.1:{port}"
        self.args = [SERVER, "--host", "127.0.0.1", "--port", str(port), "--storage-path", str(data),
                     "--log-level", "WARNING"]
        self.log, self.proc = log, None

    def start(self) -> None:
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        wait_until(lambda: self.proc.poll() is not None or answers(self.url), 120, "the server to answer")
        assert self.proc.poll() is None, open(self.log).read()[-2000:]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(120)


@pytest.fixture
def own_server(tmp_path):
    if not SERVER or not os.path.exists(SERVER):
        why = "DEDUP_TEST_SECANTUSD does not name a secantusd-py"
        pytest.fail(why) if IN_CI else pytest.skip(why)
    server = Server(free_port(), tmp_path / "server-data", tmp_path / "server.log")
    server.start()
    yield server
    if server.proc.poll() is None:
        server.proc.terminate()
        try:
            server.proc.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.mark.parametrize("at", [1, 9, 14])
def test_the_server_killed_mid_run_and_restarted_then_a_run_again_ends_as_a_clean_run(tmp_path, own_server, at,
                                                                                      monkeypatch):
    """The run pauses before its at-th write of the changes, the server is killed (SIGKILL), the
    run goes on and fails with one line; the server restarted on its data, a run ends it clean."""
    store_url = own_server.url + "/dedup_kills"
    expected, config = scene(tmp_path, store_url)
    go = tmp_path / "go"
    monkeypatch.setenv("DEDUP_TEST_CUT_AT", str(at))
    monkeypatch.setenv("DEDUP_TEST_PAUSE_FILE", str(go))
    with Child([sys.executable, "-c", CHILD, "-c", config, "incremental", "--reconcile"]) as child:
        child.wait_for_line(f"paused at write {at}", timeout=300)
        own_server.kill()
        go.write_text("go")
        assert child.proc.wait(300) == 1
        child.wait_for(lambda: any(line.startswith("Error: ") for line in child.lines), "its Error line")
    monkeypatch.delenv("DEDUP_TEST_PAUSE_FILE")
    own_server.start()
    done = dedup(config, "incremental", "--reconcile", DEDUP_TEST_CUT_AT="0")
    assert done.returncode == 0, done.stderr
    assert outcome(store_url) == expected

"""A run stopped by SIGTERM or SIGKILL leaves no worker processes behind; SIGTERM also frees the lock."""

import os
import signal
import subprocess
import sys

import pytest

from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.store import open_store
from helpers import Child, child_env, children, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def workers_of(pid: int) -> set[int] | None:
    """The child processes of ``pid`` once there are two (the run's workers), else None."""
    found = children(pid)
    return found if len(found) >= 2 else None


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    d = tmp_path_factory.mktemp("signals")
    write_sample_db(f"sqlite:///{d / 'src.db'}", generate_petitions(6000, seed=1))
    (d / "dedup.yaml").write_text(
        'source: {url: "sqlite:///src.db", batch_size: 100}\nstore: {url: "sqlite:///store.db"}\n'
        "text: {workers: 2}\n"
        "tables: {petitions: {key: id, watermark: updated_at, fields: {name: short, title: text, content: text}}}\n",
        encoding="utf-8")
    return d


MID_RUN = """
import sys, threading
from dedup.runs.workers import Workers
from dedup.cli import main
got = Workers.get

def get(self, seq):  # the first batch back from a text worker: say so, then hold the run there
    out = got(self, seq)
    print("a text worker's batch came back", file=sys.stderr, flush=True)
    threading.Event().wait()  # until the test's signal: the run cannot end before it arrives
    return out
Workers.get = get
main()
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_run_leaves_no_workers(project, sig):
    """Signalled once its workers are up and one has sent a batch back (an event on its stderr,
    not a race with a run that may already be over): SIGTERM unwinds (exit 143, the lock freed,
    the run recorded as interrupted), SIGKILL ends the parent alone; either way the workers go."""
    with Child([sys.executable, "-c", MID_RUN, "-c", str(project / "dedup.yaml"), "full", "-q"]) as run:
        run.wait_for_line("a text worker's batch came back")
        workers = run.wait_for(lambda: workers_of(run.pid), "its worker processes")
        code = run.stop(sig)
    assert code == (128 + sig if sig == signal.SIGTERM else -sig), run.lines[-20:]
    wait_until(lambda: not any(alive(w) for w in workers), what="the workers to exit")
    if sig == signal.SIGTERM:
        store = open_store(f"sqlite:///{project / 'store.db'}")
        try:
            store.acquire_lock("petitions", "test:1:x", 60)  # released by the stopped run
            store.release_lock("petitions", "test:1:x")
            last = store.runs("petitions")[0]  # recorded as failed, not left "running"
            assert last.status == "failed" and last.summary["error"].startswith("interrupted")
        finally:
            store.close()


def run_record(store_url: str):
    """The lock is free (taken and given back here) and the last run's record."""
    store = open_store(store_url)
    try:
        store.acquire_lock("petitions", "test:1:x", 60)
        store.release_lock("petitions", "test:1:x")
        return store.runs("petitions")[0]
    finally:
        store.close()


def assert_failed_alone(run: Child, expected: str, processes: set[int]) -> None:
    """The run exited 1 with one line, ``Error: <expected>...``, and left none of ``processes``.
    The deadline only bounds a hang: on a loaded 2-core machine (load 10) the unwinding took over
    60 s."""
    assert run.proc.wait(timeout=300) == 1
    run._reader.join(300)
    assert [line for line in run.lines if line.strip()] == [next(x for x in run.lines if x.startswith("Error: "))]
    assert run.lines[-1].startswith(f"Error: {expected}"), run.lines
    wait_until(lambda: not any(alive(p) for p in processes), what="the run's processes to exit")


def test_a_killed_worker_fails_the_run_at_once_and_frees_the_lock(project):
    """The OOM killer's SIGKILL to one text worker: the pool's other worker waited for good on the
    task queue's lock the dead one held, and the run on it, the table's lock held (issue 27, 4)."""
    with Child([sys.executable, "-m", "dedup", "-c", str(project / "dedup.yaml"), "full", "-q"]) as run:
        workers = run.wait_for(lambda: workers_of(run.pid), "its worker processes to start")
        run.lines.clear()  # (a lock left by the SIGKILL test above is taken over, with a warning)
        os.kill(min(workers), signal.SIGKILL)
        assert_failed_alone(run, "a text worker process was killed by SIGKILL (out of memory?)", workers)
    last = run_record(f"sqlite:///{project / 'store.db'}")
    assert last.status == "failed" and "text worker" in last.summary["error"]


def small_project(d, store: str) -> None:
    """600 rows in d/src.db, read 100 at a time by two text workers, and d/dedup.yaml for them."""
    write_sample_db(f"sqlite:///{d / 'src.db'}", generate_petitions(600, seed=2))
    (d / "dedup.yaml").write_text(
        f'source: {{url: "sqlite:///src.db", batch_size: 100}}\nstore: {{url: "{store}"}}\n'
        "text: {workers: 2}\ntables: {petitions: {key: id, fields: {name: short, title: text, content: text}}}\n",
        encoding="utf-8")


WRITER_RUN = """
import sys, threading
import dedup.runs.full as full, dedup.runs.store_writer as writer
from dedup.cli import main
writer.MIN_ROWS = 0  # a small table written beside too
started = writer.StoreWriter.__init__

def told(self, *a, **k):  # the test kills this process, not whichever child is left
    started(self, *a, **k)
    print(f"store writer pid {self._proc.pid}", file=sys.stderr, flush=True)
writer.StoreWriter.__init__ = told

def settle(*a, **k):  # the parent busy with the groups, for as long as the test needs
    print("finding the groups", file=sys.stderr, flush=True)
    threading.Event().wait()
full.settle_groups = settle
main()
"""


SIGINT_AT_START = {  # how the run's process finds SIGINT: Python's own handler, or ignored, as in a
    "handled": "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)",  # run a shell
    "ignored": "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)",  # started in the background
}


@pytest.mark.parametrize("backend, sigint", [("sqlite", "handled"), ("postgres", "handled"), ("mariadb", "handled"),
                                             ("sqlite", "ignored")])
def test_a_killed_store_writer_fails_the_run_at_once_and_frees_the_lock(request, tmp_path, backend, sigint):
    """The store writer's child killed while the parent finds the groups: the run fails then, not
    when the groups are ready, and the lock is free; also in a run that ignores SIGINT (`dedup full &`
    in a script: the watcher's interrupt was lost there and the run hung, session 39)."""
    store = f"sqlite:///{tmp_path / 'store.db'}" if backend == "sqlite" else request.getfixturevalue(f"{backend}_url")
    small_project(tmp_path, store)
    script = SIGINT_AT_START[sigint] + "\n" + WRITER_RUN
    with Child([sys.executable, "-c", script, "-c", str(tmp_path / "dedup.yaml"), "full", "-q"]) as run:
        pid = int(run.wait_for_line("store writer pid").split()[-1])
        run.wait_for_line("finding the groups")
        run.lines.clear()
        # the text workers end after the features are in (on a busy machine a little after this
        # line): wait for the writer to be the only child left. Killing "the one child left" hung
        # at load 10 once (session 36): a text worker still exiting can be that child.
        writer = run.wait_for(lambda: children(run.pid, live_only=True) == {pid} and {pid},
                              "the store writer process alone")
        os.kill(pid, signal.SIGKILL)
        assert_failed_alone(run, "the store writer process was killed by SIGKILL (out of memory?)", writer)
    last = run_record(store)
    assert last.status == "failed" and "store writer" in last.summary["error"]


def can_unshare() -> bool:
    try:
        return subprocess.run(["unshare", "-p", "-f", "--mount-proc", "true"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def test_a_run_that_is_pid_1_of_a_container_keeps_its_workers(tmp_path):
    """A run that is pid 1 of its pid namespace (``docker run ... dedup full``): its workers took
    their parent's pid 1 for "the parent is gone" and exited at once."""
    if not can_unshare():
        pytest.skip("no permission to make a pid namespace (unshare -p)")
    small_project(tmp_path, f"sqlite:///{tmp_path / 'store.db'}")
    done = subprocess.run(["unshare", "-p", "-f", "--mount-proc", sys.executable, "-m", "dedup", "-c",
                           str(tmp_path / "dedup.yaml"), "full", "-q"], env=child_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "600 rows" in done.stdout

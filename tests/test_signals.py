"""A run stopped by SIGTERM or SIGKILL leaves no worker processes behind; SIGTERM also frees the lock."""

import os
import signal
import sys

import pytest

from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.store import open_store
from helpers import Child, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry))
    return out


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


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_run_leaves_no_workers(project, sig):
    with Child([sys.executable, "-m", "dedup", "-c", str(project / "dedup.yaml"), "full", "-q"]) as run:
        workers = run.wait_for(lambda: workers_of(run.pid), "its worker processes to start")
        code = run.stop(sig)
    assert code == (128 + sig if sig == signal.SIGTERM else -sig)
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

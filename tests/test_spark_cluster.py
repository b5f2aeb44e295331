"""`dedup full --engine spark` on a Spark standalone cluster started here: a master and two workers,
each a process of its own (pyspark's bin/spark-class), at spark://127.0.0.1:7077. The executors
run in the workers' processes, import this checkout's dedup (spark.executorEnv.PYTHONPATH) and
read the source and write the store themselves; the groups and the store are the local run's.

Minutes on two cores (three JVMs and their Python workers): marked slow, as tests/test_spark.py.
"""

from __future__ import annotations

import json
import os
import re
import signal
import urllib.request

import pytest

import dedup
from dedup.runs.full import run_full
from helpers import Child, wait_until
from test_spark import IN_CI, _why_no_spark, block_names, configs, groups_of, sample_db, stored

pytestmark = pytest.mark.slow
PORT, UI_PORT = 7077, 18080  # the master's; its workers' web UIs are on the next two ports
CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(dedup.__file__)))


def spark_class() -> str:
    import pyspark

    return os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-class")


def _line(child: Child, pattern: str, timeout: float = 240) -> re.Match:
    """The first match of ``pattern`` on the child's log (stderr), once it has come."""
    return child.wait_for(lambda: next((m for m in map(re.compile(pattern).search, child.lines) if m), None),
                          f"/{pattern}/ in its log", timeout)


def _stop(children: list[Child]) -> None:
    """Stop the processes this module started (by their PIDs), workers first."""
    for child in reversed(children):
        if child.proc.poll() is None:
            child.stop(signal.SIGTERM)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The master's URL and the workers' PIDs, once two workers are registered with it (ALIVE in its REST state)."""
    why = _why_no_spark()
    if why:
        if IN_CI:
            pytest.fail(f"Spark is required in CI: {why}")
        pytest.skip(why)
    root = tmp_path_factory.mktemp("spark-cluster")
    env = {"SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOCAL_DIRS": str(root / "local")}
    started: list[Child] = []
    try:
        started.append(Child([spark_class(), "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                              "--port", str(PORT), "--webui-port", str(UI_PORT)], env))
        master = started[0]
        url = _line(master, r"Starting Spark master at (spark://\S+)")[1]
        ui = _line(master, r"MasterWebUI.*started at (http://\S+)")[1].replace("0.0.0.0", "127.0.0.1")
        for n in (1, 2):
            started.append(Child([spark_class(), "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1",
                                  "--cores", "1", "--memory", "1g", "--webui-port", str(UI_PORT + n),
                                  "--work-dir", str(root / f"worker-{n}")], env))
        for worker in started[1:]:
            _line(worker, r"Successfully registered with master")
        master.wait_for(lambda: sum("Registering worker" in line for line in master.lines) == 2,
                        "two workers registering", 240)
        with urllib.request.urlopen(f"{ui}/json/", timeout=60) as got:
            state = json.load(got)
        assert [w["state"] for w in state["workers"]] == ["ALIVE", "ALIVE"], state
        yield url, [w.pid for w in started[1:]]
    finally:
        _stop(started)


@pytest.fixture(scope="module")
def session(cluster, tmp_path_factory):
    """A driver on the cluster (spark_session, as `dedup full --engine spark --master URL` makes it),
    its executors on both workers importing this checkout's dedup."""
    from dedup.runs.spark import spark_session

    with pytest.MonkeyPatch.context() as m:
        m.setenv("SPARK_LOCAL_IP", "127.0.0.1")
        m.setenv("PYSPARK_SUBMIT_ARGS", f"--conf spark.executorEnv.PYTHONPATH={CHECKOUT} --conf spark.ui.enabled=false "
                 f"--conf spark.local.dir={tmp_path_factory.mktemp('spark-driver')} pyspark-shell")
        spark = spark_session(cluster[0])
    spark.sparkContext.setLogLevel("ERROR")
    try:
        executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus  # the driver's block manager's and each executor's
        wait_until(lambda: executors().size() == 3, 240, "an executor on each worker")
        yield spark
    finally:
        spark.stop()


def test_the_executors_run_in_both_workers_and_import_this_checkout(session, cluster):
    def ancestors(_task) -> list[int]:
        """The PIDs above a task's Python worker (its daemon, the executor, the Spark worker...);
        nested, so that cloudpickle sends it by value (the executors do not import tests/)."""
        out, pid = [], os.getpid()
        while pid > 1:
            with open(f"/proc/{pid}/stat") as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
            out.append(pid)
        return out

    sc = session.sparkContext
    assert sc.master == cluster[0]
    seen = sc.parallelize(range(8), 8).map(lambda t: (__import__("dedup").__file__, ancestors(t))).collect()
    assert {f for f, _ in seen} == {dedup.__file__}
    assert {w for _, up in seen for w in up if w in cluster[1]} == set(cluster[1])  # every task under a worker


def test_groups_and_store_equal_to_the_local_run(session, tmp_path):
    """At the shipped defaults (what the table shares learned in the executors) on two workers."""
    from dedup.runs.spark import run_full_spark

    source_url, _ = sample_db(tmp_path, 2000, seed=29)
    local_cfg, spark_cfg = configs(tmp_path, source_url)
    local = run_full(local_cfg, "petitions")
    far = run_full_spark(spark_cfg, "petitions", spark=session, partitions=6)
    assert len(local.groups) > 50 and groups_of(far) == groups_of(local)
    assert far.fingerprinted == len(local.keys) and far.keys == []
    names = block_names(local_cfg, local)
    assert stored(spark_cfg, names) == stored(local_cfg, names)

#!/usr/bin/env bash
# Issue 26: the Spark driver's peak memory as the table grows, on a Spark standalone cluster started
# here (a master and two workers, each a process of its own, as tests/test_spark_cluster.py starts
# them), `bench.perf.bench_spark --spark-only` at each size in turn. Run by hand from the repo root:
#
#     bash bench/perf/spark_standalone_driver.sh [ROWS ...]    # default: 100000 200000 400000
#
# Needs the `spark` extra and Java. Prints bench_spark's line for each size (driver peak, driver JVM
# peak, seconds, groups); the cluster's logs go to $LOGS (default: a temp directory).
set -euo pipefail
ROWS=("$@")
[ $# -eq 0 ] && ROWS=(100000 200000 400000)
PY=${PYTHON:-python}
CLASS=$($PY -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-class"))')
LOGS=${LOGS:-$(mktemp -d)}
mkdir -p "$LOGS"
export SPARK_LOCAL_IP=127.0.0.1 SPARK_LOCAL_DIRS=$LOGS/local
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap stop EXIT
"$CLASS" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port 7077 --webui-port 18080 > "$LOGS/master.log" 2>&1 &
pids+=($!)
for n in 1 2; do
  "$CLASS" org.apache.spark.deploy.worker.Worker spark://127.0.0.1:7077 --host 127.0.0.1 --cores 1 \
    --memory "${WORKER_MEMORY:-3g}" --webui-port $((18080 + n)) --work-dir "$LOGS/worker-$n" > "$LOGS/worker-$n.log" 2>&1 &
  pids+=($!)
done
for n in 1 2; do  # each worker says so once the master has it (no sleeps: poll its log, 240 s at most)
  timeout 240 bash -c "until grep -q 'Successfully registered with master' '$LOGS/worker-$n.log'; do sleep 1; done"
done
echo "cluster: spark://127.0.0.1:7077, two workers (1 core, ${WORKER_MEMORY:-3g} each); logs in $LOGS; $(nproc) cores"
export PYSPARK_SUBMIT_ARGS="--conf spark.executorEnv.PYTHONPATH=$PWD --conf spark.executor.memory=${EXECUTOR_MEMORY:-2g} pyspark-shell"
for rows in "${ROWS[@]}"; do
  $PY -m bench.perf.bench_spark --spark-only --rows "$rows" --master spark://127.0.0.1:7077
done

"""A table where one sentence dominates every row: `dedup full` at n and 2n rows, anchored buckets
(the shipped `match.anchors`) beside every pair of a bucket compared (`anchors: null`).

    python -m bench.perf.bench_hot_keys [--sizes 25000,50000] [--baseline-sizes 2500,5000] [--seed 7]
    python -m bench.perf.bench_hot_keys --identical 150000,300000 --sizes '' --baseline-sizes ''

Issue 13's case 5: rows sharing one ~40-character paragraph plus 8 random characters and a name
each (before anchored buckets: 10,000 rows 7.7 GB at 200 s, 50,000 killed at 400 s and 13.3 GB).
Most of each row's band keys fall wholly in the shared paragraph, so a handful of keys hold nearly
every row. Each run is one `run_full` in a fresh process (SQLite source and store in a temp
directory, text.workers auto): wall seconds, peak RSS of that process, candidate pairs (the
recipe's search, timed apart), groups. The rows are not duplicates of each other (8 of ~48
characters differ, short contents need J >= 0.95), so the groups are the few chance ones.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.support import child_env


PARAGRAPH = "关于小区物业长期不作为乱收费以及公共设施损坏无人维修等问题的联名反映恳请有关部门调查处理"
LETTERS = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥天地玄黄宇宙洪荒日月盈昃辰宿列张"


def rows(n: int, seed: int, identical: bool = False) -> list[dict]:
    """The boilerplate rows, or with ``identical`` n copies of one short row (issue 13: 300,000 of
    them once took 512 s and 2.5 GB, and their report was 56 MB of JSON)."""
    import datetime as dt
    rng = random.Random(seed)
    t0 = dt.datetime(2024, 1, 1)
    if identical:
        return [{"id": i, "name": "张三", "content": "小区停车难问题", "updated_at": t0 + dt.timedelta(seconds=i)}
                for i in range(1, n + 1)]
    return [{"id": i, "name": f"居民{rng.randrange(10**6):06d}", "content":
             PARAGRAPH + "".join(rng.choice(LETTERS) for _ in range(8)), "updated_at": t0 + dt.timedelta(seconds=i)}
            for i in range(1, n + 1)]


def measure(n: int, seed: int, anchors: str, identical: bool = False) -> dict:
    """One full run in this process (called in a child by main)."""
    import sqlalchemy as sa

    from dedup.config import parse_config
    from dedup.runs.full import run_full
    from dedup.runs.recipe import Recipe

    work = Path(tempfile.mkdtemp(prefix="dedup-hot-"))
    src = f"sqlite:///{work / 'src.db'}"
    eng = sa.create_engine(src)
    md = sa.MetaData()
    t = sa.Table("petitions", md, sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.Text),
                 sa.Column("content", sa.Text), sa.Column("updated_at", sa.DateTime))
    md.create_all(eng)
    with eng.begin() as c:
        c.execute(t.insert(), rows(n, seed, identical))
    eng.dispose()
    cfg = parse_config({"source": {"url": src}, "store": {"url": f"sqlite:///{work / 'store.db'}"},
                        "match": {} if anchors == "shipped" else {"anchors": None if anchors == "null" else int(anchors)},
                        "tables": {"petitions": {"key": "id", "watermark": "updated_at",
                                                 "fields": {"name": "short", "content": "text"}}}})
    t0 = time.perf_counter()
    result = run_full(cfg)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    recipe = Recipe.of(cfg)
    t1 = time.perf_counter()
    i, _, _ = recipe.near(result.sketches)
    search = time.perf_counter() - t1
    largest = max((g.size for g in result.groups), default=0)
    return {"rows": n, "anchors": anchors + (" identical" if identical else ""), "seconds": round(seconds, 1), "peak_mb": round(peak),
            "candidates": int(len(i)), "search_s": round(search, 2), "groups": len(result.groups), "largest": largest}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="25000,50000", help="rows at the shipped match.anchors")
    ap.add_argument("--baseline-sizes", default="2500,5000", help="rows with anchors: null (every pair of a bucket)")
    ap.add_argument("--identical", default="", help="rows of a table of identical short rows (shipped anchors)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--one", nargs=2, metavar=("ROWS", "ANCHORS"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.one:
        anchors, identical = a.one[1].removesuffix("+identical"), a.one[1].endswith("+identical")
        print(json.dumps(measure(int(a.one[0]), a.seed, anchors, identical)))
        return 0
    print(f"# bench/perf/bench_hot_keys.py --sizes {a.sizes} --baseline-sizes {a.baseline_sizes} "
          f"--identical {a.identical} --seed {a.seed}")
    print(f"# load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| anchors | rows | full s | peak RSS MB | candidate pairs | cand/row | search s | groups | largest | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    sizes = lambda text: [n for n in text.split(",") if n]  # noqa: E731
    runs = [(n, "shipped") for n in sizes(a.sizes)] + [(n, "null") for n in sizes(a.baseline_sizes)] \
        + [(n, "shipped+identical") for n in sizes(a.identical)]
    out = []
    for n, anchors in runs:
        done = subprocess.run([sys.executable, "-m", "bench.perf.bench_hot_keys", "--seed", str(a.seed), "--one", n, anchors],
                              capture_output=True, text=True, check=True, env=child_env())
        r = json.loads(done.stdout.strip().splitlines()[-1])
        out.append(r)
        print(f"| {anchors} | {r['rows']:,} | {r['seconds']} | {r['peak_mb']:,} | {r['candidates']:,} | "
              f"{r['candidates'] / r['rows']:.1f} | {r['search_s']} | {r['groups']} | {r['largest']:,} | "
              f"{os.getloadavg()[0]:.1f} |",
              flush=True)
    for anchors in ("shipped", "null", "shipped identical"):
        pair = [r for r in out if r["anchors"] == anchors]
        if len(pair) == 2:
            print(f"anchors {anchors}: {pair[1]['rows']:,} / {pair[0]['rows']:,} rows: full "
                  f"{pair[1]['seconds'] / pair[0]['seconds']:.2f}x, candidates "
                  f"{pair[1]['candidates'] / max(pair[0]['candidates'], 1):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

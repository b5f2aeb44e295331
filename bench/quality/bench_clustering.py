"""Groups that hold together (issue 22): connected components beside star clustering, measured.

Quality: for each set, a full run (``run_full``, as `dedup full`) with ``groups.clustering`` set to
``components`` and to ``star``; pairwise precision, recall, F1, groups and the largest group
against the truth. Sets: the demo sample, bench/datasets/labelled petitions and persons (the sets the
defaults are chosen on) and this issue's tuning sets (bench/datasets/clustering/planted.py: chains, forms).

Cost: a mass petition of 50,000 identical rows through the default recipe's pairs and groups,
and star clustering alone (``dedup.index.clusters.cluster``) on chains of n and 2n rows, printed
side by side.

    python -m bench.quality.bench_clustering                 # quality at 2,000 rows a set, then the cost
    python -m bench.quality.bench_clustering --rows 20000 --sets petitions,forms
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench.datasets.clustering import planted
from bench.datasets.labelled import persons as persons_set
from bench.datasets.labelled import petitions as petitions_set
from dedup.config import parse_config
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.eval.metrics import pair_quality
from dedup.index.clusters import cluster
from dedup.index.groups import Pair
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe

PETITIONS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
PERSONS = {"name": {"kind": "chars", "n": 1, "weight": 2}, "birth_date": {"kind": "chars", "weight": 2},
           "id_number": {"kind": "chars", "weight": 3}, "phone": {"kind": "chars", "weight": 1.5},
           "address": {"kind": "chars", "weight": 1.5}}


def _labelled(module, table, fields):
    def make(rows: int, db: Path):
        data = getattr(module, f"generate_{table}")(rows, 0)
        module.write_sqlite(data, str(db), table)
        return table, fields, {str(k): v for k, v in data.truth.items()}
    return make


def _demo(rows: int, db: Path):
    sample = generate_petitions(rows, seed=42)
    write_sample_db(f"sqlite:///{db}", sample)
    return "petitions", PETITIONS, {str(r["id"]): str(sample.truth.get(r["id"], f"r{r['id']}")) for r in sample.rows}


def _planted(make):
    def build(rows: int, db: Path):
        data, truth = make(rows)
        write_sample_db(f"sqlite:///{db}", SampleTable(data, {}))
        return "petitions", {"content": "text"}, {str(k): v for k, v in truth.items()}
    return build


SETS = {
    "demo": _demo,
    "petitions": _labelled(petitions_set, "petitions", PETITIONS),
    "persons": _labelled(persons_set, "persons", PERSONS),
    "chains": _planted(lambda rows: planted.chains(max(1, rows // 50), 20)),
    "forms": _planted(lambda rows: planted.forms(rows * 10 // 13)),
}


def quality(name: str, rows: int, workdir: Path) -> list[str]:
    db = workdir / f"{name}.db"
    table, fields, truth = SETS[name](rows, db)
    out = []
    for how in ("components", "star"):
        cfg = parse_config({"source": {"url": f"sqlite:///{db}"}, "store": {"url": f"sqlite:///{workdir / f'{name}-{how}.db'}"},
                            "groups": {"clustering": how}, "text": {"workers": 1},
                            "tables": {table: {"key": "id", "fields": fields}}})
        started = time.perf_counter()
        result = run_full(cfg, table)
        seconds = time.perf_counter() - started
        q = pair_quality([g.keys for g in result.groups], truth)
        out.append(f"| {name} | {len(truth)} | {how} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | {q.groups} "
                   f"| {q.largest_group} | {seconds:.1f} |")
    return out


def _timed(pairs, fp, check) -> tuple[float, int]:
    started = time.perf_counter()
    groups = cluster(pairs, fp, check)
    return time.perf_counter() - started, len(groups)


def cost() -> list[str]:
    """Clustering's time: a mass petition of 50,000 identical rows through the default recipe's
    pairs and groups (Recipe.groups, as `dedup full`), and star clustering alone on chains of n
    and 2n rows (every row linked to the next, no row matching a head it has no pair with)."""
    out = []
    cfg = parse_config({"source": {"url": "sqlite://"}, "tables": {"p": {"key": "id", "fields": PETITIONS}}})
    recipe = Recipe.of(cfg, "p")
    row = {"name": "张三", "phone": "13800000000", "address": "朝阳区", "title": "关于小区噪音的投诉",
           "content": "我家楼下的餐馆每天晚上十点以后还在营业，油烟和噪音很大，严重影响休息。希望有关部门尽快处理。"}
    one = recipe.sketch(recipe.featurizer.hashed([recipe.featurizer.described(row)], [row]))
    n = 50_000
    keys = [str(i) for i in range(1, n + 1)]
    sketches = np.repeat(one, n, axis=0)
    for how in ("components", "star"):
        started = time.perf_counter()
        groups = replace(recipe, clustering=how).groups(keys, sketches)
        seconds = time.perf_counter() - started
        out.append(f"a mass petition, {n:,} identical rows, Recipe.groups (pairs and {how}): "
                   f"{len(groups)} group of {groups[0].size:,} rows, {seconds:.2f} s")
    for m in (100_000, 200_000):
        keys = [str(i) for i in range(m)]
        pairs = [Pair(keys[i], keys[i + 1], 1) for i in range(m - 1)]
        fp = {k: i for i, k in enumerate(keys)}
        for how, check in (("components", None), ("star", lambda ps: [False] * len(ps))):
            seconds, groups = _timed(pairs, fp, check)
            out.append(f"{how} of a chain of {m:,} rows: {groups:,} groups, {seconds:.2f} s "
                       f"({seconds / m * 1e6:.1f} us a row)")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--no-cost", action="store_true")
    args = ap.parse_args(argv)
    print("| set | rows | clustering | precision | recall | F1 | groups | largest | seconds |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            for line in quality(name, args.rows, Path(tmp)):
                print(line, flush=True)
    if not args.no_cost:
        for line in cost():
            print(line)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()

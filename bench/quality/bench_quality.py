"""Detection quality, side by side in one run: the papers' recipe, our default, and MinHash LSH.

For each labelled set (bench/datasets/labelled: petitions, person records) of the given size and seed,
the rows are written to a SQLite table, then:

- each SimHash recipe runs as `dedup full` does (``run_full``: read, featurize, fingerprint,
  candidate search, verification, groups, store write into a fresh SQLite store), timed end to end;
- the MinHash LSH baseline (bench/quality/minhash_baseline.py: datasketch, 128 permutations) groups the
  same rows, timed with its tokenisation;

and pairwise precision, recall and F1 of every method's groups are printed against the truth.

    python -m bench.quality.bench_quality                       # both sets, 20,000 rows each, seed 0
    python -m bench.quality.bench_quality --sets petitions --rows 5000 --seed 3
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench.datasets.labelled import persons as persons_set
from bench.datasets.labelled import petitions as petitions_set
from bench.quality.minhash_baseline import char_ngrams, jieba_tokens, minhash_groups
from bench.support import OUT
from dedup.config import PAPER_RECIPE, parse_config
from dedup.eval.metrics import pair_quality
from dedup.runs.full import run_full

PETITION_TEXT = ["title", "content"]
PERSON_FIELDS = ["name", "gender", "birth_date", "id_number", "phone", "address"]
# name -> (generator module, table, our default fields, the papers' fields, MinHash tokens, threshold)
SETS = {
    "petitions": (petitions_set, "petitions",
                  {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"},
                  {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"},
                  lambda row: jieba_tokens(row, PETITION_TEXT), 0.7, "jieba tokens of title+content, Jaccard >= 0.7"),
    "persons": (persons_set, "persons",
                {"name": {"kind": "chars", "n": 1, "weight": 2}, "birth_date": {"kind": "chars", "weight": 2},
                 "id_number": {"kind": "chars", "weight": 3}, "phone": {"kind": "chars", "weight": 1.5},
                 "address": {"kind": "chars", "weight": 1.5}},
                {f: "short" for f in PERSON_FIELDS},
                lambda row: char_ngrams(row, PERSON_FIELDS, 3), 0.5, "character 3-grams of all fields, Jaccard >= 0.5"),
}


def recipe_config(db: Path, store: Path, table: str, fields: dict, paper: bool, workers) -> dict:
    cfg = {"source": {"url": f"sqlite:///{db}"}, "store": {"url": f"sqlite:///{store}"},
           "text": {"workers": workers}, "tables": {table: {"key": "id", "fields": fields}}}
    if paper:
        cfg["simhash"] = dict(PAPER_RECIPE["simhash"])
        cfg["text"].update(PAPER_RECIPE["text"])
        cfg["tables"][table].update(PAPER_RECIPE["table"])
    return cfg


def run_set(name: str, rows: int, seed: int, workers, out: Path) -> list[dict]:
    module, table, ours, papers, tokens, threshold, token_note = SETS[name]
    gen = getattr(module, f"generate_{name}")
    started = time.perf_counter()
    data = gen(rows, seed)
    print(f"\n## {name}: {len(data.rows):,} rows, seed {seed} (generated in {time.perf_counter() - started:.1f} s)")
    truth = {str(k): str(v) for k, v in data.truth.items()}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / f"{name}.db"
        module.write_sqlite(data, str(db), table)
        for label, fields, paper in (("papers' recipe", papers, True), ("dedup default", ours, False)):
            store = Path(tmp) / f"store-{label[:5]}.db"
            config = parse_config(recipe_config(db, store, table, fields, paper, workers))
            t0 = time.perf_counter()
            res = run_full(config, table)
            seconds = time.perf_counter() - t0
            q = pair_quality([g.keys for g in res.groups], truth)
            tcfg = config.table(table)
            settings = (f"fields fingerprint, sketch {config.sketch_bits} bits, min_field_similarity "
                        f"{config.min_field_similarity}" if tcfg.by_field else
                        f"k={config.max_distance}, sketch {config.sketch_bits} bits, min_similarity {config.min_similarity}")
            results.append({"set": name, "method": label, "seconds": seconds, **q.as_dict(),
                            "settings": f"{settings}, tf {config.text.tf}, idf {config.text.idf}"})
        t0 = time.perf_counter()
        mh = minhash_groups(data.rows, "id", tokens, threshold)
        seconds = time.perf_counter() - t0
        q = pair_quality([[str(k) for k in g] for g in mh.groups], truth)
        results.append({"set": name, "method": "MinHash LSH", "seconds": seconds, **q.as_dict(),
                        "settings": f"datasketch, 128 permutations, {token_note}"})
    print(f"{'method':<16} {'precision':>9} {'recall':>8} {'F1':>8} {'groups':>7} {'seconds':>8}  settings")
    for r in results:
        print(f"{r['method']:<16} {r['precision']:>9.4f} {r['recall']:>8.4f} {r['f1']:>8.4f} {r['groups']:>7} "
              f"{r['seconds']:>8.1f}  {r['settings']}")
    (out / f"quality-{name}-{rows}-{seed}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="petitions,persons")
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", default="auto", help="text.workers for the SimHash runs")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    workers = args.workers if args.workers == "auto" else int(args.workers)
    for name in args.sets.split(","):
        run_set(name.strip(), args.rows, args.seed, workers, out)


if __name__ == "__main__":
    main()

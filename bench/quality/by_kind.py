"""Recall per duplicate kind and false pairs per kind, for dedup and for MinHash LSH, on a folder
written by petitions_news.py or persons_wide.py.

    python -m bench.quality.by_kind DIR [--minhash 0.5,0.6,0.7,0.8,0.9] [--no-dedup]

dedup runs as ``dedup full`` (dedup.runs.full.run_full) with DIR/dedup.yaml (its store goes to a
temporary folder); MinHash LSH is bench/quality/minhash_baseline.py (jieba tokens of title+content for
petitions, character 3-grams of every column for persons), the rows tokenised and MinHashed once
and LSH run at each threshold given (a threshold's seconds include the shared tokenising).
Overall pairwise precision, recall and F1 as dedup eval counts them, then the true pairs found per
kind of cluster and the false pairs per pair of kinds.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter, defaultdict
from functools import partial
from itertools import combinations
from pathlib import Path

import yaml

from dedup.config import parse_config
from dedup.eval.metrics import pair_quality


def read_csv(path: Path, column: str) -> dict[str, str]:
    with open(path, encoding="utf-8", newline="") as fh:
        return {r["key"]: r[column] for r in csv.DictReader(fh)}


def dedup_groups(folder: Path) -> tuple[list[list[str]], float, str]:
    from dedup.runs.full import run_full

    raw = yaml.safe_load((folder / "dedup.yaml").read_text(encoding="utf-8"))
    table = next(iter(raw["tables"]))
    with tempfile.TemporaryDirectory() as tmp:
        raw["store"]["url"] = f"sqlite:///{Path(tmp) / 'store.db'}"
        config = parse_config(raw, base_dir=folder)
        t0 = time.perf_counter()
        res = run_full(config, table)
        return [list(g.keys) for g in res.groups], time.perf_counter() - t0, table


def minhash(folder: Path, table: str, thresholds: list[float]):
    """(threshold, groups, seconds) for each threshold, the rows tokenised and MinHashed once."""
    from bench.quality.minhash_baseline import char_ngrams, jieba_tokens, lsh_groups, read_rows, signatures

    if table == "petitions":
        fields, tokens = ["title", "content"], partial(jieba_tokens, fields=["title", "content"])
    else:
        from bench.datasets.heldout.persons_wide import COLUMNS
        fields = [c for c in COLUMNS if c != "updated_at"]
        tokens = partial(char_ngrams, fields=fields, n=3)
    rows = read_rows(str(folder / f"{table}.db"), table, "id", fields)
    sigs = signatures(rows, "id", tokens)
    for t in thresholds:
        res = lsh_groups(sigs, t)
        yield t, [[str(k) for k in g] for g in res.groups], res.seconds


def report(name: str, groups: list[list[str]], seconds: float, truth: dict, kinds: dict) -> None:
    q = pair_quality(groups, truth)
    print(f"\n{name}: precision {q.precision:.4f}  recall {q.recall:.4f}  F1 {q.f1:.4f}  "
          f"(true {q.true_pairs}, predicted {q.predicted_pairs}, correct {q.correct_pairs}; {seconds:.1f} s)")
    clusters = defaultdict(list)
    for k, c in truth.items():
        clusters[c].append(k)
    group_of = {k: i for i, g in enumerate(groups) for k in g}
    found, total, false = Counter(), Counter(), Counter()
    for keys in clusters.values():
        for a, b in combinations(keys, 2):
            total[kinds[a]] += 1
            found[kinds[a]] += a in group_of and group_of[a] == group_of.get(b)
    for g in groups:
        for a, b in combinations(g, 2):
            if truth.get(a) != truth.get(b):
                false[" + ".join(sorted((kinds.get(a, "?"), kinds.get(b, "?"))))] += 1
    for kind in sorted(total):
        print(f"  recall {kind:<16} {found[kind] / total[kind]:.3f}  ({found[kind]} of {total[kind]} pairs)")
    for pair, n in false.most_common(8):
        print(f"  false pairs {pair}: {n}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--minhash", default="", help="comma-separated Jaccard thresholds")
    ap.add_argument("--no-dedup", action="store_true")
    args = ap.parse_args(argv)
    folder = Path(args.folder).resolve()
    truth, kinds = read_csv(folder / "truth.csv", "cluster"), read_csv(folder / "kinds.csv", "kind")
    table = "petitions" if (folder / "petitions.db").exists() else "persons"
    if not args.no_dedup:
        groups, seconds, table = dedup_groups(folder)
        report(f"dedup ({folder / 'dedup.yaml'})", groups, seconds, truth, kinds)
    for t, groups, seconds in minhash(folder, table, [float(t) for t in filter(None, args.minhash.split(","))]):
        report(f"MinHash LSH at {t}", groups, seconds, truth, kinds)


if __name__ == "__main__":
    main()

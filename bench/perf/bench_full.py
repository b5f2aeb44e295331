"""Full-run benchmark on the synthetic petitions table: speed of each stage next to its baseline, and quality.

Run by hand (not part of the tests):

    python -m bench.perf.bench_full [--sizes 10000,100000] [--seed 42] [--out bench/out] [--postgres]

For each size N the sample (``generate_petitions(N, seed)``) is written to a SQLite file in a temp
directory. Every number printed is measured in this run, in one process; nothing is copied from
elsewhere. The numbers also go to ``<out>/full-<N>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import yaml
from cityhash import CityHash64

from bench.support import (OUT, POSTGRES_URL, machine_facts, pairs2, postgres_reachable, postgres_schema,
                           rate, sqlite_url, subsample, timed)

from dedup.index.candidates import brute_force_pairs, near_pairs
from dedup.config import Config, parse_config
from dedup.demo import DEMO_CONFIG
from dedup.text.features import Featurizer
from dedup.index.fingerprint import simhash_batch
from dedup.runs.parallel import resolve_workers
from dedup.runs.full import FullResult, run_full
from dedup.runs.recipe import Recipe
from dedup.demo.generator import SampleTable, generate_petitions, write_sample_db
from dedup.text.segment import tokenizer
from dedup.db.source import Source

MAX_DISTANCE = 3
PY_SIMHASH_MAX_ROWS = 5_000  # the pure-Python loop is slow on 100k rows; a subsample gives its rate
BRUTE_FORCE_MAX_ROWS = 20_000  # all-pairs is quadratic; a subsample checks agreement and its cost
SHORT_CONTENT = 40  # characters: content shorter than this (or NULL/blank) counts as a short text
HAMMING_BUCKETS = 8  # distances 0..7 counted one by one, then "8+"


# ---------------------------------------------------------------------------------------------
# Config and databases


def bench_config(source_url: str, store_url: str, workers: int | str = 1) -> Config:
    """The demo's table config (name/phone/address short; title/content text) with absolute URLs.

    ``workers`` is 1 by default so the whole run is one process like every other measurement.
    """
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"] = source_url
    raw["store"]["url"] = store_url
    raw["simhash"]["max_distance"] = MAX_DISTANCE
    raw.setdefault("text", {})["workers"] = workers
    return parse_config(raw, origin="bench")


# ---------------------------------------------------------------------------------------------
# Speed: segmentation, features, SimHash


def bench_segmentation(rows: list[dict]) -> dict:
    """The cost to beat: jieba alone over title+content, with no normalising, filtering or hashing."""
    tok = tokenizer()
    tok.lcut("预热分词器")  # the dictionary loads on first use; keep that out of the timing

    def run() -> int:
        n = 0
        for r in rows:
            for text in (r["title"], r["content"]):
                if text:
                    n += len(tok.lcut(text))
        return n

    tokens, secs = timed(run)
    return {"rows": len(rows), "seconds": secs, "rows_per_s": rate(len(rows), secs), "tokens": tokens}


def bench_featurize(featurizer: Featurizer, rows: list[dict]) -> tuple[list[dict], dict]:
    """Featurizer.features over every row in memory (no DB I/O); rows without features are dropped."""
    feats, secs = timed(lambda: [featurizer.features(r) for r in rows])
    kept = [f for f in feats if f]
    return kept, {"rows": len(rows), "seconds": secs, "rows_per_s": rate(len(rows), secs),
                  "rows_without_features": len(feats) - len(kept),
                  "features_per_row": sum(map(len, kept)) / max(len(kept), 1)}


def simhash_textbook(features: dict[str, float]) -> int:
    """The per-token, per-bit loop of the SimHash papers, in plain Python: the baseline to beat."""
    v = [0.0] * 64
    for feature, weight in features.items():
        h = CityHash64(feature.encode("utf-8"))
        for i in range(64):
            if h >> i & 1:
                v[i] += weight
            else:
                v[i] -= weight
    return sum(1 << i for i in range(64) if v[i] > 0)


def bench_simhash(feats: list[dict], seed: int) -> tuple[np.ndarray, dict, dict]:
    """simhash_batch on all rows, and the textbook loop on a subsample (checked to give the same bits)."""
    fps, secs = timed(simhash_batch, feats)
    hash_secs = timed(lambda: [CityHash64(f.encode("utf-8")) for r in feats for f in r])[1]
    vec = {"rows": len(feats), "seconds": secs, "rows_per_s": rate(len(feats), secs),
           "cityhash_only_seconds": hash_secs}
    sub = [feats[i] for i in subsample(len(feats), PY_SIMHASH_MAX_ROWS, seed)]
    py, py_secs = timed(lambda: [simhash_textbook(f) for f in sub])
    _, vec_sub_secs = timed(simhash_batch, sub)
    base = {"rows": len(sub), "subsample": len(sub) < len(feats), "seconds": py_secs,
            "rows_per_s": rate(len(sub), py_secs), "simhash_batch_same_rows_per_s": rate(len(sub), vec_sub_secs),
            "agrees_with_simhash_batch": py == [int(x) for x in simhash_batch(sub)]}
    return fps, vec, base


# ---------------------------------------------------------------------------------------------
# Speed: pair search


def pair_set(i: np.ndarray, j: np.ndarray) -> set[tuple[int, int]]:
    return set(zip(i.tolist(), j.tolist()))


def bench_pairs(fps: np.ndarray, config: Config, seed: int) -> dict:
    """near_pairs on all N fingerprints; near_pairs vs brute_force_pairs on the same subsample, which must agree."""
    layout = Recipe.of(config).layout
    (i, _, _), secs = timed(near_pairs, fps, layout)
    sub = fps[subsample(len(fps), BRUTE_FORCE_MAX_ROWS, seed)]
    (si, sj, _), near_secs = timed(near_pairs, sub, layout)
    (bi, bj), brute_secs = timed(brute_force_pairs, sub, config.max_distance)
    return {"rows": len(fps), "near_pairs_seconds": secs, "pairs": int(i.shape[0]),
            "subsample_rows": len(sub), "subsample": len(sub) < len(fps),
            "near_pairs_subsample_seconds": near_secs, "brute_force_subsample_seconds": brute_secs,
            "subsample_pairs": int(si.shape[0]), "agree": pair_set(si, sj) == pair_set(bi, bj)}


# ---------------------------------------------------------------------------------------------
# Whole run, and where its time goes


def read_all(source_url: str, config: Config) -> int:
    """Stream every row through Source, doing nothing with it: the DB read cost alone."""
    with Source(source_url, config.table(None), config.batch_size) as source:
        return sum(len(b.rows) + len(b.unreadable) for b in source.batches())


class LastBatchClock:
    """run_full's progress callback, used only to note when the last batch was fingerprinted.

    That instant splits the run, without touching its code, into open+read+fingerprint (source and
    store opened, every batch read and fingerprinted) and groups+store (pairs, groups, store write, close).
    """

    def __init__(self) -> None:
        self.last = time.perf_counter()

    def __call__(self, rows: int) -> None:
        self.last = time.perf_counter()


def bench_run(label: str, source_url: str, store_url: str, workers: int | str = 1) -> tuple[FullResult, dict]:
    """run_full end to end (split in two by its progress callback), then reading and grouping alone."""
    config = bench_config(source_url, store_url, workers)
    clock = LastBatchClock()
    start = time.perf_counter()
    result = run_full(config, progress=clock)
    end = time.perf_counter()
    secs = end - start
    read_secs = timed(read_all, source_url, config)[1]
    groups_secs = timed(Recipe.of(config).groups, result.keys, result.sketches)[1]
    return result, {"label": label, "rows": result.rows_read, "seconds": secs,
                    "rows_per_s": rate(result.rows_read, secs), "groups": len(result.groups),
                    "in_run_read_fingerprint_seconds": clock.last - start,
                    "in_run_groups_store_seconds": end - clock.last,
                    "read_seconds": read_secs, "find_groups_seconds": groups_secs,
                    "store_seconds_estimate": max(end - clock.last - groups_secs, 0.0)}


def bench_runs(sample: SampleTable, tmp: Path, with_postgres: bool) -> tuple[FullResult, list[dict]]:
    """SQLite -> SQLite (one process, then text.workers auto); with --postgres also a PostgreSQL store and source."""
    src = sqlite_url(tmp, "petitions.db")
    result, first = bench_run("sqlite -> sqlite", src, sqlite_url(tmp, "store.db"))
    label = f"sqlite -> sqlite, {resolve_workers('auto')} workers (auto)"
    parallel, second = bench_run(label, src, sqlite_url(tmp, "store-auto.db"), "auto")
    second["same_fingerprints_as_one_process"] = bool(np.array_equal(parallel.fingerprints, result.fingerprints))
    runs = [first, second]
    if with_postgres:
        with postgres_schema() as store:
            runs.append(bench_run("sqlite -> postgres", src, store)[1])
        with postgres_schema() as pg_src, postgres_schema() as store:
            _, load_secs = timed(write_sample_db, pg_src, sample)
            row = bench_run("postgres -> postgres", pg_src, store)[1]
            runs.append({**row, "sample_load_seconds": load_secs})
    return result, runs


# ---------------------------------------------------------------------------------------------
# Quality against the planted clusters


def quality(result: FullResult, sample: SampleTable) -> dict:
    """Pairwise precision/recall/F1 by counting (never listing) pairs inside groups and clusters."""
    cluster_of = {str(k): c for k, c in sample.truth.items()}
    cluster_sizes = Counter(sample.truth.values())
    true_pairs = sum(pairs2(s) for s in cluster_sizes.values())
    predicted = sum(pairs2(g.size) for g in result.groups)
    tp = sum(pairs2(c) for g in result.groups for c in Counter(cluster_of[k] for k in g.keys).values())
    precision = tp / predicted if predicted else 0.0
    recall = tp / true_pairs if true_pairs else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    planted = {c for c, s in cluster_sizes.items() if s >= 2}
    exact = sum(1 for g in result.groups
                if len({cluster_of[k] for k in g.keys}) == 1 and cluster_sizes[cluster_of[g.keys[0]]] == g.size)
    return {"precision": precision, "recall": recall, "f1": f1, "true_pairs": true_pairs,
            "predicted_pairs": predicted, "true_positive_pairs": tp, "false_positive_pairs": predicted - tp,
            "groups": len(result.groups), "planted_clusters": len(planted),
            "groups_equal_to_a_cluster": exact,
            "largest_group": max((g.size for g in result.groups), default=0),
            "true_pair_distances": true_pair_distances(result, sample)}


def true_pair_distances(result: FullResult, sample: SampleTable) -> dict:
    """How many true pairs lie at each Hamming distance: those above k are only found by chaining, if at all."""
    fp_of = dict(zip(result.keys, (int(v) for v in result.fingerprints)))
    members: dict[int, list[str]] = {}
    for k, c in sample.truth.items():
        members.setdefault(c, []).append(str(k))
    hist = Counter()
    for keys in members.values():
        for a in range(len(keys)):
            for b in range(a + 1, len(keys)):
                fa, fb = fp_of.get(keys[a]), fp_of.get(keys[b])
                if fa is None or fb is None:
                    hist["no fingerprint"] += 1
                else:
                    hist[min((fa ^ fb).bit_count(), HAMMING_BUCKETS)] += 1
    out = {str(d): hist[d] for d in range(HAMMING_BUCKETS)}
    out[f"{HAMMING_BUCKETS}+"] = hist[HAMMING_BUCKETS]
    out["no fingerprint"] = hist["no fingerprint"]
    return out


def is_short(row: dict) -> bool:
    content = row["content"]
    return content is None or len(content.strip()) < SHORT_CONTENT


def short_texts(result: FullResult, sample: SampleTable) -> dict:
    """False-positive pairs split by whether either row is short, counted per group like quality()."""
    cluster_of = {str(r["id"]): sample.truth[r["id"]] for r in sample.rows}
    short = {str(r["id"]) for r in sample.rows if is_short(r)}
    fp_total = fp_long = 0
    for g in result.groups:
        fp_total += pairs2(g.size) - sum(pairs2(c) for c in Counter(cluster_of[k] for k in g.keys).values())
        long_keys = [k for k in g.keys if k not in short]
        fp_long += pairs2(len(long_keys)) - sum(pairs2(c) for c in Counter(cluster_of[k] for k in long_keys).values())
    in_groups = sum(1 for g in result.groups for k in g.keys if k in short)
    return {"short_rows": len(short), "short_rows_in_groups": in_groups, "false_positive_pairs": fp_total,
            "fp_pairs_with_a_short_row": fp_total - fp_long, "fp_pairs_both_long": fp_long}


# ---------------------------------------------------------------------------------------------
# One size, printing


def bench_size(n: int, seed: int, with_postgres: bool) -> dict:
    load_at_start = os.getloadavg()[0]
    sample = generate_petitions(n, seed=seed)
    with tempfile.TemporaryDirectory(prefix="dedup-bench-") as d:
        tmp = Path(d)
        write_sample_db(sqlite_url(tmp, "petitions.db"), sample)
        config = bench_config(sqlite_url(tmp, "petitions.db"), sqlite_url(tmp, "store.db"))
        featurizer = Recipe.of(config).featurizer
        seg = bench_segmentation(sample.rows)
        feats, feat = bench_featurize(featurizer, sample.rows)
        fps, vec, py = bench_simhash(feats, seed)
        fp_secs = feat["seconds"] + vec["seconds"]
        fingerprinting = {"rows": n, "seconds": fp_secs, "rows_per_s": rate(n, fp_secs)}
        pairs = bench_pairs(fps, config, seed)
        del feats
        result, runs = bench_runs(sample, tmp, with_postgres)
    return {"rows": n, "seed": seed, "max_distance": MAX_DISTANCE, "machine": machine_facts(),
            "load_average_1min_at_start": load_at_start,
            "segmentation": seg, "featurize": feat, "simhash_batch": vec, "simhash_python": py,
            "fingerprinting": fingerprinting, "pair_search": pairs, "full_runs": runs,
            "same_fingerprints_in_memory_and_run": bool(np.array_equal(fps, result.fingerprints)),
            "quality": quality(result, sample), "short_texts": short_texts(result, sample)}


def fmt_rate(x: float) -> str:
    return f"{x:>12,.0f}"


def speed_lines(r: dict) -> list[str]:
    py, pairs = r["simhash_python"], r["pair_search"]
    sub_py = f"subsample of {py['rows']:,} rows" if py["subsample"] else "all rows"
    sub_bf = f"subsample of {pairs['subsample_rows']:,} rows" if pairs["subsample"] else "all rows"
    rows = [
        ("segmentation alone: jieba lcut(title), lcut(content)", r["segmentation"], "baseline: the cost to beat"),
        ("fingerprinting: featurize + simhash_batch", r["fingerprinting"], "no DB I/O"),
        ("  featurize (Featurizer.features)", r["featurize"], f"{r['featurize']['features_per_row']:.0f} features/row"),
        ("  simhash_batch (numpy), precomputed features", r["simhash_batch"],
         f"of which {r['simhash_batch']['cityhash_only_seconds']:.2f}s is the CityHash64 calls alone"),
        ("  simhash textbook loop (pure Python)", py,
         f"{sub_py}; same bits: {'yes' if py['agrees_with_simhash_batch'] else 'NO'}; "
         f"simhash_batch on these rows {py['simhash_batch_same_rows_per_s']:,.0f} rows/s"),
    ]
    out = [f"{'stage':<55}{'rows':>9}{'seconds':>10}{'rows/s':>13}  note", "-" * 110]
    out += [f"{name:<55}{m['rows']:>9,}{m['seconds']:>10.2f}{fmt_rate(m['rows_per_s'])}  {note}" for name, m, note in rows]
    out += [
        f"{'pair search: near_pairs (block search), all rows':<55}{pairs['rows']:>9,}"
        f"{pairs['near_pairs_seconds']:>10.2f}"
        f"{'':>13}  {pairs['pairs']:,} pairs within k={r['max_distance']}",
        f"{'  near_pairs on the brute-force rows':<55}{pairs['subsample_rows']:>9,}"
        f"{pairs['near_pairs_subsample_seconds']:>10.2f}{'':>13}  {sub_bf}",
        f"{'  brute_force_pairs (all pairs)':<55}{pairs['subsample_rows']:>9,}"
        f"{pairs['brute_force_subsample_seconds']:>10.2f}{'':>13}  {sub_bf}; "
        f"{pairs['subsample_pairs']:,} pairs; agree={'yes' if pairs['agree'] else 'no'}",
    ]
    for run in r["full_runs"]:
        out.append(f"{'whole run_full: ' + run['label']:<55}{run['rows']:>9,}{run['seconds']:>10.2f}"
                   f"{fmt_rate(run['rows_per_s'])}  {run['groups']:,} groups")
        out.append(f"{'':<55}{'':>9}{'':>10}{'':>13}  in the run: open+read+fingerprint "
                   f"{run['in_run_read_fingerprint_seconds']:.2f}s, groups+store {run['in_run_groups_store_seconds']:.2f}s")
        out.append(f"{'':<55}{'':>9}{'':>10}{'':>13}  measured alone: read {run['read_seconds']:.2f}s, "
                   f"find_groups {run['find_groups_seconds']:.2f}s -> store write etc. ~{run['store_seconds_estimate']:.2f}s")
        if "same_fingerprints_as_one_process" in run:
            same = "yes" if run["same_fingerprints_as_one_process"] else "NO"
            out.append(f"{'':<55}{'':>9}{'':>10}{'':>13}  same fingerprints as the one-process run: {same}")
    return out


def quality_lines(r: dict) -> list[str]:
    q, s = r["quality"], r["short_texts"]
    dist = "  ".join(f"{d}:{c:,}" for d, c in q["true_pair_distances"].items())
    return [
        f"quality vs planted clusters (k={r['max_distance']}, pairwise): precision {q['precision']:.4f}  "
        f"recall {q['recall']:.4f}  F1 {q['f1']:.4f}",
        f"  pairs: true {q['true_pairs']:,}  predicted {q['predicted_pairs']:,}  "
        f"correct {q['true_positive_pairs']:,}  false positive {q['false_positive_pairs']:,}",
        f"  groups found {q['groups']:,}  planted clusters (size>=2) {q['planted_clusters']:,}  "
        f"groups equal to a planted cluster {q['groups_equal_to_a_cluster']:,}  largest group {q['largest_group']}",
        f"  true pairs by Hamming distance: {dist}",
        f"short texts (content < {SHORT_CONTENT} chars or NULL/blank): {s['short_rows']} rows, "
        f"{s['short_rows_in_groups']} of them in groups; false-positive pairs with a short row "
        f"{s['fp_pairs_with_a_short_row']:,}, between two longer rows {s['fp_pairs_both_long']:,}",
        f"fingerprints from run_full == in-memory fingerprints: "
        f"{'yes' if r['same_fingerprints_in_memory_and_run'] else 'NO'}",
    ]


def print_report(r: dict) -> None:
    print(f"\n== {r['rows']:,} rows (seed {r['seed']}, k={r['max_distance']}; load average "
          f"{r['load_average_1min_at_start']:.2f} at start, {r['machine']['load_average_1min']:.2f} at end) ==")
    print("\n".join(speed_lines(r)))
    print()
    print("\n".join(quality_lines(r)))
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated row counts")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--postgres", action="store_true",
                    help=f"also run with a PostgreSQL store, and a PostgreSQL source ({POSTGRES_URL})")
    args = ap.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    if args.postgres and (why := postgres_reachable()):
        ap.error(f"--postgres: PostgreSQL not reachable at {POSTGRES_URL}: {why}")
    m = machine_facts()
    print(f"python {m['python']} ({m['implementation']}), {m['cpu_count']} CPUs, {m['platform']}, "
          f"numpy {m['numpy']}; one process (text.workers: 1) except the run marked 'workers (auto)'; {m['date']}")
    args.out.mkdir(parents=True, exist_ok=True)
    for n in sizes:
        r = bench_size(n, args.seed, args.postgres)
        print_report(r)
        (args.out / f"full-{n}.json").write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

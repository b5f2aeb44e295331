"""Candidate search over 250k / 500k / 1M rows: the default MinHash band keys beside the papers'
SimHash k = 3 blocks, each size measured in a fresh process.

    python -m bench.perf.bench_candidates [--sizes 250000,500000,1000000] [--seed 42]
        [--cache bench/out/candidates] [--attempts 3] [--max-load 1.5] [--also-rev REV]

No text is segmented. Each row is a set of random 64-bit shingle hashes (a content of 12-59
cleaned characters for 8 % of the rows, 60-240 for the rest; a character 3-gram each, plus 0-2
numbers as two features each), and 3 identity hashes (name, phone, address). Planted clusters of
2-6 rows copy one row's set with up to a ninth of its shingles replaced (Jaccard about 0.8-1 to
the original), keeping its identity hashes half the time; 8 % of the rows are copies. The sets go
through the real code: ``TextSignature.of_features`` (64 MinHash values) and
``fingerprint.sketch`` (the 64-bit SimHash fingerprint, unit weights standing in for the jieba
terms). The rows are made in chunks of 50,000, each from (seed, chunk) and cached in ``--cache``,
so a size is the first size/50,000 chunks and a smaller size is a prefix of a larger one.

Measured, in a fresh process per method and size (so peak RSS is that size's):
- ``default``: ``Recipe.of(config).near(sketches)`` with the shipped defaults (DEMO_CONFIG:
  13 bands of 4 MinHash values + 3 identity keys for short contents, ``key_pairs``), then
  ``recipe.verify`` on the candidates; ``key_pairs`` alone is timed again afterwards;
- ``simhash k=3``: the papers' recipe (``match.method: simhash``, PAPER_RECIPE: max_distance 3,
  64-bit fingerprints), ``Recipe.near`` = ``near_pairs`` over 4 blocks of 16 bits; no verification.

Wall and CPU seconds are the search alone (inputs loaded before). Peak RSS is the process's high
water mark after the search and verification (inputs included); "input MB" is the RSS before the
search. Recall counts the planted pairs (every pair inside a cluster) among the candidates and
among the verified pairs. The 1-minute load average is read before and after every measurement;
one taken above ``--max-load`` is repeated after the others (up to ``--attempts`` in all) and the
fastest is reported, with its load. ``--also-rev`` adds ``default`` with the ``key_pairs`` of
dedup/index/minhash.py at a git revision (e.g. the one before a change) for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import yaml

from bench.support import ROOT, child_env, machine_facts
from dedup.config import PAPER_RECIPE, parse_config
from dedup.demo import DEMO_CONFIG
from dedup.index import fingerprint
from dedup.index import bands
from dedup.index.minhash import bucket_sizes, key_pairs
from dedup.runs.recipe import Recipe

CHUNK = 50_000  # rows generated (and cached) together
COPIES = 0.08  # share of rows that are planted copies
SHORT = 0.08  # share of originals with a short content
CLUSTER_SIZES = (2, 3, 4, 5, 6)
CLUSTER_WEIGHTS = (0.55, 0.2, 0.12, 0.08, 0.05)
METHODS = ("default", "simhash k=3")


def config(paper: bool):
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"] = "sqlite:////nonexistent/unused.db"  # never opened
    raw["store"]["url"] = "sqlite:////nonexistent/unused-store.db"
    if paper:
        raw["match"] = dict(PAPER_RECIPE["match"])
        raw["simhash"] = dict(PAPER_RECIPE["simhash"])
        raw["text"].update(PAPER_RECIPE["text"])
        raw["tables"]["petitions"].update(PAPER_RECIPE["table"])
    return parse_config(raw, origin="bench")


# ---------------------------------------------------------------------------------------------
# Synthetic rows


def make_chunk(seed: int, chunk: int) -> dict[str, np.ndarray]:
    """CHUNK rows: sketches (rows, 1 + signature words) as the default recipe makes them, and the
    planted cluster of each row (-1: none; numbered chunk * CHUNK + c)."""
    rng = np.random.default_rng([seed, chunk])
    recipe = Recipe.of(config(paper=False))
    signature = recipe.featurizer.signature
    sizes = []
    while sum(sizes) < CHUNK * COPIES / (1 - 1 / 3):  # copies are about 2/3 of the clustered rows
        sizes.append(int(rng.choice(CLUSTER_SIZES, p=CLUSTER_WEIGHTS)))
    originals = CHUNK - sum(s - 1 for s in sizes)
    short = rng.random(originals) < SHORT
    length = np.where(short, rng.integers(12, 60, originals), rng.integers(60, 241, originals))
    count = length - 2 + 2 * rng.integers(0, 3, originals)  # 3-grams, then the numbers twice each
    hashes = list(np.split(rng.integers(1, 2**64, int(count.sum()), dtype=np.uint64, endpoint=False),
                           np.cumsum(count)[:-1]))
    identity = rng.integers(1, 2**64, (originals, len(signature.identity)), dtype=np.uint64) | np.uint64(1)
    lengths = list(length)
    cluster = np.full(originals, -1, np.int64)
    cluster[:len(sizes)] = np.arange(len(sizes)) + chunk * CHUNK
    ids, labels = [identity], [cluster]
    for c, s in enumerate(sizes):  # row c is the original of cluster c
        for _ in range(s - 1):
            h = hashes[c].copy()
            changed = rng.choice(len(h), size=max(1, int(len(h) * rng.random() / 9)), replace=False)
            h[changed] = rng.integers(1, 2**64, len(changed), dtype=np.uint64, endpoint=False)
            hashes.append(h)
            lengths.append(max(1, int(length[c]) + int(rng.integers(-3, 4))))
            same = rng.random() < 0.5
            ids.append(identity[c:c + 1] if same else rng.integers(1, 2**64, (1, identity.shape[1]),
                                                                   dtype=np.uint64) | np.uint64(1))
            labels.append(np.array([chunk * CHUNK + c]))
    counts = np.array([len(h) for h in hashes], np.int64)
    flat = np.concatenate(hashes)
    sig = signature.of_features(np.array(lengths), np.vstack(ids), (flat, counts))
    fp = fingerprint.sketch(flat, np.ones(len(flat)), counts, words=recipe.words)
    order = rng.permutation(CHUNK)
    return {"sketches": np.hstack([fp, sig])[order], "cluster": np.concatenate(labels)[order]}


def load_rows(n: int, seed: int, cache: Path, columns: slice = slice(None)) -> tuple[np.ndarray, np.ndarray]:
    """The first n rows (n a multiple of CHUNK): sketches (only ``columns``) and clusters."""
    parts, clusters = [], []
    for chunk in range(n // CHUNK):
        path = chunk_path(cache, seed, chunk)
        with np.load(path) as z:
            parts.append(np.ascontiguousarray(z["sketches"][:, columns]))
            clusters.append(z["cluster"])
    return np.vstack(parts), np.concatenate(clusters)


def chunk_path(cache: Path, seed: int, chunk: int) -> Path:
    return cache / f"seed{seed}-chunk{chunk}-of{CHUNK}.npz"


def ensure_cache(n: int, seed: int, cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for chunk in range(n // CHUNK):
        path = chunk_path(cache, seed, chunk)
        if not path.exists():
            started = time.perf_counter()
            np.savez(path.with_suffix(".tmp.npz"), **make_chunk(seed, chunk))
            path.with_suffix(".tmp.npz").rename(path)
            print(f"  generated chunk {chunk} in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# One measurement (in its own process)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    """This process's peak RSS since exec (VmHWM; ru_maxrss would keep the forking parent's)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024


def key_pairs_at(rev: str):
    """``key_pairs`` of dedup/index/minhash.py at git revision ``rev``."""
    source = subprocess.run(["git", "show", f"{rev}:dedup/index/minhash.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType(f"minhash_at_{rev}")
    exec(compile(source, module.__name__, "exec"), module.__dict__)
    return module.key_pairs


def measure(method: str, n: int, seed: int, cache: Path, rev: str | None) -> dict:
    paper = method == "simhash k=3"
    recipe = Recipe.of(config(paper))
    pairs_fn = key_pairs_at(rev) if rev else key_pairs
    bands.key_pairs = pairs_fn  # BandScheme.near looks it up here
    sk, cluster = load_rows(n, seed, cache, slice(0, 1) if paper else slice(None))
    if paper:
        sk = np.ascontiguousarray(sk[:, 0])
    before = rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    i, j, _ = recipe.near(sk)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    verify_s, kept = None, np.ones(len(i), bool)
    if recipe.verifier is not None:
        verify_s = time.perf_counter()
        kept = recipe.verify(sk[i], sk[j])
        verify_s = time.perf_counter() - verify_s
    peak = peak_mb()
    if paper:
        keys = recipe.layout.values(sk)
        sizes = np.concatenate([np.unique(col, return_counts=True)[1] for col in keys.T])
        keys_per_row, pairs_s = float(keys.shape[1]), None
    else:
        keys = recipe.scheme.keys(recipe.signatures(sk))
        sizes = bucket_sizes(keys)
        keys_per_row = float((keys != 0).sum()) / n
        pairs_s = time.perf_counter()
        pairs_fn(keys)
        pairs_s = time.perf_counter() - pairs_s
    planted = planted_pairs(cluster)
    found = (cluster[i] == cluster[j]) & (cluster[i] >= 0)
    return {"method": method + (f" (key_pairs @{rev})" if rev else ""), "rows": n, "wall_s": wall,
            "cpu_s": cpu, "key_pairs_s": pairs_s, "verify_s": verify_s, "peak_rss_mb": peak,
            "input_rss_mb": before, "keys_per_row": keys_per_row, "candidates_per_row": len(i) / n,
            "largest_bucket": int(sizes.max()) if len(sizes) else 0, "planted_pairs": planted,
            "recall_candidates": int(found.sum()) / planted, "recall_verified": int((found & kept).sum()) / planted}


def planted_pairs(cluster: np.ndarray) -> int:
    _, sizes = np.unique(cluster[cluster >= 0], return_counts=True)
    return int((sizes * (sizes - 1) // 2).sum())


# ---------------------------------------------------------------------------------------------
# Driver


def run_child(method: str, n: int, args) -> dict:
    cmd = [sys.executable, "-m", "bench.perf.bench_candidates", "--child", method, "--sizes", str(n), "--seed", str(args.seed),
           "--cache", str(args.cache)] + (["--also-rev", args.rev] if args.rev else [])
    load_before = os.getloadavg()[0]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=child_env()).stdout
    result = json.loads(out.strip().splitlines()[-1])
    result["load"] = [load_before, os.getloadavg()[0]]
    print(f"  {result['method']:<34} {n:>9,} rows: {result['wall_s']:.2f} s, peak {result['peak_rss_mb']:.0f} MB"
          f" (load {load_before:.2f} -> {result['load'][1]:.2f})", file=sys.stderr, flush=True)
    return result


def fmt(x, spec: str) -> str:
    return "–" if x is None else format(x, spec)


def table(best: dict) -> str:
    head = ("| method | rows | search wall s | search CPU s | of which key_pairs s | verify s | peak RSS MB "
            "| input RSS MB | keys/row | candidates/row | largest bucket | recall candidates | recall verified "
            "| load before/after |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in best.values():
        lines.append(
            f"| {r['method']} | {r['rows']:,} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {fmt(r['key_pairs_s'], '.2f')} "
            f"| {fmt(r['verify_s'], '.2f')} | {r['peak_rss_mb']:.0f} | {r['input_rss_mb']:.0f} | {r['keys_per_row']:.2f} "
            f"| {r['candidates_per_row']:.3f} | {r['largest_bucket']:,} | {r['recall_candidates']:.4f} "
            f"| {r['recall_verified']:.4f} | {r['load'][0]:.2f} / {r['load'][1]:.2f} |")
    return "\n".join(lines)


def ratios(best: dict, sizes: list[int]) -> str:
    lo, hi = min(sizes), max(sizes)
    out = []
    for method in dict.fromkeys(r["method"] for r in best.values()):
        a, b = best.get((method, lo)), best.get((method, hi))
        if a and b:
            kp = (f", key_pairs {b['key_pairs_s'] / a['key_pairs_s']:.2f}x" if a["key_pairs_s"] else "")
            out.append(f"- {method}: {hi:,} / {lo:,} rows: search wall {b['wall_s'] / a['wall_s']:.2f}x{kp}, "
                       f"peak RSS {b['peak_rss_mb'] / a['peak_rss_mb']:.2f}x")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="250000,500000,1000000")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--cache", type=Path, default=ROOT / "bench" / "out" / "candidates")
    ap.add_argument("--attempts", type=int, default=3, help="measurements at most per method and size")
    ap.add_argument("--max-load", type=float, default=1.5, help="repeat a measurement taken at a higher load")
    ap.add_argument("--wait", type=float, default=30.0, help="seconds to wait before a round of repeats")
    ap.add_argument("--also-rev", dest="rev", default=None, help="also time key_pairs at this git revision")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if any(n % CHUNK for n in sizes):
        ap.error(f"sizes must be multiples of {CHUNK}")
    if args.child:
        print(json.dumps(measure(args.child, sizes[0], args.seed, args.cache, args.rev)))
        return
    ensure_cache(max(sizes), args.seed, args.cache)
    jobs = [(m, n, None) for m in METHODS for n in sizes] + ([("default", n, args.rev) for n in sizes] if args.rev else [])
    best: dict = {}
    runs: dict = {}
    for attempt in range(args.attempts):
        todo = [j for j in jobs if j not in runs or max(runs[j]["load"]) > args.max_load]
        if not todo:
            break
        if attempt:
            print(f"round {attempt + 1}: {len(todo)} measurements taken at load > {args.max_load}, after {args.wait:.0f} s",
                  file=sys.stderr, flush=True)
            time.sleep(args.wait)
        for method, n, rev in todo:
            child = argparse.Namespace(**{**vars(args), "rev": rev})
            r = run_child(method, n, child)
            if (method, n, rev) not in runs or r["wall_s"] < runs[(method, n, rev)]["wall_s"]:
                runs[(method, n, rev)] = r
    for (method, n, rev), r in runs.items():
        best[(r["method"], n)] = r
    facts = machine_facts()
    print(f"\nCandidate search, seed {args.seed}; {facts['platform']}, {facts['cpu_count']} CPUs, "
          f"Python {facts['python']}, numpy {facts['numpy']}, {facts['date']}; fastest of up to {args.attempts} "
          f"measurements (repeated when the 1-minute load was above {args.max_load})\n")
    print(table(best))
    print()
    print(ratios(best, sizes))
    out = args.cache.parent / f"candidates-seed{args.seed}.json"
    out.write_text(json.dumps({"facts": facts, "results": list(best.values())}, indent=1))


if __name__ == "__main__":
    main()

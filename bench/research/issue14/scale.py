"""Candidate search at scale: time and peak memory of keys -> candidate pairs (sort-based group-by).

    python scale.py 250000 500000 1000000        # one fresh subprocess per size

Synthetic rows (no text: the search only sees signatures): every row gets a random 64-value
MinHash (uint32); 10 % of rows are planted near-duplicates of an earlier row (each value replaced
with probability 0.2, i.e. Jaccard about 0.8, in clusters of 2-4); 6.5 % are "short" rows that
also get the two identity keys (phone, name+address), shared within their planted cluster.
Keys: 14 MinHash bands of 4 values + the identity keys of short rows (the recipe's defaults).

Also the incremental estimate: for 1,000 new rows (planted duplicates of stored rows), the keys
looked up and the stored entries those keys return, against the first 100k and all 1M rows.
And today's pigeonhole search (k=12, 91 tables) and the papers' (k=3) on random 64-bit
fingerprints at smaller sizes, for the baseline in the same run.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
import time

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synth(n: int, seed: int = 0, K: int = 64):
    rng = np.random.default_rng(seed)
    sig = rng.integers(0, 2**32, size=(n, K), dtype=np.uint32)
    ident = rng.integers(1, 2**63, size=(n, 2), dtype=np.uint64)
    short = rng.random(n) < 0.065
    dup = np.flatnonzero(rng.random(n) < 0.10)
    dup = dup[dup > 10]
    src = (dup - rng.integers(1, 10, size=len(dup))).clip(0)
    repl = rng.random((len(dup), K)) < 0.2
    sig[dup] = np.where(repl, rng.integers(0, 2**32, size=(len(dup), K), dtype=np.uint32), sig[src])
    ident[dup] = ident[src]
    short[dup] = short[src]
    return sig, ident, short


def keys_for(sig, ident, short, bands=14, r=4):
    import recipe as R
    keys = R.band_keys(sig, bands, r)
    idk = np.where(short[:, None], ident, 0).astype(np.uint64)
    return np.concatenate([keys, idk], axis=1)


def one(n: int) -> dict:
    import recipe as R
    sig, ident, short = synth(n)
    base = rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    keys = keys_for(sig, ident, short)
    t1 = time.perf_counter()
    (i, j), st = R.candidate_pairs(keys, return_stats=True)
    t2, c2 = time.perf_counter(), time.process_time()
    peak = rss_mb()
    del keys, i, j
    # the same run's baseline: the papers' pigeonhole search (k=3, 4 tables) on n random fingerprints
    from dedup.index.blocks import BlockLayout
    from dedup.index.candidates import near_pairs
    fps = np.random.default_rng(0).integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2)
    t3, c3 = time.perf_counter(), time.process_time()
    near_pairs(fps, BlockLayout.for_distance(3))
    t4, c4 = time.perf_counter(), time.process_time()
    return {"rows": n, "keys_s": round(t1 - t0, 2), "pairs_s": round(t2 - t1, 2), "total_s": round(t2 - t0, 2),
            "total_cpu_s": round(c2 - c0, 2), "papers_k3_s": round(t4 - t3, 2), "papers_k3_cpu_s": round(c4 - c3, 2),
            "load1": round(__import__("os").getloadavg()[0], 1),
            "peak_rss_mb": round(peak), "rss_before_search_mb": round(base),
            "keys_per_row": round(st["keys"] / n, 2), "cand_pairs_per_row": round(st["pairs"] / n, 3),
            "largest_bucket": st["largest_bucket"]}


def incremental(n_small: int = 100_000, n_big: int = 1_000_000, new: int = 1000) -> list[dict]:
    sig, ident, short = synth(n_big + new, seed=1)
    rng = np.random.default_rng(2)  # the new rows: planted near-duplicates of stored rows (first 100k)
    src = rng.integers(0, n_small, size=new)
    repl = rng.random((new, sig.shape[1])) < 0.2
    sig[n_big:] = np.where(repl, rng.integers(0, 2**32, size=(new, sig.shape[1]), dtype=np.uint32), sig[src])
    ident[n_big:], short[n_big:] = ident[src], short[src]
    keys = keys_for(sig, ident, short)
    out = []
    for stored in (n_small, n_big):
        sk = keys[:stored].reshape(-1)
        sk = np.sort(sk[sk != 0])
        q = keys[n_big:n_big + new].reshape(-1)
        q = q[q != 0]
        lo, hi = np.searchsorted(sk, q, "left"), np.searchsorted(sk, q, "right")
        out.append({"stored": stored, "new_rows": new, "keys_looked_up_per_row": round(len(q) / new, 2),
                    "entries_returned_per_row": round(float((hi - lo).sum()) / new, 3)})
    return out


def pigeonhole(n: int, k: int) -> dict:
    from dedup.index.blocks import BlockLayout
    from dedup.index.candidates import near_pairs
    fps = np.random.default_rng(0).integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2)
    t0 = time.perf_counter()
    i, j, d = near_pairs(fps, BlockLayout.for_distance(k))
    return {"rows": n, "k": k, "seconds": round(time.perf_counter() - t0, 2), "pairs": int(len(i)), "peak_rss_mb": round(rss_mb())}


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        print(json.dumps(one(int(sys.argv[2]))))
    elif sys.argv[1] == "--incremental":
        print(json.dumps(incremental()))
    elif sys.argv[1] == "--pigeonhole":
        print(json.dumps(pigeonhole(int(sys.argv[2]), int(sys.argv[3]))))
    else:
        for n in sys.argv[1:]:
            out = subprocess.run([sys.executable, __file__, "--one", n], capture_output=True, text=True)
            print(out.stdout.strip() or out.stderr[-2000:], flush=True)
        out = subprocess.run([sys.executable, __file__, "--incremental"], capture_output=True, text=True)
        print(out.stdout.strip() or out.stderr[-2000:], flush=True)
        for n, k in ((250000, 3), (50000, 12), (100000, 12)):
            out = subprocess.run([sys.executable, __file__, "--pigeonhole", str(n), str(k)], capture_output=True, text=True)
            print(out.stdout.strip() or out.stderr[-2000:], flush=True)

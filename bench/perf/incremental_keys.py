"""The stored rows' block keys in bench_incremental_scale.py: bucket sizes, and the candidate pairs
a full run would find and verify per stored row, exactly or estimated from sampled rows."""

from __future__ import annotations

import numpy as np


from dedup.index.minhash import bucket_sizes


def key_stats(stored: dict, recipe, seed: int, sizes: list[int], max_pairs: int = 20_000_000,
              probe: int = 5_000) -> None:
    """The stored rows' block keys at each size (the shipped recipe's, on the cached sketches): the
    buckets (rows holding one key), and the candidate pairs a full run's ``key_pairs`` finds and how
    many of them its verifier keeps, per stored row (pairs / rows, as the README's demo figures;
    only pairs with one of a bucket's anchors, as ``near`` makes them). When ``near`` would make more than ``max_pairs``
    pairs (``key_pairs`` on 71 million of them, the news table at 1M, went past this machine's 23 GB)
    these two are estimated (``~``) from ``probe`` random rows: the other rows sharing a key with each
    (``probe_candidates``), verified."""
    print(f"{'stored rows':>11} {'keys':>10} {'largest bucket':>14} {'mean bucket':>11} {'pairs in buckets':>16} "
          f"{'candidates/row':>14} {'verified/row':>12}   (mean bucket: of the bucket an entry is in)")
    for n in sizes:
        sk = stored["sketches"][stored["keys"] <= n]
        r = recipe.learn(sk)
        keys = r.scheme.keys(r.signatures(sk))
        sizes_ = bucket_sizes(keys).astype(np.int64)
        in_buckets = int((sizes_ * (sizes_ - 1) // 2).sum())
        a = np.minimum(sizes_, getattr(r.scheme, "anchors", None) or sizes_)  # each bucket's anchors
        searched = int((a * (sizes_ - 1) - a * (a - 1) // 2).sum())  # pairs with an anchor: what near makes
        cand = verified = "-"
        if searched <= max_pairs:
            i, j, _ = r.near(sk)
            cand = f"{len(i) / len(sk):.2f}"
            verified = f"{int(r.verify(sk[i], sk[j]).sum()) / len(sk):.4f}"
        else:
            i, j = probe_candidates(keys, np.random.default_rng(seed).choice(len(sk), probe, replace=False))
            cand = f"~{len(i) / probe / 2:.2f}"  # each pair is two rows' candidate
            verified = f"~{int(r.verify(sk[i], sk[j]).sum()) / probe / 2:.4f}"
        print(f"{n:>11,} {int(sizes_.sum()):>10,} {int(sizes_.max()):>14,} {(sizes_ ** 2).sum() / sizes_.sum():>11.2f} "
              f"{in_buckets:>16,} {cand:>14} {verified:>12}", flush=True)


def probe_candidates(keys: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, other) for each of ``rows`` and every other row sharing a non-zero key with it."""
    found: list[set] = [set() for _ in rows]
    for col in keys.T:
        order = np.argsort(col, kind="stable")
        ordered = col[order]
        lo, hi = np.searchsorted(ordered, col[rows], "left"), np.searchsorted(ordered, col[rows], "right")
        for x, (a, b) in enumerate(zip(lo.tolist(), hi.tolist())):
            if col[rows[x]] != 0 and b - a > 1:
                found[x].update(order[a:b].tolist())
    i = np.array([r for x, r in enumerate(rows.tolist()) for o in found[x] if o != r], np.int64)
    j = np.array([o for x, r in enumerate(rows.tolist()) for o in found[x] if o != r], np.int64)
    return i, j

"""The record-table benchmarks' pipeline, as `dedup full` runs it on record tables: signature, learn,
keys, candidate pairs, verify, connected components, with each stage timed (tables:
bench/datasets/records/training.py)."""

from __future__ import annotations

import resource
import time

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from dedup.config.model import FieldSpec
from dedup.eval.metrics import pair_quality
from dedup.index.minhash import bucket_sizes
from dedup.index.records import RecordScheme
from dedup.text.records import RecordSignature


def specs(fields) -> tuple[FieldSpec, ...]:
    return tuple(FieldSpec(name=f, kind="short", weight=1.0) for f in fields)


def components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    g = coo_matrix((np.ones(len(i), np.int8), (i, j)), shape=(n, n))
    return connected_components(g, directed=False)[1]


def groups_of(labels: np.ndarray, ids: list[str]) -> list[list[str]]:
    out: dict = {}
    for lab, key in zip(labels.tolist(), ids):
        out.setdefault(lab, []).append(key)
    return [g for g in out.values() if len(g) > 1]


def run(rows, fields, scheme_kw=None, sig_kw=None, sig=None, learned=None):
    """Signature, learn, keys, candidate pairs, verify, components: (labels, info with timings)."""
    t = {}
    t0 = time.perf_counter()
    if sig is None:
        sig = RecordSignature(specs(fields), **(sig_kw or {})).of_rows(rows)
    t["signature"] = time.perf_counter() - t0
    scheme = RecordScheme(len(fields), **(scheme_kw or {}))
    t1 = time.perf_counter()
    scheme = scheme.with_learned(learned if learned is not None else scheme.learn(sig))
    keys = scheme.keys(sig)
    t["learn+keys"] = time.perf_counter() - t1
    t2 = time.perf_counter()
    i, j = scheme.near(sig)
    t["pairs"] = time.perf_counter() - t2
    t3 = time.perf_counter()
    keep = scheme.verify_pairs(sig, i, j)
    t["verify"] = time.perf_counter() - t3
    t4 = time.perf_counter()
    labels = components(len(rows), i[keep], j[keep])
    t["components"] = time.perf_counter() - t4
    sizes = bucket_sizes(keys)
    info = {"seconds": t, "keys_per_row": float((keys != 0).sum(1).mean()), "m": keys.shape[1],
            "cand_per_row": len(i) / max(1, len(rows)), "largest_bucket": int(sizes.max()) if len(sizes) else 0,
            "key_fields": [fields[f] for f in scheme.key_fields()],
            "pair_keys": [f"{fields[a]}+{fields[b]}" for a, b in scheme.pair_keys()], "sig": sig}
    return labels, info


def quality(labels, rows, truth):
    return pair_quality(groups_of(labels, [str(r["id"]) for r in rows]), truth)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

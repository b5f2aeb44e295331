"""The baselines on the cached rows: the papers' recipe, today's default, MinHash LSH (swept).

SimHash recipes: features built from the cached jieba terms exactly as dedup.text.features.Featurizer
builds them (checked against it in check_parity), then dedup's own sketch + find_groups.
MinHash: bench/minhash_baseline.minhash_groups on the cached jieba token sets (= jieba_tokens).
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path
import time
from collections import Counter

os.environ.setdefault("DEDUP_CACHE_DIR", "/tmp/dedup-cache-recipe")
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository

import numpy as np  # noqa: E402

from dedup.config import PAPER_RECIPE, parse_config  # noqa: E402
from dedup.eval.metrics import pair_quality  # noqa: E402
from dedup.index.fingerprint import HashedFeatures, sketch  # noqa: E402
from dedup.text.features import WHOLE_VALUE  # noqa: E402
from dedup.text.normalize import normalize_short  # noqa: E402
from dedup.runs.recipe import Recipe  # noqa: E402  (was dedup.pipeline.find_groups at f303617)

SHORT = ("name", "phone", "address")


def features(rec: dict, tf: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for f in SHORT:
        if rec[f] is not None:
            v = normalize_short(rec[f])
            if v:
                out[f"{f}{WHOLE_VALUE}{v}"] = out.get(f"{f}{WHOLE_VALUE}{v}", 0.0) + 2.0
    for f in ("t_title", "t_content"):
        for term, n in Counter(rec[f]).items():
            out[term] = out.get(term, 0.0) + ((1 + math.log(n)) if tf == "log" else float(n))
    return out


def config_for(paper: bool):
    cfg = {"source": {"url": "sqlite:////tmp/none.db"}, "store": {"url": "sqlite:////tmp/none-store.db"},
           "tables": {"petitions": {"key": "id", "fields": {"name": "short", "phone": "short", "address": "short",
                                                             "title": "text", "content": "text"}}}}
    if paper:
        cfg["simhash"] = dict(PAPER_RECIPE["simhash"])
        cfg["text"] = dict(PAPER_RECIPE["text"])
        cfg["tables"]["petitions"].update(PAPER_RECIPE["table"])
    return parse_config(cfg)


def simhash_recipe(recs: list[dict], paper: bool) -> tuple[list[list[str]], float, np.ndarray]:
    """Groups of the papers' recipe or today's default on cached rows; seconds of sketch+groups; fingerprints."""
    config = config_for(paper)
    tcfg = config.table("petitions")
    feats = [features(r, "raw" if paper else "log") for r in recs]
    keep = [k for k, f in enumerate(feats) if f]
    t0 = time.perf_counter()
    hf = HashedFeatures.of([feats[k] for k in keep])
    sk = sketch(hf.hashes, hf.weights, hf.counts, config.sketch_bits // 64)
    groups = Recipe.of(config, tcfg).groups([str(recs[k]["id"]) for k in keep], sk)
    return [g.keys for g in groups], time.perf_counter() - t0, sk[:, 0]


def check_parity(recs: list[dict], n: int = 50) -> None:
    config = config_for(False)
    fz = Recipe.of(config, "petitions").featurizer
    for r in recs[:n]:
        assert fz.features(r) == features(r, "log"), r["id"]


def minhash_sweep(recs, truth, thresholds=(0.5, 0.6, 0.7, 0.8, 0.9), perms=(128,)):
    from bench.minhash_baseline import minhash_groups
    rows = [{"id": r["id"], "tok": set(r["t_title"]) | set(r["t_content"])} for r in recs]
    out = []
    for p in perms:
        for t in thresholds:
            t0 = time.perf_counter()
            res = minhash_groups(rows, "id", lambda row: row["tok"], t, num_perm=p)
            q = pair_quality([[str(k) for k in g] for g in res.groups], truth)
            out.append((f"MinHash LSH jieba t={t} perm={p}", q, time.perf_counter() - t0))
    return out

"""Exact predicted / false pair counts on tuning forms:20000:1 for main's variant and r2 p u with i 0.35 / 0.4."""
import tempfile
from pathlib import Path
import numpy as np
from bench.quality.textjoin_s40_sweep import clustered, prepared
from bench.quality import topic_s42_sweep as s42
with tempfile.TemporaryDirectory() as tmp:
    recipe, keys, sk, _, code = prepared("forms:20000:1", Path(tmp))
at = {k: i for i, k in enumerate(keys)}
for name in ("r4 n0.45", "r2 n0.45 p u s0.2 i0.35", "r2 n0.45 p u s0.2 i0.4"):
    rec = s42.variant(recipe, name)
    pairs = rec.pairs(keys, sk)
    groups = clustered(rec, keys, sk, pairs, (rec.near_bar, 0.5, 4) if rec.near_bar is not None else None)
    pred = false = 0
    for g in groups:
        m = [at[k] for k in g.keys]
        c = np.unique(code[m], return_counts=True)[1]
        n = len(m)
        pred += n * (n - 1) // 2
        false += n * (n - 1) // 2 - int((c * (c - 1) // 2).sum())
    print(f"{name}: predicted pairs {pred}, false pairs {false}, P {1 - false / pred:.8f}", flush=True)

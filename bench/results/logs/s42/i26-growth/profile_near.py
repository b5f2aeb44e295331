# ruff: noqa: T201  (a one-off script kept with its output: it prints)
"""Profile the search (``recipe.near(uniq, verifying=True)``) on tail_scale's cached sketches,
and split its time: partitions, making the pairs, the screen (keep), the join. One-off (issue 26).

    PYTHONPATH=. python bench/results/logs/s42/i26-growth/profile_near.py /tmp/i26-growth/tail/demo-400000-seed5.npz
"""
import cProfile
import pstats
import sys
import time

import numpy as np
import yaml

import dedup.index.minhash as mh
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.index.pairs import distinct_rows
from dedup.runs.recipe import Recipe

data = np.load(sys.argv[1])
keys, sk = data["keys"].tolist(), data["sketches"]
recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="bench")).learn(sk)
uniq = distinct_rows(keys, recipe.matrix(sk))[1]
spent = {"keep": 0.0, "pairs made": 0, "pairs kept": 0}
real_bucket_pairs = mh._bucket_pairs


def counted(words, col, low, bits, anchors=None, offsets=None, keep=None):
    """_bucket_pairs, its keep timed apart and its pairs counted."""
    def timed(i, j):
        t = time.process_time()
        out = keep(i, j)
        spent["keep"] += time.process_time() - t
        spent["pairs made"] += len(i)
        spent["pairs kept"] += int(out.sum())
        return out
    return real_bucket_pairs(words, col, low, bits, anchors, offsets, timed if keep else None)


t0 = time.process_time()
recipe.near(uniq, verifying=True)
plain = time.process_time() - t0
mh._bucket_pairs = counted
t0 = time.process_time()
i, j, _ = recipe.near(uniq, verifying=True)
split = time.process_time() - t0
print(f"rows {len(uniq):,}; near(verifying) CPU {plain:.2f} s (again, split: {split:.2f} s); "
      f"keep (the screen) {spent['keep']:.2f} s; pairs made (one per shared column) {spent['pairs made']:,}; "
      f"past keep {spent['pairs kept']:,}; candidates (each once) {len(i):,}")
mh._bucket_pairs = real_bucket_pairs
prof = cProfile.Profile()
prof.enable()
recipe.near(uniq, verifying=True)
prof.disable()
pstats.Stats(prof).sort_stats("tottime").print_stats(18)

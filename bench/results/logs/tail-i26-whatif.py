"""What-if (not shipped): candidate counts, verified pairs and demo quality with fewer anchors a bucket."""
import sys, time, yaml, numpy as np
from dataclasses import replace
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.eval.metrics import pair_quality
from dedup.index.pairs import distinct_rows
from dedup.runs.recipe import Recipe
base = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="bench"))
for n in map(int, sys.argv[1].split(",")):
    d = np.load(f"bench/out/tail/demo-{n}-seed5.npz"); keys = d["keys"].tolist(); sk = d["sketches"]
    truth = {str(k): str(v) for k, v in generate_petitions(n, seed=5).truth.items()}
    dist = distinct_rows(keys, sk)
    for a in (16, 8, 4):
        r = replace(base, method=replace(base.method, scheme=replace(base.method.scheme, anchors=a)))
        i, j, _ = r.near(dist[1])
        t = time.process_time()
        groups = r.groups(keys, sk, (), None, dist)
        cpu = time.process_time() - t
        q = pair_quality([g.keys for g in groups], truth, keys)
        print(f"{n} anchors {a}: candidates {len(i):,} ({len(i)/len(dist[1]):.1f} a row), groups {len(groups):,}, "
              f"P {q.precision:.4f} R {q.recall:.4f} F1 {q.f1:.4f}, tail CPU {cpu:.2f} s", flush=True)

"""The sweep that chose the record floor's trigger (``floor_below``) and star clustering's gathering
for record tables (issue 22, persons with several corrupted copies), TUNING data only.

    python -m bench.quality.records.sweep_gather [--sets copies:5000:0,copies60:5000:0,...] [--below 2,1.5,1,0.5]

Sets as bench/quality/records/sweep_floor.py (``copies``, ``copies60``, ``copiesnf``, ``train``,
``labelled``). Unlike that sweep's connected components, the groups here are the ones `dedup full`
makes: star clustering (dedup.index.clusters.cluster) with the record verifier as its check, with
and without ``gather``. One markdown row per set, ``floor_below`` and gathering: P / R / F1, the
share of true pairs that are candidates, candidates per row, the largest false group, whether the
floor is in use. ``floor_below`` 2 is the trigger before (the cap ``max_partners``).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from bench.quality.records.pipeline import specs
from bench.quality.records.sweep_floor import dataset
from dedup.eval.metrics import pair_quality
from dedup.index.clusters import cluster
from dedup.index.record_odd import asked
from dedup.index.groups import Pair
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.text.records import RecordSignature

SETS = "copies:5000:0,copies60:5000:0,copiesnf:5000:0,train:5000:0,copies:20000:1,copies60:20000:1,train:20000:0"


def star_groups(keys: list[str], sig: np.ndarray, scheme: RecordScheme, i, j, gather: bool) -> list[list[str]]:
    """The groups `dedup full` makes of the verified pairs: star clustering, the verifier as check."""
    at = {k: n for n, k in enumerate(keys)}

    def check(pairs):
        return scheme.verify(sig[[at[a] for a, _ in pairs]], sig[[at[b] for _, b in pairs]]).tolist()

    pairs = [Pair(keys[a], keys[b], 0) for a, b in zip(i.tolist(), j.tolist())]
    merge = os.environ.get("DEDUP_BENCH_MERGE", "1") == "1"  # as `dedup full` (s37); 0: without merging, as before
    # s38: a row left alone joins through a pair scoring Records.alone to one head row, as `dedup full`;
    # DEDUP_BENCH_ALONE: '' or 'off' (as before), 'any' (any verified pair), or another score bar
    strong = os.environ.get("DEDUP_BENCH_ALONE", str(Records.alone))
    strong = "" if strong == "off" else strong

    def alone(pairs):
        if strong == "any":
            return [True] * len(pairs)
        s = scheme.scores(sig[[at[a] for a, _ in pairs]], sig[[at[b] for _, b in pairs]])
        return (np.nan_to_num(s, nan=-1.0) >= float(strong)).tolist()

    def odd(x, others, way):  # s46: the group check, as `dedup full` with RecordScheme.odd on
        return asked(scheme, sig[[at[x]]], sig[[at[k] for k in others]], way)  # s47: and the lone link's pair

    return [g.keys for g in cluster(pairs, dict.fromkeys(keys, 0), check, gather=gather, merge=merge,
                                    alone=alone if strong else None, odd=odd if scheme.odd >= 0 else None)]


def measure(spec: str, below: float, gather: bool, data) -> str:
    rows, truth, fields, sig = data
    t0 = time.perf_counter()
    scheme = RecordScheme(len(fields), floor_below=below)
    scheme = scheme.with_learned(scheme.learn(sig))
    i, j = scheme.near(sig)
    keys = [str(r["id"]) for r in rows]
    lab = np.array([truth[k] for k in keys])
    _, c = np.unique(lab, return_counts=True)
    found = float((lab[i] == lab[j]).sum()) / max(1, int((c * (c - 1) // 2).sum()))
    keep = scheme.verify_pairs(sig, i, j)
    groups = star_groups(keys, sig, scheme, i[keep], j[keep], gather)
    q = pair_quality(groups, truth, keys)
    false = max((len(g) for g in groups if len({truth[k] for k in g}) > 1), default=0)
    return (f"| {spec} | {below:g} | {'yes' if gather else 'no'} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
            f"{found:.4f} | {len(i) / len(rows):.2f} | {false} | {'yes' if scheme.floored() else 'no'} | "
            f"{time.perf_counter() - t0:.1f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--below", default="2,1.5,1,0.5", help="floor_below values (2: the trigger before)")
    a = ap.parse_args(argv)
    print("| set | floor_below | gather | P | R | F1 | candidate recall | cand/row | largest false | floored | s |")
    print("|---|--:|---|--:|--:|--:|--:|--:|--:|---|--:|")
    for spec in a.sets.split(","):
        rows, truth, fields = dataset(spec)
        sig = RecordSignature(specs(fields)).of_rows(rows)
        for below in (float(x) for x in a.below.split(",")):
            for gather in (False, True):
                print(measure(spec, below, gather, (rows, truth, fields, sig)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

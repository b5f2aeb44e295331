"""The sweep that chose the record floor keys and the evidence against (issue 22), TUNING data only.

    python -m bench.quality.records.sweep_floor [--sets copies:5000:0,copies:20000:1,...] [--grid NAME,...]

Sets: ``copies:N:SEED`` (bench/datasets/records/copies.py, every person recorded again 1-5 times),
``copies60:N:SEED``, ``copies40``, ``copies20`` (the same with 60, 40, 20 % of people copied), ``copiesnf:N:SEED`` (no family
members: typos and missing values only, as in the issue), ``train:N:SEED`` (bench/datasets/records
common.training: bench/datasets/labelled/persons widened, with households) and ``labelled:N:SEED``
(bench/datasets/labelled/persons as it is: name, gender, birth_date, id_number, phone, address). One markdown
row per set and setting: P / R / F1 of connected components, the share of true pairs that are
candidates, candidates per row, the keys in use.
"""

from __future__ import annotations

import argparse
import time

from bench.datasets.labelled.persons import FIELDS as LABELLED_FIELDS, generate_persons
from bench.datasets.records.training import training
from bench.quality.records.pipeline import quality, run
from dedup.index.records import RecordScheme
from bench.datasets.records.copies import FIELDS as COPY_FIELDS, generate

OFF = {"floor_exact": 0, "threshold": 0.675}
GRIDS = {
    "defaults": [{}],
    "before": [OFF],
    "threshold, floor": [{"threshold": t} for t in (0.7, 0.725, 0.75, 0.8)],
    "threshold": [{"threshold": t} for t in (0.5, 0.55, 0.6, 0.625, 0.65, 0.675, 0.7)],
    "floor_partners": [{"floor_partners": p} for p in (5.0, 10.0, 20.0, 40.0)],
    "floor_pairs": [{"floor_pairs": p, "max_pairs": max(4, p)} for p in (2, 4, 6)],
}


def dataset(spec: str):
    kind, n, seed = spec.split(":")
    n, seed = int(n), int(seed)
    if kind.startswith("copies"):
        copied = {"copies60": 0.6, "copies40": 0.4, "copies20": 0.2}.get(kind, 1.0)
        rows, truth = generate(n, seed, copied, 0.0 if kind == "copiesnf" else 0.08)
        return rows, truth, COPY_FIELDS
    if kind == "train":
        return training(n, seed)
    data = generate_persons(n, seed)
    return data.rows, {str(k): str(v) for k, v in data.truth.items()}, tuple(f for f in LABELLED_FIELDS if f != "id")


def candidate_recall(rows, truth, fields, kw, sig) -> float:
    """The share of true pairs that share a key (before verification and components)."""
    scheme = RecordScheme(len(fields), **kw)
    scheme = scheme.with_learned(scheme.learn(sig))
    i, j = scheme.near(sig)
    labels = [truth[str(r["id"])] for r in rows]
    found = sum(labels[a] == labels[b] for a, b in zip(i.tolist(), j.tolist()))
    sizes: dict = {}
    for lab in labels:
        sizes[lab] = sizes.get(lab, 0) + 1
    return found / max(1, sum(c * (c - 1) // 2 for c in sizes.values()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="copies:5000:0,copies:20000:1,copiesnf:20000:1,copies60:20000:2,train:20000:0,labelled:20000:0")
    ap.add_argument("--grid", default=",".join(GRIDS))
    a = ap.parse_args(argv)
    print("| set | setting | P | R | F1 | candidate recall | cand/row | seconds | keys |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in a.sets.split(","):
        rows, truth, fields = dataset(spec)
        sig = None
        for grid in a.grid.split(","):
            for kw in GRIDS[grid]:
                t0 = time.perf_counter()
                labels, info = run(rows, fields, kw, sig=sig)
                secs = time.perf_counter() - t0
                sig = info["sig"]
                q = quality(labels, rows, truth)
                cr = candidate_recall(rows, truth, fields, kw, sig)
                print(f"| {spec} | {grid}: {kw or 'defaults'} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | {cr:.4f} "
                      f"| {info['cand_per_row']:.2f} | {secs:.1f} | {info['key_fields']} {info['pair_keys']} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The sweep that chose RecordScheme's and RecordSignature's defaults, on TRAINING data only.

    python -m bench.quality.records.sweep [--sets 5000:0,5000:1,20000:0,20000:1]

bench/datasets/labelled/persons widened to 11 fields with 15 % household members (common.training). One
axis at a time around the defaults, then the signature variants at the defaults; prints one
markdown row per setting and set (largest bucket: of the keys in use).
"""

from __future__ import annotations

import argparse

from bench.datasets.records.training import training
from bench.quality.records.pipeline import quality, run, specs
from dedup.text.records import RecordSignature

DEFAULT_SCHEME: dict = {}
AXES = {
    "threshold": [{"threshold": t} for t in (0.6, 0.65, 0.675, 0.7, 0.725, 0.75)],
    "linked": [{"linked": x} for x in (0.0, 0.5, 0.75, 1.0)],
    "no discount, threshold": [{"linked": 0.0, "threshold": t} for t in (0.7, 0.75, 0.8)],
    "max_partners": [{"max_partners": m} for m in (1.0, 1.5, 2.0, 3.0, 4.0)],
    "similar_ratio": [{"similar_ratio": s} for s in (0.05, 0.01, 0.001)],
    "bands": [{"bands": 0}, {"bands": 1}, {"bands": 2}],
    "pairs": [{"max_pairs": 0}, {"max_pairs": 2}, {"max_pairs": 4}],
}
SIGS = {"k8 digits": {"k": 8, "digits": True}, "k8 no-digits": {"k": 8, "digits": False},
        "k4 digits": {"k": 4, "digits": True}, "k16 digits": {"k": 16, "digits": True}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="5000:0,5000:1,20000:0,20000:1")
    a = ap.parse_args(argv)
    print("| set | signature | setting | P | R | F1 | cand/row | keys/row | largest bucket |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in a.sets.split(","):
        n, seed = map(int, spec.split(":"))
        rows, truth, fields = training(n, seed)
        for sname, skw in SIGS.items():
            sig = RecordSignature(specs(fields), **skw).of_rows(rows)
            grid = [dict(DEFAULT_SCHEME)]
            if sname == "k8 digits":
                grid += [kw for axis in AXES.values() for kw in axis]
            for kw in grid:
                if "bands" in kw and kw["bands"] * 4 > skw["k"]:
                    continue
                extra = {"k": skw["k"]} if skw["k"] >= 8 else {"k": 4, "bands": 1}
                labels, info = run(rows, fields, {**extra, **kw}, sig=sig)
                q = quality(labels, rows, truth)
                print(f"| {n}:{seed} | {sname} | {kw or 'defaults'} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} "
                      f"| {info['cand_per_row']:.2f} | {info['keys_per_row']:.1f} | {info['largest_bucket']} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

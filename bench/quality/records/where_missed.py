"""Where the true pairs the shipped record recipe misses go (issue 22, session 45), TUNING sets only:
through the config `dedup init` writes and the shipped settings (``Records.against``), each missed
true pair is counted once, in the first bucket it fits:

- ``never``: never a candidate (no shared key); ``never, would verify``: of those, how many score over
  the bar (what more keys could win);
- ``against``: a candidate under the bar that the same scheme with the evidence against off (``against``
  1.0) verifies (refused by the rule);
- ``under``: a candidate under the bar without the rule too (``under >= 0.6``: of those, within 0.075);
- ``apart``: verified, but star clustering put the two rows in different groups.

    python -m bench.quality.records.where_missed copies:5000:0 copies40:20000:1 [--set threshold=0.65 ...]

Shares are of all true pairs; P / R / F1 of the groups as where.py's.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

import numpy as np

from bench.quality.records.init_config import init_specs
from bench.quality.records.sweep_gather import star_groups
from bench.quality.records.where import load, true_pairs
from dedup.eval.metrics import pair_quality
from dedup.index.records import RecordScheme
from dedup.methods.records import Records
from dedup.text.records import RecordSignature

HEADER = ("| set | true pairs | never | never, would verify | against | under | under >= 0.6 | apart "
          "| P | R | F1 | cand/row | false over 5 |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")


def _scores(scheme: RecordScheme, sig: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    if not pairs:
        return np.zeros(0)
    a, b = np.array(pairs).T
    return np.nan_to_num(scheme.scores(sig[a], sig[b]), nan=-1.0)


def buckets(spec: str, kw: dict) -> tuple[dict, object, float, int]:
    """(bucket -> missed pairs, pair quality, candidates a row, false groups over 5) of one set."""
    rows, truth, fields = load(spec)
    chosen = init_specs(rows, fields)[0]
    sig = RecordSignature(chosen, k=int(kw.get("k", 8))).of_rows(rows)
    scheme = RecordScheme(len(chosen), field_weights=tuple(f.weight for f in chosen), **{**Records.against, **kw})
    scheme = scheme.with_learned(scheme.learn(sig))
    i, j = scheme.near(sig)
    keys = [str(r["id"]) for r in rows]
    lab = np.array([truth[k] for k in keys])
    tp = true_pairs(lab)
    keep = scheme.verify_pairs(sig, i, j)
    cand = {(min(a, b), max(a, b)) for a, b in zip(i.tolist(), j.tolist())}
    ver = {(min(a, b), max(a, b)) for a, b, k in zip(i.tolist(), j.tolist(), keep.tolist()) if k}
    groups = star_groups(keys, sig, scheme, i[keep], j[keep], True)
    at = {k: n for n, k in enumerate(keys)}
    gid = {at[k]: g for g, ks in enumerate(groups) for k in ks}
    missed = {p for p in tp if not (p[0] in gid and gid[p[0]] == gid.get(p[1]))}
    never = sorted(missed - cand)
    under = sorted((missed & cand) - ver)
    off = replace(scheme, against=1.0)
    refused = [p for p, s in zip(under, _scores(off, sig, under)) if s >= scheme.threshold]
    rest = sorted(set(under) - set(refused))
    out = {"never": never, "never, would verify": [p for p, s in zip(never, _scores(scheme, sig, never))
                                                   if s >= scheme.threshold],
           "against": refused, "under": rest,
           "under >= 0.6": [p for p, s in zip(rest, _scores(scheme, sig, rest)) if s >= 0.6],
           "apart": sorted(missed & ver), "true": tp}
    false = [len(g) for g in groups if len({truth[k] for k in g}) > 1]
    return out, pair_quality(groups, truth, keys), len(i) / len(rows), sum(x > 5 for x in false)


def line(spec: str, kw: dict) -> str:
    b, q, per, over5 = buckets(spec, kw)
    n = max(1, len(b["true"]))
    cols = " | ".join(f"{len(b[c]) / n:.4f}" for c in
                      ("never", "never, would verify", "against", "under", "under >= 0.6", "apart"))
    return (f"| {spec} | {len(b['true'])} | {cols} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
            f"{per:.2f} | {over5} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--set", action="append", default=[], help="a RecordScheme setting, name=value")
    a = ap.parse_args(argv)
    kw = {k: (int(v) if v.isdigit() else float(v)) for k, v in (s.split("=") for s in a.set)}
    print(HEADER)
    for spec in a.sets:
        print(line(spec, kw), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

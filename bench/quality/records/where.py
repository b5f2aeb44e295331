"""Where a record table's missed true pairs go (issue 22, persons with several corrupted copies):
never candidates, candidates scored under the bar, or verified but left apart by star clustering
(with gathering, as `dedup full` groups record tables). TUNING sets choose; a held-out one
(``heldout:ROWS:SEED``, bench/datasets/heldout22/persons_copies.py) is only reported.

    python -m bench.quality.records.where copies:5000:0 copies60:5000:0 [--set threshold=0.65 ...]

Per set: true pairs, the share in each bucket, P / R / F1 of the groups, candidates per row, and
for missed never-candidate pairs how many fields agree exactly (what a further key could catch).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from bench.quality.records.init_config import init_specs, renamed
from bench.quality.records.pipeline import specs
from bench.quality.records.sweep_floor import dataset
from bench.quality.records.sweep_gather import star_groups
from dedup.eval.metrics import pair_quality
from dedup.index.records import RecordScheme
from dedup.text.records import RecordSignature


def load(spec: str):
    """A tuning set (sweep_floor's specs) or ``heldout:ROWS:SEED`` (report only)."""
    if not spec.startswith("heldout:"):
        return dataset(spec)
    from bench.datasets.heldout22.persons_copies import TEXT, generate_people
    _, n, seed = spec.split(":")
    data = generate_people(int(n), int(seed))
    rows = data.rows
    truth = {str(r["id"]): str(data.truth[r["id"]]) for r in rows}
    return rows, truth, tuple(TEXT)


def true_pairs(lab: np.ndarray) -> set[tuple[int, int]]:
    by: dict = {}
    for n, x in enumerate(lab.tolist()):
        by.setdefault(x, []).append(n)
    return {(a, b) for rows in by.values() for i, a in enumerate(rows) for b in rows[i + 1:]}


def split(spec: str, kw: dict, init: bool = False, rename: dict | None = None) -> str:
    """One row of the table; ``init``: the fields, kinds and weights `dedup init` writes (after
    ``rename``), else every field ``short`` at weight 1 (the sweeps before s35)."""
    rows, truth, fields = load(spec)
    rows, fields = renamed(rows, fields, rename or {})
    chosen = init_specs(rows, fields)[0] if init else specs(fields)
    sig = RecordSignature(chosen, k=int(kw.get("k", 8))).of_rows(rows)
    weights = tuple(f.weight for f in chosen) if init else None
    scheme = RecordScheme(len(chosen), **{"field_weights": weights, **kw})
    scheme = scheme.with_learned(scheme.learn(sig))
    i, j = scheme.near(sig)
    keys = [str(r["id"]) for r in rows]
    lab = np.array([truth[k] for k in keys])
    tp = true_pairs(lab)
    cand = {(min(a, b), max(a, b)) for a, b in zip(i.tolist(), j.tolist())}
    keep = scheme.verify_pairs(sig, i, j)
    ver = {(min(a, b), max(a, b)) for a, b, k in zip(i.tolist(), j.tolist(), keep.tolist()) if k}
    groups = star_groups(keys, sig, scheme, i[keep], j[keep], True)
    at = {k: n for n, k in enumerate(keys)}
    gid = {at[k]: g for g, ks in enumerate(groups) for k in ks}
    together = {p for p in tp if p[0] in gid and gid[p[0]] == gid.get(p[1])}
    missed = tp - together  # a pair may be grouped through other rows without being a candidate
    never = missed - cand
    under = (missed & cand) - ver
    apart = missed & ver
    q = pair_quality(groups, truth, keys)
    h = scheme.hashes(sig)
    agree = Counter(int(((h[a] == h[b]) & (h[a] != 0)).sum()) for a, b in never)
    n = max(1, len(tp))
    false = [len(g) for g in groups if len({truth[k] for k in g}) > 1]
    return (f"| {spec} | {kw or 'defaults'} | {len(tp)} | {len(never) / n:.4f} | {len(under) / n:.4f} | "
            f"{len(apart) / n:.4f} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | {len(i) / len(rows):.2f} | "
            f"{dict(sorted(agree.items()))} | {max(false, default=0)} / {sum(x > 5 for x in false)} | "
            f"{scheme.key_fields()} {scheme.pair_keys()} {scheme.band_keys()} |")


HEADER = ("| set | setting | true pairs | never candidates | under the bar | left apart | P | R | F1 | cand/row "
          "| never: fields equal -> pairs | largest false / over 5 | keys |\n"
          "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|---|")


def table(sets: list[str], settings: list[dict], init: bool = False, rename: dict | None = None) -> None:
    """Print the header and one row per setting and set (settings outermost)."""
    print(HEADER)
    for kw in settings:
        for spec in sets:
            print(split(spec, kw, init, rename), flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--set", action="append", default=[], help="a RecordScheme setting, name=value")
    ap.add_argument("--init", action="store_true", help="the fields and weights `dedup init` writes")
    a = ap.parse_args(argv)
    kw = {k: (int(v) if v.isdigit() else float(v)) for k, v in (s.split("=") for s in a.set)}
    table(a.sets, [kw], a.init)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The sweep behind the text recipe's `match` defaults, on TRAINING sets only.

    python -m bench.quality.sweep_recipe [--sets petitions:5000:0,petitions:5000:1,petitions:20000:0,train:5000:2,train:20000:0]
                                         [--minhash 0.5,0.6,0.65,0.7,0.75,0.8,0.9] [--grid full|defaults|anchors]

The shipped point (`match:` threshold 0.75, identity_threshold 0.45, short_chars 60,
short_threshold 0.95, short_identity_threshold 0.20; bands of r = 4 values) came from this sweep:
it was chosen with its research prototype, bench/research/issue14/sweep_recipe.py (removed; in git at 7bb428a; the final
thresholds read off its scan on train-20000-0, REPORT.md sections 1 and 5), which ran the same
settings on these generators' sets with its own copy of the recipe. This is that sweep moved onto
the shipped code: dedup.text.signature.TextSignature (64 MinHash values of the content's
character 3-grams and numbers, one hash per identity column), dedup.index.bands.BandScheme (band
keys and identity keys) and dedup.index.bands.TextVerifier (the thresholds), with the columns a
petitions config gives (name, phone, address: identity; title, content: content). Its run of
2026-11-24 is bench/results/logs/sweep_recipe.log: the shipped point ties the best mean F1 (0.9995) to
four decimals; many points do, because these training sets are nearly saturated.

Tuning sets only (never bench/datasets/heldout, whose generators are for reporting):

* ``petitions:N:SEED``: bench/datasets/labelled/petitions.py;
* ``train:N:SEED``: the same plus the training edit mix of bench/datasets/train_mix.py
  (extra short refiles with a changed phone or number, extra collective complaints).

Each set's signatures are made once. For each key setting (r, short_chars, which columns are
content) the candidate pairs are searched once, then every verification point of the grid is
applied to them, the verified pairs are joined into connected components (as ``dedup full``
does) and scored by pairwise precision / recall / F1 (dedup.eval.metrics counting). One line per
point: the mean over the sets of P, R and F1, the lowest F1, candidates a row. Then the best
point by mean F1, the shipped point and the gap between them, each with its per-set numbers and
recall per duplicate kind.

MinHash LSH (bench/quality/minhash_baseline.py: datasketch, 128 permutations, jieba tokens of title and
content, each candidate kept if its estimated Jaccard is at least the threshold) is swept over
``--minhash`` on the same rows.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from bench.quality.minhash_baseline import jieba_tokens, lsh_groups, pair_quality, signatures
from bench.quality.records.pipeline import components
from dedup.eval.metrics import pair_quality as dedup_pair_quality
from dedup.index.bands import BandScheme, TextVerifier
from dedup.text.signature import TextSignature

IDENTITY = ("name", "phone", "address")
DEFAULT_SETS = "petitions:5000:0,petitions:5000:1,petitions:20000:0,train:5000:2,train:20000:0"
PAIR_KINDS = ("refiled", "short", "collective", "short_mix", "collective_mix")


@dataclass(frozen=True)
class Point:
    """One setting of the recipe; the field defaults are the shipped ones."""
    content: tuple[str, ...] = ("title", "content")
    r: int = 4
    short_chars: int = 60
    threshold: float = 0.75
    identity_threshold: float = 0.45
    short_threshold: float = 0.95
    short_identity_threshold: float = 0.20
    anchors: int | None = 16

    def keys_part(self) -> tuple:
        return self.content, self.r, self.short_chars, self.anchors

    def label(self) -> str:
        return (f"{'+'.join(self.content):<13} r{self.r} short<{self.short_chars:<3} anchors {self.anchors} "
                f"t {self.threshold:.2f}/id {self.identity_threshold:.2f} "
                f"short {self.short_threshold:.2f}/id {self.short_identity_threshold:.2f}")


SHIPPED = Point()


def grid(kind: str) -> list[Point]:
    """Every key setting at the shipped thresholds and with the threshold grids around them."""
    if kind == "defaults":
        return [SHIPPED]
    if kind == "anchors":  # a bucket's rows compared with its first A rows (dedup.index.anchors)
        return [replace(SHIPPED, anchors=a) for a in (4, 8, 16, 32, 64, 128, None)]
    keys = [SHIPPED, *(replace(SHIPPED, r=r) for r in (3, 5)),
            *(replace(SHIPPED, short_chars=c) for c in (40, 80)), replace(SHIPPED, content=("content",))]
    out = []
    for k in keys:
        out += [replace(k, threshold=t, identity_threshold=ti)
                for t in (0.65, 0.7, 0.75, 0.8, 0.85) for ti in (0.35, 0.4, 0.45, 0.5, 0.55, 0.6)]
        out += [replace(k, short_threshold=s, short_identity_threshold=si)
                for s in (0.85, 0.9, 0.95, 1.0) for si in (0.1, 0.2, 0.3, 0.4, 0.5) if (s, si) != (0.95, 0.2)]
    return list(dict.fromkeys(out))


def pair_kind(a: str, b: str) -> str:
    ks = (a, b)
    for mix in ("collective_mix", "short_mix"):
        if mix in ks:
            return mix
    if "collective" in ks:
        return "collective"
    return "short" if any(k.startswith("short") for k in ks) else "refiled"


class TuningSet:
    """One generated training table: rows, truth, kinds, true pairs; signatures per content choice."""

    def __init__(self, spec: str):
        kind, n, seed = spec.split(":")
        t0 = time.perf_counter()
        if kind == "petitions":
            from bench.datasets.labelled.petitions import generate_petitions
            data = generate_petitions(int(n), int(seed))
            rows, truth, kinds = data.rows, data.truth, data.kinds
        elif kind == "train":
            from bench.datasets import train_mix
            rows, truth, kinds = train_mix.generate(int(n), int(seed))
        else:
            raise SystemExit(f"unknown set kind {kind!r} (petitions or train)")
        self.name, self.rows = spec, rows
        self.keys = [str(r["id"]) for r in rows]
        self.truth = {str(k): str(v) for k, v in truth.items()}
        codes = {c: x for x, c in enumerate(dict.fromkeys(self.truth[k] for k in self.keys))}
        self.code = np.array([codes[self.truth[k]] for k in self.keys], np.int64)
        by: dict[int, list[int]] = {}
        for x, c in enumerate(self.code.tolist()):
            by.setdefault(c, []).append(x)
        row_kind = [kinds[r["id"]] for r in rows]
        pairs = [(p, q, pair_kind(row_kind[p], row_kind[q]))
                 for m in by.values() for p, q in itertools.combinations(m, 2)]
        self.ta = np.array([p for p, _, _ in pairs], np.int64)
        self.tb = np.array([q for _, q, _ in pairs], np.int64)
        self.tkind = np.array([k for _, _, k in pairs])
        self.seconds = time.perf_counter() - t0
        self._sigs: dict = {}

    def sig(self, content: tuple[str, ...]) -> np.ndarray:
        if content not in self._sigs:
            self._sigs[content] = TextSignature(content, IDENTITY).of_rows(self.rows)
        return self._sigs[content]


def _pairs(counts: np.ndarray) -> int:
    return int((counts * (counts - 1) // 2).sum())


def score(ts: TuningSet, labels: np.ndarray) -> dict:
    """Pairwise P/R/F1 of the components (dedup.eval.metrics' counting, vectorised) and recall by kind."""
    predicted = _pairs(np.unique(labels, return_counts=True)[1])
    correct = _pairs(np.unique(labels * (ts.code.max() + 1) + ts.code, return_counts=True)[1])
    true = len(ts.ta)
    p = correct / predicted if predicted else 1.0
    r = correct / true if true else 1.0
    found = labels[ts.ta] == labels[ts.tb]
    by_kind = {k: float(found[ts.tkind == k].mean()) for k in PAIR_KINDS if (ts.tkind == k).any()}
    return {"P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0, "predicted": predicted, "true": true,
            "by_kind": by_kind}


def evaluate(sets: list[TuningSet], points: list[Point]) -> dict[Point, list[dict]]:
    out: dict[Point, list[dict]] = {pt: [] for pt in points}
    for ts in sets:
        by_keys: dict[tuple, list[Point]] = {}
        for pt in points:
            by_keys.setdefault(pt.keys_part(), []).append(pt)
        for (content, r, short_chars, anchors), pts in by_keys.items():
            sig = ts.sig(content)  # rows in key order, as `dedup full` hands them to the search
            i, j = BandScheme(len(IDENTITY), r=r, short_chars=short_chars, anchors=anchors).near(sig)
            a, b = sig[i], sig[j]
            for pt in pts:
                keep = TextVerifier(len(IDENTITY), pt.threshold, pt.identity_threshold, pt.short_threshold,
                                    pt.short_identity_threshold, pt.short_chars)(a, b)
                res = score(ts, components(len(ts.rows), i[keep], j[keep]))
                res["cand_per_row"] = len(i) / len(ts.rows)
                out[pt].append(res)
                if pt == SHIPPED:  # the vectorised counting agrees with dedup's own
                    lab = components(len(ts.rows), i[keep], j[keep])
                    groups: dict[int, list[str]] = {}
                    for x, g in enumerate(lab.tolist()):
                        groups.setdefault(g, []).append(ts.keys[x])
                    q = dedup_pair_quality(list(groups.values()), ts.truth)
                    assert abs(q.f1 - res["F1"]) < 1e-12 and q.predicted_pairs == res["predicted"], (q, res)
    return out


def mean(results: list[dict], key: str) -> float:
    return float(np.mean([r[key] for r in results]))


def detail(sets: list[TuningSet], results: list[dict]) -> str:
    return "\n".join(
        f"    {ts.name:<18} P {r['P']:.4f} R {r['R']:.4f} F1 {r['F1']:.4f} (pred {r['predicted']}, true {r['true']}) "
        f"recall {' '.join(f'{k} {v:.3f}' for k, v in r['by_kind'].items())}"
        for ts, r in zip(sets, results))


def sweep_minhash(sets: list[TuningSet], thresholds: list[float]) -> None:
    print(f"\n## MinHash LSH (datasketch, 128 permutations, jieba tokens of title+content), same rows", flush=True)
    per_t: dict[float, list[dict]] = {t: [] for t in thresholds}
    for ts in sets:
        sigs = signatures(ts.rows, "id", partial(jieba_tokens, fields=["title", "content"]))
        print(f"  {ts.name}: tokenised and MinHashed in {sigs.seconds:.1f} s", flush=True)
        for t in thresholds:
            res = lsh_groups(sigs, t)
            q = pair_quality(res.groups, ts.truth)
            per_t[t].append({"P": q["precision"], "R": q["recall"], "F1": q["f1"]})
            print(f"    t {t:.2f}: P {q['precision']:.4f} R {q['recall']:.4f} F1 {q['f1']:.4f} "
                  f"(pred {q['predicted_pairs']}, {res.seconds - sigs.seconds:.1f} s LSH)", flush=True)
    print("\n| MinHash threshold | mean P | mean R | mean F1 | min F1 |\n|---|---|---|---|---|")
    for t, rs in per_t.items():
        print(f"| {t:.2f} | {mean(rs, 'P'):.4f} | {mean(rs, 'R'):.4f} | {mean(rs, 'F1'):.4f} | "
              f"{min(r['F1'] for r in rs):.4f} |")
    best = max(per_t, key=lambda t: mean(per_t[t], "F1"))
    print(f"best MinHash threshold on these sets: {best:.2f} (mean F1 {mean(per_t[best], 'F1'):.4f})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=DEFAULT_SETS, help="comma-separated KIND:ROWS:SEED (petitions or train)")
    ap.add_argument("--grid", choices=("full", "defaults", "anchors"), default="full")
    ap.add_argument("--minhash", default="0.5,0.6,0.65,0.7,0.75,0.8,0.9",
                    help="MinHash LSH thresholds to sweep on the same rows ('' for none)")
    a = ap.parse_args(argv)
    started = time.perf_counter()
    print(f"# bench/quality/sweep_recipe.py --sets {a.sets} --grid {a.grid} --minhash {a.minhash!r}")
    print(f"# load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    sets = []
    for spec in a.sets.split(","):
        sets.append(TuningSet(spec))
        print(f"  {spec}: {len(sets[-1].rows)} rows, {len(sets[-1].ta)} true pairs, "
              f"generated in {sets[-1].seconds:.1f} s", flush=True)
    points = grid(a.grid)
    t0 = time.perf_counter()
    results = evaluate(sets, points)
    print(f"\n## dedup's text recipe: {len(points)} points x {len(sets)} sets in {time.perf_counter() - t0:.1f} s")
    print("\n| content | r | short_chars | threshold | identity_threshold | short_threshold | "
          "short_identity_threshold | anchors | mean P | mean R | mean F1 | min F1 | cand/row |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for pt, rs in results.items():
        mark = " (shipped)" if pt == SHIPPED else ""
        print(f"| {'+'.join(pt.content)}{mark} | {pt.r} | {pt.short_chars} | {pt.threshold} | {pt.identity_threshold} "
              f"| {pt.short_threshold} | {pt.short_identity_threshold} | {pt.anchors} | {mean(rs, 'P'):.4f} | {mean(rs, 'R'):.4f} "
              f"| {mean(rs, 'F1'):.4f} | {min(r['F1'] for r in rs):.4f} | {mean(rs, 'cand_per_row'):.2f} |")
    best = max(results, key=lambda pt: (mean(results[pt], "F1"), pt == SHIPPED))
    gap = mean(results[best], "F1") - mean(results[SHIPPED], "F1")
    print(f"\nbest point  : {best.label()}  mean F1 {mean(results[best], 'F1'):.4f}")
    print(detail(sets, results[best]))
    print(f"shipped point: {SHIPPED.label()}  mean F1 {mean(results[SHIPPED], 'F1'):.4f}")
    print(detail(sets, results[SHIPPED]))
    print(f"gap best - shipped: {gap:.4f} F1 ({'within' if gap <= 0.002 else 'NOT within'} 0.002)")
    thresholds = [float(x) for x in a.minhash.split(",") if x.strip()]
    if thresholds:
        sweep_minhash(sets, thresholds)
    print(f"\n# total {time.perf_counter() - started:.1f} s, load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

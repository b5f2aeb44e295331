"""The sweep behind issue 22's `match` defaults (common_share, common_rows, digits, threshold), on
TUNING sets only: bench/datasets/tuning22 (form letters, places, tickets) and bench/datasets/labelled petitions.

    python -m bench.quality.tuning22_sweep [--sets forms:5000:0,forms:20000:1,places:3000:0,tickets:2000:0,petitions:5000:0]

Each set's content features are made once per ``digits`` mode (TextSignature.parts); for each
(common_share, common_rows) the full run's ContentModel is learned from them, the weighted
signatures made, candidates searched with the shipped BandScheme and verified with TextVerifier at
each threshold, and the verified pairs joined into connected components (as `dedup full` does)
and scored by pairwise precision / recall / F1. One line per point and set, then the mean and
lowest F1 per point. Its output is bench/results/tuning22_sweep.log.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from bench.quality.records.pipeline import components
from dedup.index.bands import BandScheme, TextVerifier
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import TextSignature

DEFAULT_SETS = "forms:5000:0,forms:20000:1,places:3000:0,places:3000:1,tickets:2000:0,petitions:5000:0"
NONE = (1.0, 10, 1.0)  # nothing is common: every feature weighs 1 (the recipe before issue 22)
WEIGHTS = [*itertools.product((0.0005, 0.001, 0.002), (5, 10), (0.1, 0.2, 0.3)), NONE]  # (share, rows, floor)
FOLDED = [(0.001, 5, 0.2), NONE]  # digits folded: only at these
THRESHOLDS = (0.65, 0.7, 0.75, 0.8)


def load(spec: str):
    """(rows, truth by id, identity columns, content columns) of one tuning set."""
    kind, n, seed = spec.split(":")
    if kind == "petitions":
        from bench.datasets.labelled.petitions import generate_petitions
        d = generate_petitions(int(n), int(seed))
        return d, ("name", "phone", "address"), ("title", "content")
    from importlib import import_module
    d = import_module(f"bench.datasets.tuning22.{kind}").generate(int(n), int(seed))
    cols = (("name", "email"), ("subject", "body")) if kind.startswith("tickets") else (("name", "phone", "address"), ("title", "content"))
    return (d, *cols)


def score(labels: np.ndarray, code: np.ndarray) -> tuple[float, float, float, int]:
    """Pairwise P, R, F1 of the components against the truth codes, and the largest group that
    holds more than one truth cluster."""
    def pairs(x):
        c = np.unique(x, return_counts=True)[1]
        return int((c * (c - 1) // 2).sum())
    predicted, true = pairs(labels), pairs(code)
    correct = pairs(labels * (code.max() + 1) + code)
    p = correct / predicted if predicted else 1.0
    r = correct / true if true else 1.0
    pair = np.unique(np.stack([labels, code]), axis=1)[0]  # each (group, cluster) once, by group
    mixed = np.unique(pair, return_counts=True)
    bad = mixed[0][mixed[1] > 1]
    largest = int(np.isin(labels, bad).astype(np.int64).sum()) if len(bad) else 0
    if len(bad):
        largest = int(np.unique(labels[np.isin(labels, bad)], return_counts=True)[1].max())
    return p, r, 2 * p * r / (p + r) if p + r else 0.0, largest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    a = ap.parse_args()
    results: dict[tuple, list] = {}
    for spec in a.sets.split(","):
        data, identity, content = load(spec)
        rows = sorted(data.rows, key=lambda r: r["id"])
        labs = {lab: i for i, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
        code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
        for digits in ("keep", "fold"):
            sig = TextSignature(content, identity, digits=digits)
            head, hashes, counts = sig.parts(rows)
            for share, least, floor in (WEIGHTS if digits == "keep" else FOLDED):
                model = ContentModel.learn(hashes, len(rows), share, least, floor)
                ids = ContentModel.learn(head[:, 1:].ravel(), len(rows), share, least, floor, IDENTITY_SALT)
                s = sig.finish(head, hashes, counts, model, ids)
                i, j = BandScheme(len(identity)).near(s)
                for t in THRESHOLDS:
                    keep = TextVerifier(len(identity), threshold=t)(s[i], s[j])
                    p, r, f1, big = score(components(len(rows), i[keep], j[keep]), code)
                    point = (digits, share, least, floor, t)
                    results.setdefault(point, []).append((spec, p, r, f1, big))
                    print(f"{spec:<18} digits {digits:<4} share {share:<6} rows {least:<3} floor {floor:<4} t {t:.2f}: "
                          f"P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false group {big}", flush=True)
    print("\n| digits | common_share | common_rows | common_floor | threshold | mean F1 | min F1 | min P | min R "
          "| largest false group |\n|---|---|---|---|---|---|---|---|---|---|")
    ranked = sorted(results.items(), key=lambda kv: -np.mean([x[3] for x in kv[1]]))
    for (digits, share, least, floor, t), rs in ranked:
        print(f"| {digits} | {share} | {least} | {floor} | {t} | {np.mean([x[3] for x in rs]):.4f} "
              f"| {min(x[3] for x in rs):.4f} | {min(x[1] for x in rs):.4f} | {min(x[2] for x in rs):.4f} "
              f"| {max(x[4] for x in rs)} |")


if __name__ == "__main__":
    main()

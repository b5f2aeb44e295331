"""Experiment (issue 22): Fellegi-Sunter match weights with m/u learned by EM on the candidate pairs
themselves, per-field comparison levels from the record signature (exact / close by the bigram
MinHash estimate / different; missing neutral), against the shipped weighted field score, on the
same candidates and the same star clustering with gathering. TUNING sets choose; ``heldout:N:S``
only reports.

    python -m bench.quality.records.fs_try copies:5000:0 --weights 0,2,4,6,8
"""

from __future__ import annotations

import argparse

import numpy as np

from bench.quality.records.pipeline import specs
from bench.quality.records.sweep_gather import star_groups
from bench.quality.records.where import load
from dedup.eval.metrics import pair_quality
from dedup.index.records import RecordScheme
from dedup.text.records import RecordSignature


def levels(scheme: RecordScheme, a: np.ndarray, b: np.ndarray, cuts: tuple[float, ...]) -> np.ndarray:
    """(pairs, fields) comparison level: -1 missing, 0 different, 1.. close by MinHash agreement
    (one level per cut, highest cut = highest level below exact), len(cuts) + 1 exact."""
    ha, hb = scheme.hashes(a), scheme.hashes(b)
    out = np.zeros(ha.shape, np.int8)
    for f in range(scheme.fields):
        j = (scheme._values(a, f) == scheme._values(b, f)).mean(axis=1)
        lev = np.zeros(len(a), np.int8)
        for n, c in enumerate(sorted(cuts)):
            lev[j >= c] = n + 1
        lev[ha[:, f] == hb[:, f]] = len(cuts) + 1
        lev[(ha[:, f] == 0) | (hb[:, f] == 0)] = -1
        out[:, f] = lev
    return out


def random_u(scheme, sig, cuts, nlev, n=200_000, seed=7) -> np.ndarray:
    """u (fields, nlev): the levels' shares among random row pairs (almost all different people)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(sig), n)
    b = rng.integers(0, len(sig), n)
    ok = a != b
    lv = levels(scheme, sig[a[ok]], sig[b[ok]], cuts)
    u = np.stack([(lv[:, k][:, None] == np.arange(nlev)[None, :]).sum(0) for k in range(lv.shape[1])]) + 1.0
    return u / u.sum(1, keepdims=True)


def em(lv: np.ndarray, nlev: int, p: float = 0.3, rounds: int = 40, u_fixed=None) -> tuple[np.ndarray, np.ndarray, float]:
    """m, u (fields, nlev) and the match share by EM over the candidate pairs' levels (missing left out)."""
    f = lv.shape[1]
    m = np.tile(np.linspace(0.05, 1.0, nlev), (f, 1))
    u = np.tile(np.linspace(1.0, 0.05, nlev), (f, 1)) if u_fixed is None else u_fixed.copy()
    m /= m.sum(1, keepdims=True)
    u /= u.sum(1, keepdims=True)
    onehot = [(lv[:, k][:, None] == np.arange(nlev)[None, :]) for k in range(f)]
    for _ in range(rounds):
        lm = np.full(len(lv), np.log(p))
        lu = np.full(len(lv), np.log(1 - p))
        for k in range(f):
            lm += onehot[k] @ np.log(m[k])
            lu += onehot[k] @ np.log(u[k])
        g = 1 / (1 + np.exp(lu - lm))
        p = float(g.mean())
        for k in range(f):
            m[k] = (g[:, None] * onehot[k]).sum(0) + 1e-3
            m[k] /= m[k].sum()
            if u_fixed is None:
                u[k] = ((1 - g)[:, None] * onehot[k]).sum(0) + 1e-3
                u[k] /= u[k].sum()
    return m, u, p


def weights(lv: np.ndarray, m: np.ndarray, u: np.ndarray) -> np.ndarray:
    w = np.log2(m / u)
    out = np.zeros(len(lv))
    for k in range(lv.shape[1]):
        ok = lv[:, k] >= 0
        out[ok] += w[k, lv[ok, k]]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--weights", default="0,2,4,6,8")
    ap.add_argument("--cuts", default="0.5")
    ap.add_argument("--u", default="random", help="random: u from random row pairs, m by EM; em: both by EM")
    a = ap.parse_args(argv)
    cuts = tuple(float(x) for x in a.cuts.split(","))
    print("| set | scorer | P | R | F1 | largest false |")
    print("|---|---|--:|--:|--:|--:|")
    for spec in a.sets:
        rows, truth, fields = load(spec)
        sig = RecordSignature(specs(fields)).of_rows(rows)
        scheme = RecordScheme(len(fields))
        scheme = scheme.with_learned(scheme.learn(sig))
        i, j = scheme.near(sig)
        keys = [str(r["id"]) for r in rows]
        lv = levels(scheme, sig[i], sig[j], cuts)
        uf = random_u(scheme, sig, cuts, len(cuts) + 2) if a.u == "random" else None
        m, u, p = em(lv, len(cuts) + 2, u_fixed=uf)
        s = weights(lv, m, u)
        runs = [("shipped", scheme.verify_pairs(sig, i, j), scheme.verify)]
        for t in (float(x) for x in a.weights.split(",")):
            def check(x, y, t=t):
                return weights(levels(scheme, x, y, cuts), m, u) >= t
            runs.append((f"FS EM >= {t:g}", s >= t, check))
        for name, keep, ver in runs:
            scorer = type("S", (), {"verify": staticmethod(ver)})
            groups = star_groups(keys, sig, scorer, i[keep], j[keep], True)
            q = pair_quality(groups, truth, keys)
            false = max((len(g) for g in groups if len({truth[k] for k in g}) > 1), default=0)
            print(f"| {spec} | {name} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | {false} |", flush=True)
        print(f"<!-- {spec}: p {p:.3f}; w agree {np.round(np.log2(m[:, -1] / u[:, -1]), 1).tolist()} "
              f"w differ {np.round(np.log2(m[:, 0] / u[:, 0]), 1).tolist()} -->", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The sweep behind issue 22's identity bar at session 38 (i22-zhrecall), on TUNING sets only: the
bar a long pair with an identity field equal must reach (``identity_threshold``) and the bar without
one (``threshold``), with every other rule at its shipped point.

    python -m bench.quality.zhrecall_s38_sweep [--sets forms_several:5000:0,...]

Sets: tuning22_brief_sweep's SETS_EDITS (places_brief, forms, places, places_hard), the new
forms_several (refiles rewritten with several edits at once under another phone or address,
bench/datasets/tuning22/forms_several.py), the labelled petitions and the English tickets. Each set
signed once as in tuning22_numbers_sweep.signed (the shipped weighting, its number tokens, the
shipped BandScheme); the verified pairs grouped as ``dedup full`` groups them (star clusters,
gathered and merged). Ranked by issue 22's target: no false group over 5 rows first, then the mean
F1 (the brief's ranking), then the higher bars. Log: bench/results/logs/s38/zhrecall/zhrecall_s38_sweep.log.
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import replace

import numpy as np

from bench.quality.tuning22_brief_sweep import SETS_EDITS
from bench.quality.tuning22_numbers_sweep import signed
from bench.quality.tuning22_recall_sweep import point_table
from bench.quality.tuning22_sweep import score
from dedup.config.model import MatchConfig
from dedup.index.bands import TextVerifier
from dedup.index.clusters import star_clusters
from dedup.index.groups import Pair

SETS = SETS_EDITS + ",forms_several:5000:0,forms_several:20000:1,petitions:5000:0,tickets:2000:0"
GRID = list(itertools.product((0.45, 0.40, 0.35, 0.30, 0.25), (0.75, 0.70)))  # (identity_threshold, threshold)
SHIPPED = (0.45, 0.75)


def verifier(identity: int, at: int, id_bar: float, bar: float) -> TextVerifier:
    """The shipped TextVerifier (as dedup.methods.text builds it) with the two bars of one point."""
    m = replace(MatchConfig(), identity_threshold=id_bar, threshold=bar)
    return TextVerifier(identity, m.threshold, m.identity_threshold, m.short_threshold, m.short_identity_threshold,
                        m.short_chars, m.distinct_threshold, m.distinct_floor, m.distinct_shared, m.distinct_share,
                        numbers_floor=m.numbers_floor, numbers_least=m.numbers_least, numbers_share=m.numbers_share,
                        numbers_against=m.numbers_against, numbers_sure=m.numbers_sure,
                        numbers_brief_chars=m.numbers_brief_chars, numbers_brief_against=m.numbers_brief_against,
                        places_against_chars=m.places_against_chars, numbers_at=at)


def labels(s: np.ndarray, i: np.ndarray, j: np.ndarray, ver: TextVerifier, widen: bool = False) -> np.ndarray:
    """Each row's group as dedup full makes them: star clusters of the kept pairs, gathered and merged
    (``widen``: and widened, as a text table's since session 38; this sweep's figures were made without)."""
    keep = ver(s[i], s[j])
    key = [str(x) for x in range(len(s))]

    def check(pairs):
        a = np.array([int(p) for p, _ in pairs], np.int64)
        b = np.array([int(q) for _, q in pairs], np.int64)
        return ver(s[a], s[b]).tolist() if len(a) else []

    out = np.arange(len(s), dtype=np.int64)
    pairs = [Pair(key[a], key[b], 0) for a, b in zip(i[keep].tolist(), j[keep].tolist())]
    for c in star_clusters(pairs, int, check, gather=True, merge=True, widen=widen):
        out[[int(k) for k in c]] = int(c[0])
    return out


def sweep_set(spec: str, results: dict) -> None:
    s, i, j, code, at, identity = signed(spec)
    for id_bar, bar in GRID:
        lab = labels(s, i, j, verifier(identity, at, id_bar, bar))
        p, r, f1, big = score(lab, code)
        over5 = false_over(lab, code, 5)
        results.setdefault((id_bar, bar), []).append((spec, p, r, f1, big, over5))
        print(f"{spec:<24} identity_threshold {id_bar:.2f} threshold {bar:.2f}: P {p:.4f} R {r:.4f} F1 {f1:.4f} "
              f"largest false {big} false>5 {over5}", flush=True)


def false_over(lab: np.ndarray, code: np.ndarray, size: int) -> int:
    """How many groups over ``size`` rows hold more than one truth cluster (one sort, not a mask a
    group: at 200,000 rows a mask a group was 4e10 comparisons a point)."""
    order = np.lexsort((code, lab))
    g, c = lab[order], code[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    mixed = np.add.reduceat(np.r_[False, (g[1:] == g[:-1]) & (c[1:] != c[:-1])].astype(np.int64), starts) > 0
    return int(np.count_nonzero(mixed & (sizes > size)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    a = ap.parse_args()
    results: dict[tuple, list] = {}
    for spec in a.sets.split(","):
        sweep_set(spec, results)
    order = sorted(results.items(), key=lambda kv: (sum(x[5] for x in kv[1]), -round(float(np.mean([x[3] for x in kv[1]])), 4),
                                                    -kv[0][1], -kv[0][0]))
    print("\nRanked: no false group over 5 rows first, then the mean F1 (to 4 places), then the higher bars")
    print("Per set: " + ", ".join(x[0] for x in results[SHIPPED]))
    point_table(("identity_threshold", "threshold"), order)


if __name__ == "__main__":
    main()

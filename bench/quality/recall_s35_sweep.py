"""Why verified true pairs end up in different groups, and which clustering keeps them together
without letting chains grow, on issue 22's TUNING sets (bench/datasets/tuning22 and the labelled
petitions of tuning22_recall_sweep.py; a held-out folder only to report, never to choose).

    python -m bench.quality.recall_s35_sweep [--sets forms:5000:0,...] [--variants shipped,gather]

The shipped pipeline in process (as bench/quality/recall22_where.py): ContentModel, weighted
signatures, BandScheme candidates, TextVerifier at the shipped MatchConfig, star clusters with
the verifier as the check. For each set and clustering variant: pairwise P / R / F1, the largest
group mixing truth clusters and how many such groups have more than 5 rows; and for the shipped
clustering each verified true pair left apart (lower key ``a``, later ``b``) by cause:

- ``alone a, b elsewhere``: no row joined ``a``'s group (its partners all came later) and ``b``
  joined another group: a row placed before its partner exists (what ``gather`` takes back);
- ``b tried another first``: ``b`` joined a group whose centre comes before ``a``'s;
- ``head k/h``: ``b`` failed the head rule of ``a``'s group, matching k of its h head rows (and
  then joined another group or started its own).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from bench.quality.recall22_where import shipped
from bench.quality.tuning22_recall_sweep import DEFAULT_SETS, score
from dedup.index.clusters import QUORUM, star_clusters
from dedup.index.groups import Pair

VARIANTS = {"shipped": {}, "gather": {"gather": True}, "gather+heads": {"gather": True}}  # heads: ``joined``


def prepared(spec: str):
    """(n, signatures, verified pairs (a < b), verifier, truth codes, kinds by row) of one set at
    the shipped MatchConfig."""
    data, rows, _, _, s, ver, i, j = shipped(spec)
    n = len(rows)
    ok = ver(s[i], s[j])
    verified = sorted({(min(a, b), max(a, b)) for a, b in zip(i[ok].tolist(), j[ok].tolist()) if a != b})
    labs = {lab: x for x, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
    code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
    kinds = getattr(data, "kinds", {}) or {}
    return n, s, verified, ver, code, [kinds.get(r["id"], "?") for r in rows]


def scored(n: int, s, verified, ver, code, kw: dict, heads: bool = False):
    """(the clusters of one variant, its score: P, R, F1, largest false group, false groups > 5);
    ``heads``: then ``joined``."""
    cl = clusters_of(n, s, verified, ver, **kw)
    if heads:
        cl = joined(cl, s, verified, ver)
    labels = np.arange(n, dtype=np.int64)
    for c in cl:
        labels[[int(k) for k in c]] = int(c[0])
    return cl, score(labels, code)


def clusters_of(n: int, s, verified, ver, **kw) -> list[list[str]]:
    """Star clusters (keys are row positions as strings, ranked as numbers) of the verified pairs."""
    def check(pairs):
        a = np.array([int(p) for p, _ in pairs], np.int64)
        b = np.array([int(q) for _, q in pairs], np.int64)
        return ver(s[a], s[b]).tolist() if len(a) else []
    return star_clusters([Pair(str(a), str(b), 0) for a, b in verified], int, check, **kw)


def joined(clusters, s, verified, ver) -> list[list[str]]:
    """Exploration, not shipped: two groups a verified pair joins are merged when most of the
    pairs of their heads (first QUORUM rows each) verify, groups taken in order of their centres."""
    of = {int(k): n for n, c in enumerate(clusters) for k in c}
    rows = [[int(k) for k in c] for c in clusters]
    for a, b in verified:
        if a not in of or b not in of or of[a] == of[b]:
            continue
        i, j = sorted((of[a], of[b]), key=lambda n: rows[n][0])
        x = [p for p in rows[i][:QUORUM] for _ in rows[j][:QUORUM]]
        y = [q for _ in rows[i][:QUORUM] for q in rows[j][:QUORUM]]
        if 2 * int(ver(s[np.array(x)], s[np.array(y)]).sum()) < len(x):
            continue
        for k in rows[j]:
            of[k] = i
        rows[i] = sorted(rows[i] + rows[j])
        rows[j] = []
    return [[str(k) for k in r] for r in rows if len(r) > 1]


def causes(clusters, s, verified, ver, code, kinds) -> Counter:
    """Each verified true pair the shipped (ungathered) clusters leave apart, by cause and kind."""
    centre = {}
    members: dict[int, list[int]] = {}
    for c in clusters:
        ks = [int(k) for k in c]
        members[ks[0]] = ks
        centre.update((k, ks[0]) for k in ks)
    out: Counter = Counter()
    for a, b in verified:
        if code[a] != code[b] or centre.get(a, a) == centre.get(b, b):
            continue
        ca, cb = centre.get(a, a), centre.get(b, b)
        group_a = members.get(ca, [a])
        if cb != b and group_a == [a]:
            why = "alone a, b elsewhere"
        elif cb != b and cb < ca:
            why = "b tried another first"
        else:
            hd = [m for m in group_a if m < b][:QUORUM]
            k = int(ver(s[np.array(hd)], s[np.full(len(hd), b)]).sum())
            why = f"head {k}/{len(hd)}, b {'elsewhere' if cb != b else 'own group'}"
        out[(why, kinds[b])] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    table = []
    for spec in a.sets.split(","):
        n, s, verified, ver, code, kinds = prepared(spec)
        true_verified = sum(code[x] == code[y] for x, y in verified)
        print(f"\n{spec}: {n} rows, {len(verified)} verified pairs, {true_verified} of them true", flush=True)
        for name in a.variants.split(","):
            cl, (p, r, f1, big, over5) = scored(n, s, verified, ver, code, VARIANTS[name], name.endswith("+heads"))
            table.append((spec, name, p, r, f1, big, over5))
            print(f"  {name:<10} P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {over5}", flush=True)
            if name == "shipped":
                for (why, kind), c in sorted(causes(cl, s, verified, ver, code, kinds).items()):
                    print(f"    apart: {why:<30} kind {kind:<14} {c}")
    print("\n| set | clustering | P | R | F1 | largest false group | false groups > 5 |\n|---|---|--:|--:|--:|--:|--:|")
    for spec, name, p, r, f1, big, over5 in table:
        print(f"| {spec} | {name} | {p:.4f} | {r:.4f} | {f1:.4f} | {big} | {over5} |")
    for name in a.variants.split(","):
        rs = [x for x in table if x[1] == name]
        print(f"{name}: mean F1 {np.mean([x[4] for x in rs]):.4f}, false groups > 5 {sum(x[6] for x in rs)}")


if __name__ == "__main__":
    main()

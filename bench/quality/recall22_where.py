"""Where the true pairs a text table misses go, on issue 22's TUNING sets (bench/datasets/tuning22):
never candidates, candidates the verifier scores under its bar, or verified pairs the star
clustering leaves apart; with the exact (weighted) Jaccard of each missed pair's features.

    python -m bench.quality.recall22_where forms:5000:0 places:3000:0
    python -m bench.quality.recall22_where heldout:form_letters:5000:100 dir:/tmp/ho/p5k   # to report only

A held-out set (``heldout:NAME:ROWS:SEED`` of bench/quality/quality22.py, or ``dir:`` a folder of
bench/datasets/heldout/petitions_news.py) is read to report where its recall goes, never to choose.

The shipped pipeline in process: TextSignature parts, the full run's ContentModel, weighted
signatures, BandScheme candidates, TextVerifier, star clusters (dedup.index.clusters) with the
verifier as the check.
"""

from __future__ import annotations

import sys
from collections import Counter
from itertools import combinations

import numpy as np

from bench.quality.tuning22_sweep import load as load_tuning
from dedup.config.model import MatchConfig
from dedup.index.bands import BandScheme, TextVerifier
from dedup.index.clusters import star_clusters
from dedup.index.groups import Pair
from dedup.text.rarity import IDENTITY_SALT, ContentModel
from dedup.text.signature import TextSignature


def load(spec: str):
    """A tuning set (``forms:5000:0``) or, to report where its recall goes, a held-out one
    (``heldout:form_letters:5000:100``, columns as `dedup init` makes them)."""
    if spec.startswith("dir:"):  # a folder written by bench/datasets/heldout/petitions_news.py
        return folder_set(spec[4:]), ("name", "phone", "address"), ("title", "content")
    if not spec.startswith("heldout:"):
        return load_tuning(spec)
    from bench.quality.quality22 import SETS
    _, name, n, seed = spec.split(":")
    return SETS[name][0](int(n), int(seed)), ("name", "phone"), ("title", "content")


def folder_set(folder: str):
    """The rows, truth and kinds of a held-out petitions folder."""
    import csv
    import sqlite3
    from types import SimpleNamespace
    con = sqlite3.connect(f"{folder}/petitions.db")
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute("select * from petitions")]

    def read(name: str, col: str) -> dict[int, str]:
        with open(f"{folder}/{name}", encoding="utf-8", newline="") as fh:
            return {int(r["key"]): r[col] for r in csv.DictReader(fh)}
    return SimpleNamespace(rows=rows, truth=read("truth.csv", "cluster"), kinds=read("kinds.csv", "kind"))


def features(hashes: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    starts = np.cumsum(counts) - counts
    return [np.unique(hashes[s:s + c]) for s, c in zip(starts.tolist(), counts.tolist())]


def weighted_jaccard(fa, fb, weight) -> float:
    inter = np.intersect1d(fa, fb)
    union = np.union1d(fa, fb)
    w = weight(union)
    return float(w[np.isin(union, inter)].sum() / w.sum()) if len(union) else 0.0


def shipped(spec: str):
    """(data, rows in key order, signature parts (head, hashes, counts), content model, signatures,
    verifier, candidates i, j) of one set at the shipped MatchConfig."""
    m = MatchConfig()
    data, identity, content = load(spec)
    rows = sorted(data.rows, key=lambda r: r["id"])
    n = len(rows)
    sig = TextSignature(content, identity, digits=m.digits)
    head, hashes, counts = sig.parts(rows)
    model = ContentModel.learn(hashes, n, m.common_share, m.common_rows, m.common_floor)
    ids = ContentModel.learn(head[:, 1:].ravel(), n, m.common_share, m.common_rows, m.common_floor, IDENTITY_SALT)
    s = sig.finish(head, hashes, counts, model, ids)
    ver = TextVerifier(len(identity), m.threshold, m.identity_threshold, m.short_threshold,
                       m.short_identity_threshold, m.short_chars, m.distinct_threshold, m.distinct_floor,
                       m.distinct_shared, m.distinct_share, sig.perms)
    i, j = BandScheme(len(identity), short_chars=m.short_chars, anchors=m.anchors).near(s)
    return data, rows, (head, hashes, counts), model, s, ver, i, j


def main(argv: list[str]) -> None:
    m = MatchConfig()
    for spec in argv:
        data, rows, (head, hashes, counts), model, s, ver, i, j = shipped(spec)
        n = len(rows)
        feats = features(hashes, counts)
        cand = set(zip(i.tolist(), j.tolist()))
        ok = ver(s[i], s[j])
        verified = {(a, b) for a, b, k in zip(i.tolist(), j.tolist(), ok.tolist()) if k}
        key = [str(r["id"]) for r in rows]
        pos = {k: x for x, k in enumerate(key)}

        def check(pairs):
            a = np.array([pos[p] for p, _ in pairs])
            b = np.array([pos[q] for _, q in pairs])
            return ver(s[a], s[b]).tolist() if len(a) else []

        cl = star_clusters([Pair(key[a], key[b], 0) for a, b in verified], pos.__getitem__, check, gather=True,
                           merge=True)  # as dedup full (recall-s35, recall-s37)
        group = {pos[k]: g for g, c in enumerate(cl) for k in c}
        truth = [data.truth[r["id"]] for r in rows]
        kinds = getattr(data, "kinds", {}) or {}
        by: dict = {}
        for x, t in enumerate(truth):
            by.setdefault(t, []).append(x)
        fate = Counter()
        scores: dict[str, list] = {"candidate under bar": [], "never candidate": [], "split by clustering": []}
        kind_fate = Counter()
        wj = model.weights
        for members in by.values():
            for a, b in combinations(members, 2):
                if a in group and group.get(b) == group[a]:
                    f = "found"
                elif (a, b) in verified:
                    f = "split by clustering"
                elif (a, b) in cand:
                    f = "candidate under bar"
                else:
                    f = "never candidate"
                fate[f] += 1
                kind_fate[(kinds.get(rows[a]["id"], "?"), f)] += 1
                if f != "found":
                    same = bool(ver.persons(s[[a]], s[[b]])[0][0])
                    est = float(ver.scores(s[[a]], s[[b]])[0])
                    scores[f].append((weighted_jaccard(feats[a], feats[b], lambda u: wj(u) if wj(u) is not None else np.ones(len(u))),
                                      weighted_jaccard(feats[a], feats[b], lambda u: np.ones(len(u))), est, same,
                                      int(min(head[a, 0], head[b, 0]))))
        total = sum(fate.values())
        print(f"\n{spec}: {n} rows, {total} true pairs, {len(cand)} candidates, {len(verified)} verified")
        for f, c in fate.most_common():
            print(f"  {f:<22} {c:6d}  {c / total:.3f}")
        for (k, f), c in sorted(kind_fate.items()):
            print(f"    kind {k:<14} {f:<22} {c}")
        for f, xs in scores.items():
            if not xs:
                continue
            a = np.array([x[:3] for x in xs])
            same = np.array([x[3] for x in xs])
            short = np.array([x[4] for x in xs]) < m.short_chars
            print(f"  {f}: {len(xs)} pairs; same identity {same.sum()}, short {short.sum()}; quartiles of "
                  f"weighted J {np.percentile(a[:, 0], [25, 50, 75]).round(3)}, plain J "
                  f"{np.percentile(a[:, 1], [25, 50, 75]).round(3)}, estimate {np.percentile(a[:, 2], [25, 50, 75]).round(3)}")


if __name__ == "__main__":
    main(sys.argv[1:])

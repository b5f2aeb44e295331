"""Issue 22, session 48: each true pair the shipped recipe leaves apart on the TUNING petitions
(bench/datasets/labelled), and why: never a candidate, a candidate the verifier refuses (which rule,
at what estimated J), or a verified pair the clustering leaves in two groups (recall-s48.md).

    python -m bench.quality.recall_s48_where petitions:5000:0 petitions:20000:1 [--cache DIR]

Each set runs once through `dedup full` in process (forms_s44_where.load_set), its verified pairs
grouped as `dedup full` groups them (textjoin_s40_sweep.clustered, shipped settings). For each true
pair in no common group: its kind, how it is lost, the rule TextVerifier.rules names for it, its
estimated J, whether an identity field is equal, the shorter content's length; and for a pair the
clustering splits, where each side sits (alone, or in a group: its size, how many of the other
row's head rows verify with it). Then a count by (kind, how, rule).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from bench.quality.forms_s44_where import load_set, scored
from bench.quality.recall22_where import features, load, weighted_jaccard
from bench.quality.textjoin_s40_sweep import clustered, say
from dedup.index.clusters import QUORUM, WIDE
from dedup.index.keys import key_sort


def lost_pairs(code: np.ndarray, group: dict[int, int]) -> list[tuple[int, int]]:
    """The true pairs (key positions, lower first) in no common group."""
    by: dict[int, list[int]] = {}
    for n, c in enumerate(code.tolist()):
        by.setdefault(c, []).append(n)
    out = []
    for members in by.values():
        for x, a in enumerate(members):
            out += [(a, b) for b in members[x + 1:] if group.get(a, -1 - a) != group.get(b, -1 - b)]
    return out


def side(row: int, other: int, group: dict[int, int], members: dict[int, list[int]], ver) -> str:
    """Where ``row`` sits: alone, or its group's size and how many of its head rows verify with ``other``."""
    if row not in group:
        return "alone"
    head = members[group[row]][:QUORUM]
    ok = int(ver(np.array(head), np.full(len(head), other)).sum())
    return f"group of {len(members[group[row]])} (head {ok}/{len(head)} with the other)"


def toward(row: int, other: int, group: dict[int, int], members: dict[int, list[int]], linked: set, score) -> str:
    """A lone ``row`` beside ``other``'s group: its verified links into that group and its estimated J
    to the group's first WIDE rows (what a widening at a lower bar would read)."""
    if row in group or other not in group:
        return ""
    rows = members[group[other]][:WIDE]
    js = score(np.full(len(rows), row), np.array(rows))
    links = sum((min(row, x), max(row, x)) in linked for x in members[group[other]])
    return f"; lone row: {links} verified links into the group, J to its first {len(rows)}: " + " ".join(f"{x:.2f}" for x in js)


def _ones_or(w, u):
    return np.ones(len(u)) if w is None else w


def report(spec: str, cache: str | None) -> Counter:
    recipe, keys, sk, pairs, code = load_set(spec, cache)
    data = load(spec)[0]
    kinds = getattr(data, "kinds", {}) or {}
    at = {k: i for i, k in enumerate(keys)}
    groups = clustered(recipe, keys, sk, pairs, (recipe.near_bar, 0.5, 4) if recipe.near_bar is not None else None)
    p, r, f1, big, over5 = scored(groups, at, code)
    group = {at[k]: g for g, grp in enumerate(groups) for k in grp.keys}
    members: dict[int, list[int]] = {}
    for x in sorted(group, key=lambda x: key_sort(keys[x])):  # a group's head: its first rows in key order
        members.setdefault(group[x], []).append(x)
    m = recipe.method
    v = m.verifier
    i, j, _ = recipe.near(sk)
    cand = set(zip(np.minimum(i, j).tolist(), np.maximum(i, j).tolist()))
    verified = {(min(at[q.a], at[q.b]), max(at[q.a], at[q.b])) for q in pairs}

    def ver(a, b):
        return v(m.signatures(sk[a]), m.signatures(sk[b]))

    def score(a, b):
        return v.scores(m.signatures(sk[a]), m.signatures(sk[b]))
    rows = {str(r["id"]): r for r in data.rows}
    _, hashes, counts = m.signature.parts([rows[k] for k in keys])
    feats = features(hashes, counts)
    cm = m.content_model

    def exact(a: int, b: int) -> str:
        """The pair's exact Jaccard of content features, weighted as the signature weighs them, and plain."""
        w = weighted_jaccard(feats[a], feats[b], lambda u: _ones_or(cm.weights(u) if cm else None, u))
        return f"exact J weighted {w:.3f} plain {weighted_jaccard(feats[a], feats[b], lambda u: np.ones(len(u))):.3f}"
    lost = lost_pairs(code, group)
    say(f"\n{spec}: {len(keys)} rows; P {p:.4f} R {r:.4f} F1 {f1:.4f}; {len(i)} candidates, {len(pairs)} verified; "
        f"{len(lost)} true pairs lost")
    out: Counter = Counter()
    for a, b in lost:
        sa, sb = m.signatures(sk[[a]]), m.signatures(sk[[b]])
        how = "split" if (a, b) in verified else "refused" if (a, b) in cand else "never candidate"
        rule, est = v.rules(sa, sb)[0], float(v.scores(sa, sb)[0])
        same = bool(v.persons(sa, sb)[0][0])
        kind = kinds.get(int(keys[a]), "?")
        where = f"; a {side(a, b, group, members, ver)}, b {side(b, a, group, members, ver)}"
        where += toward(a, b, group, members, verified, score) + toward(b, a, group, members, verified, score)
        say(f"  {keys[a]:>6} {keys[b]:>6} {kind:<14} {how:<15} rule {rule:<18} J {est:.3f} identity equal {same!s:<5} "
            f"{exact(a, b)} chars {int(min(sa[0, 0], sb[0, 0]))}{where}")
        out[(kind, how, rule)] += 1
    for (kind, how, rule), c in sorted(out.items()):
        say(f"    {kind:<14} {how:<15} {rule:<18} {c}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--cache", default=None)
    a = ap.parse_args()
    total: Counter = Counter()
    for spec in a.sets:
        total.update(report(spec, a.cache))
    say("\nall sets:")
    for (kind, how, rule), c in sorted(total.items()):
        say(f"    {kind:<14} {how:<15} {rule:<18} {c}")


if __name__ == "__main__":
    main()

"""Each verified true pair star clustering (gathering and merging, as `dedup full`) still leaves in
two groups, by where each side is: a alone (gathered, it failed the head of b's group), b alone
(b matched 0 or 1 of the head rows of a's group), or both in groups (with how many of the pairs of
the two heads verify). Tuning sets to look at; a held-out set (``heldout:...``, ``dir:...``) only to
report (bench/results/recall-s37.md).

    python -m bench.quality.recall_s37_apart petitions:5000:0 forms:20000:1 dir:/tmp/s37/p5k
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from bench.quality.recall_s35_sweep import clusters_of, prepared
from dedup.index.clusters import QUORUM


def apart(spec: str) -> Counter:
    """(where the pair's sides are, kind of its first row) -> how many verified true pairs."""
    n, s, verified, ver, code, kinds = prepared(spec)
    members = [[int(k) for k in c] for c in clusters_of(n, s, verified, ver, gather=True, merge=True)]
    group = {k: i for i, c in enumerate(members) for k in c}
    out: Counter = Counter()
    for a, b in verified:
        if code[a] != code[b] or (a in group and group.get(b) == group[a]):
            continue
        ha = members[group[a]][:QUORUM] if a in group else []
        hb = members[group[b]][:QUORUM] if b in group else []
        why = f"a {'in a group' if ha else 'alone'}, b {'in a group' if hb else 'alone'}"
        if ha and hb:
            x, y = np.array([p for p in ha for _ in hb]), np.array([q for _ in ha for q in hb])
            why += f", heads' pairs verified {int(ver(s[x], s[y]).sum())}/{len(x)}"
        elif ha:
            head = np.array([m for m in members[group[a]] if m < b][:QUORUM])
            why += f", b matched {int(ver(s[head], s[np.full(len(head), b)]).sum())}/{len(head)} of a's head"
        out[(why, kinds[a])] += 1
    return out


def main(specs: list[str]) -> None:
    for spec in specs:
        print(spec, flush=True)
        for (why, kind), c in sorted(apart(spec).items()):
            print(f"  {why:<55} kind {kind:<14} {c}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

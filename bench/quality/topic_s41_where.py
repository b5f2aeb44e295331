"""Where each missed true pair of a text table stops (issue 22, session 41), on TUNING sets only:
never a candidate (no shared key, or a shared key whose bucket anchors kept them apart) or a
candidate, and which verifier rule refuses it (TextVerifier.rules) with its estimated Jaccard.

    python -m bench.quality.topic_s41_where [--sets places:3000:0,...] [--show 12]

Each set runs once through `dedup full` in process (textjoin_s40_sweep.prepared: the shipped recipe,
keys, sketches and verified pairs); the groups are the shipped clustering's. A true pair in no common
group is counted by where it stops: ``verified`` (the verifier accepts it: the clustering's),
``candidate, refused by RULE``, ``no candidate, shares a key`` (anchored buckets), ``no candidate, no
shared key`` (each with the rule that would decide it). ``--show`` prints that many missed pairs' texts.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from bench.quality.recall22_where import load
from bench.quality.textjoin_s40_sweep import clustered, prepared, say

SETS = "places:3000:0,places:3000:1,places_brief:3000:0,places_hard:3000:0"


def missed_pairs(groups, keys, code) -> list[tuple[int, int]]:
    """Index pairs (a < b) of one truth cluster that the groups leave apart."""
    at = {k: i for i, k in enumerate(keys)}
    group = np.arange(len(keys)) + len(keys)
    for g in groups:
        group[[at[k] for k in g.keys]] = g.id
    by: dict[int, list[int]] = {}
    for n, c in enumerate(code.tolist()):
        by.setdefault(c, []).append(n)
    return [(a, b) for m in by.values() for x, a in enumerate(m) for b in m[x + 1:] if group[a] != group[b]]


def shares_key(recipe, sk, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether rows a and b have one key (band or identity) in common."""
    keys = recipe.method.scheme.keys(recipe.signatures(sk))
    ka, kb = keys[a], keys[b]
    return ((ka == kb) & (ka != 0)).any(axis=1)


def where(recipe, keys, sk, pairs, code):
    """(Counter of causes, per-pair rows (a, b, cause, rule, J))."""
    groups = clustered(recipe, keys, sk, pairs, None)
    miss = missed_pairs(groups, keys, code)
    if not miss:
        return Counter(), []
    a = np.array([x for x, _ in miss])
    b = np.array([y for _, y in miss])
    i, j, _ = recipe.near(sk)
    cand = set(zip(i.tolist(), j.tolist()))
    ok = recipe.verify(sk[a], sk[b]).tolist()
    sa, sb = recipe.signatures(sk[a]), recipe.signatures(sk[b])
    rules = recipe.verifier.rules(sa, sb)
    est = recipe.verifier.scores(sa, sb).tolist()
    key = shares_key(recipe, sk, a, b).tolist()
    share, least = recipe.verifier.numbers_alike(sa, sb)
    agree = recipe.verifier.numbers_agree(share, least).tolist()
    same = recipe.verifier.persons(sa, sb)[0].tolist()
    out, rows = Counter(), []
    for n, (x, y) in enumerate(miss):
        if ok[n]:
            cause = "verified (clustering's)" if (x, y) in cand else "no candidate, verifier accepts"
        elif (x, y) in cand:
            cause = f"candidate, refused by {rules[n]}"
        else:
            cause = f"no candidate ({'shares a key' if key[n] else 'no shared key'}), would be refused by {rules[n]}"
        out[cause] += 1
        rows.append((x, y, cause, rules[n], est[n], agree[n], same[n]))
    return out, rows


def show(spec: str, keys, rows, n: int) -> None:
    """``n`` missed pairs (spread over the causes) with their contents, to read by eye."""
    data, _, content = load(spec)
    by_id = {str(r["id"]): r for r in data.rows}
    seen: Counter = Counter()
    for x, y, cause, rule, est, *_ in sorted(rows, key=lambda r: (r[2], r[0])):
        if seen[cause] >= max(1, n // 4) or sum(seen.values()) >= n:
            continue
        seen[cause] += 1
        say(f"  -- {cause}; J {est:.3f}")
        for k in (keys[x], keys[y]):
            r = by_id[k]
            say(f"     {k} {r.get('name')} {r.get('address')} | {r.get(content[0])} | {r.get(content[1])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--show", type=int, default=0)
    a = ap.parse_args()
    for spec in a.sets.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            recipe, keys, sk, pairs, code = prepared(spec, Path(tmp))
        why, rows = where(recipe, keys, sk, pairs, code)
        say(f"\n{spec}: {len(keys)} rows, {len(pairs)} verified pairs, {sum(why.values())} missed true pairs")
        for cause, c in why.most_common():
            js = np.array([r[4] for r in rows if r[2] == cause])
            agree = sum(r[5] for r in rows if r[2] == cause)
            same = sum(r[6] for r in rows if r[2] == cause)
            say(f"  {c:5d}  {cause}  (J quartiles {np.percentile(js, [25, 50, 75]).round(3).tolist()}; "
                f"numbers alike {agree}; an identity field equal {same})")
        if a.show:
            show(spec, keys, rows, a.show)


if __name__ == "__main__":
    main()

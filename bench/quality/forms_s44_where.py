"""Issue 22, session 44: which clustering step builds the tuning forms' false groups over 5 rows
(TUNING sets only: forms 100k seed 2, forms 200k seed 3, where they are many).

    python -m bench.quality.forms_s44_where [--sets forms:100000:2,forms:200000:3] [--cache DIR]

Each set runs once through `dedup full` in process (textjoin_s40_sweep.prepared; ``--cache``: the
prepared run pickled there and read back on a rerun), then its verified pairs are grouped as `dedup
full` groups them (textjoin_s40_sweep.clustered, shipped settings) with the steps of
dedup.index.clusters watched: each row's placement (head rule, widening, near widening, alone), each
gathered row, each merge of two groups. An event *mixes* when it puts a row of a truth entity the
group did not hold yet into a group of rows of another (or merges two groups of different entities).
For every false group over 5 rows (rows not all one truth entity) each mixing event is printed: the
step, the row it placed and the link it placed it by, that link's estimated Jaccard and the verifier
rule that accepted it, the rows on each side; then a count of mixing steps over all such groups.
"""

from __future__ import annotations

import argparse
import pickle
import tempfile
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import numpy as np

import dedup.index.clusters as C
from bench.quality.textjoin_s40_sweep import clustered, prepared, say
from bench.quality.tuning22_recall_sweep import score

SETS = "forms:100000:2,forms:200000:3"


def load_set(spec: str, cache: str | None):
    """textjoin_s40_sweep.prepared of ``spec``, through a pickle in ``cache`` when given."""
    path = Path(cache) / f"{spec.replace(':', '_')}.pkl" if cache else None
    if path is not None and path.exists():
        with open(path, "rb") as fh:
            return pickle.load(fh)
    with tempfile.TemporaryDirectory() as tmp:
        got = prepared(spec, Path(tmp))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            pickle.dump(got, fh)
    return got


@contextmanager
def watched(events: list):
    """Record each placement, gathering and merge of dedup.index.clusters' star clustering in ``events``:
    (step, row, target centre, rows added, link row, the target's first WIDE rows then)."""
    place, gather, merge, widened, wide = C._place, C._gather, C._merge, C._widened, C._wide
    how: dict[str, str] = {}

    def w_wide(u, rows, direct, check, near):
        got = wide(u, rows, direct, check, near)
        if got:
            how[u] = "widen" if near is None or wide(u, rows, direct, check, None) else "near"
        return got

    def w_widened(u, *a, **kw):
        how.pop(u, None)
        return widened(u, *a, **kw)

    def w_place(u, partners, centre_of, members, *a, **kw):
        how.pop(u, None)
        c, link = place(u, partners, centre_of, members, *a, **kw)
        if link is not None:
            rows = members[c][:C.WIDE]
            events.append((how.get(u, "head"), u, c, [u], link, list(rows)))
        return c, link

    def w_gather(u, partners, centre, centre_of, members, *a, **kw):
        alone = [v for v in partners if v != centre and centre_of[v] == v and len(members[v]) == 1]
        rows = list(members[centre][:C.WIDE])
        for v in alone:
            how.pop(v, None)
        gather(u, partners, centre, centre_of, members, *a, **kw)
        for v in alone:
            if centre_of[v] == centre:
                events.append(("gather-" + how.get(v, "head"), v, centre, [v], u, rows))

    def w_merge(u, partners, centre, centre_of, members, *a, **kw):
        near = {c: list(members.get(c, ())) for c in {centre_of[v] for v in partners}}
        bridges = merge(u, partners, centre, centre_of, members, *a, **kw)
        for c, rows in near.items():
            if c != centre and c not in members:
                events.append(("merge", u, centre, rows, u, near[centre][:C.WIDE]))
        return bridges

    with mock.patch.multiple(C, _place=w_place, _gather=w_gather, _merge=w_merge, _widened=w_widened,
                             _wide=w_wide):
        yield


def mixing(events: list, truth: dict[str, int]) -> dict[str, list]:
    """Final centre -> its mixing events (event, the target's entities then, the added rows' entities)."""
    held: dict[str, Counter] = {}
    mixes: dict[str, list] = {}
    for ev in events:
        step, u, c, rows, link, _ = ev
        tgt = held.setdefault(c, Counter([truth[c]]))
        add = Counter(truth[k] for k in rows)
        if step == "merge":
            mixes.setdefault(c, []).extend(mixes.pop(rows[0], []))
            held.pop(rows[0], None)
        if set(add) - set(tgt):
            mixes.setdefault(c, []).append((ev, dict(tgt), dict(add)))
        tgt.update(add)
    return mixes


def scored(groups, at: dict[str, int], code: np.ndarray) -> tuple[float, float, float, int, int]:
    """tuning22_recall_sweep.score of ``groups`` (a row in none: a group of its own)."""
    labels = np.arange(len(code), dtype=np.int64)
    for g in groups:
        labels[[at[k] for k in g.keys]] = at[g.keys[0]]
    return score(labels, code)


def link_facts(recipe, sk, at, a: str, b: str) -> tuple[float, str]:
    """(estimated Jaccard, the rule that decides it) of rows ``a`` and ``b``."""
    m = recipe.method
    v, x, y = m.verifier, m.signatures(sk[[at[a]]]), m.signatures(sk[[at[b]]])
    return float(v.scores(x, y)[0]), v.rules(x, y)[0]


def run_set(spec: str, cache: str | None, steps: Counter, least: int = 6) -> None:
    recipe, keys, sk, pairs, code = load_set(spec, cache)
    at = {k: i for i, k in enumerate(keys)}
    truth = {k: int(code[i]) for i, k in enumerate(keys)}
    events: list = []
    with watched(events):
        groups = clustered(recipe, keys, sk, pairs, (recipe.near_bar, C.NEAR_SHARE, C.NEAR_LEAST)
                           if recipe.near_bar is not None else None)
    p, r, f1, big, over5 = scored(groups, at, code)
    say(f"\n{spec}: {len(keys)} rows, {len(pairs)} verified pairs; P {p:.4f} R {r:.4f} F1 {f1:.4f} "
        f"largest false {big} false groups > 5: {over5}")
    mixes = mixing(events, truth)
    for g in groups:
        ents = Counter(truth[k] for k in g.keys)
        if len(ents) < 2 or len(g.keys) < least:
            continue
        say(f"  false group of {len(g.keys)} rows, centre {g.keys[0]}: entities (rows) {sorted(ents.values())}")
        for (step, u, c, rows, link, first), tgt, add in mixes.get(g.keys[0], []):
            other = rows[0] if step == "merge" else link  # a merge: u and the merged group's centre
            j, rule = link_facts(recipe, sk, at, other, u)
            js = [link_facts(recipe, sk, at, m, u)[0] for m in first if m != u]
            steps[step] += 1
            say(f"    {step:<12} row {u} into {c} ({sum(tgt.values())} rows {sorted(tgt.values())}) adding "
                f"{len(rows)} rows {sorted(add.values())}; link {other}-{u} J {j:.3f} {rule}; "
                f"row's J to the group's first rows {' '.join(f'{x:.2f}' for x in js)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--cache", default=None)
    ap.add_argument("--least", type=int, default=6, help="the false groups shown: this many rows or more")
    a = ap.parse_args()
    steps: Counter = Counter()
    for spec in a.sets.split(","):
        run_set(spec, a.cache, steps, a.least)
    say(f"\nmixing events by step (all false groups shown): {dict(steps.most_common())}")


if __name__ == "__main__":
    main()

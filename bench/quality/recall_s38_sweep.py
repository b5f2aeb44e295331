"""Whether a row left alone by the head rule should join a group it matches widely (issue 22,
stop 38), chosen on issue 22's TUNING sets only (the sets of tuning22_recall_sweep.py).

    python -m bench.quality.recall_s38_sweep [--sets forms:5000:0,...]

Every split pair left on the petitions has one side alone: the row matched 0 or 1 of the group's
first three rows (the head rule, the guard against chains). Variants, on top of the shipped
clustering (gather and merge), for a row that joins no group: ``centre`` (stop 37's, not taken: it
joins the first group whose centre it matches) and ``wide K share``: it joins the first group (in
centre order, two rows or more) where it verifies with more than ``share`` of the group's first K
members (all of them when fewer), at least two (``>0.49``: half); ``strong J``: it joins the first
group where a head row verifies with it at an estimated Jaccard of J or more (a near-exact copy of
one head row suffices); ``wide 9 near D`` (exploration): as ``wide 9 >0.5`` with rows whose
estimated Jaccard is within D under the bar counted too (a second look at under-bar pairs). Scored as recall_s37_sweep.py: a variant is allowed
when no set's precision falls more than 0.001 below ``shipped`` and no set has more false groups
over 5 rows than ``shipped`` (forms:20000:1 has one of 7 rows on main); of those, the highest lowest recall, then the highest mean F1, ties to the stricter variant.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import dedup.index.clusters as C
from bench.quality.recall_s35_sweep import prepared, scored
from bench.quality.tuning22_recall_sweep import DEFAULT_SETS

SHIPPED = C._place
VARIANTS = {"shipped": None, "centre": ("centre", 1, 0.0)}
for _k in (5, 9, 30):
    for _share in (0.49, 0.5, 0.66):
        VARIANTS[f"wide {_k} >{_share}"] = ("wide", _k, _share)
for _j in (0.8, 0.85, 0.9, 0.95):
    VARIANTS[f"strong {_j}"] = ("strong", C.QUORUM, _j)
for _d in (0.05, 0.1):
    VARIANTS[f"wide 9 near {_d}"] = ("near", 9, _d)  # exploration: a second look under the bar
MODE: tuple | None = None
SCORES = None  # (signatures, verifier) of the set: the strong variants' Jaccard estimate


def fallback(u, partners, centre_of, members, rank, check, apart):
    """The group a row the head rule left alone joins under MODE (centre, link), or None."""
    kind, k, share = MODE  # type: ignore[misc]
    barred = {centre_of[x] for x in apart if x in centre_of} if apart else ()
    direct = set(partners)
    for c in sorted({centre_of[v] for v in partners}, key=rank):
        if c in barred or len(members[c]) < 2:
            continue
        if kind == "strong":
            head = members[c][:k]
            ok = check([(m, u) for m in head])
            s, ver = SCORES  # type: ignore[misc]
            j = ver.scores(s[[int(m) for m in head]], s[[int(u)] * len(head)])
            strong = [m for m, o, x in zip(head, ok, j) if o and x >= share]
            if strong:
                return c, min(strong, key=rank)
            continue
        if kind == "centre":
            if c in direct or check([(c, u)])[0]:
                return c, c
            continue
        rows = members[c][:k]
        held = [m for m in rows if m in direct]
        rest = [m for m in rows if m not in direct]
        held += [m for m, ok in zip(rest, check([(m, u) for m in rest]) if rest else ()) if ok]
        if kind == "near":  # rows whose estimate is within ``share`` under the bar count too
            s, ver = SCORES  # type: ignore[misc]
            left = [m for m in rows if m not in held]
            j = ver.scores(s[[int(m) for m in left]], s[[int(u)] * len(left)]) if left else []
            held += [m for m, x in zip(left, j) if x >= ver.threshold - share]
            share = 0.5
        if len(held) >= 2 and len(held) > share * len(rows):
            return c, min(held, key=rank)
    return None


def place(u, partners, centre_of, members, rank, check, apart, same, before=None, widen=False):
    """clusters._place as before widening (stop 37), then MODE's way for a row it leaves alone."""
    c, link = SHIPPED(u, partners, centre_of, members, rank, check, apart, same, before)
    if link is not None or not partners or MODE is None:
        return c, link
    return fallback(u, partners, centre_of, members, rank, check, apart) or (u, None)


def main() -> None:
    global MODE, SCORES
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    C._place = place
    names = a.variants.split(",")
    table = []
    for spec in a.sets.split(","):
        n, s, verified, ver, code, _ = prepared(spec)
        SCORES = (s, ver)
        print(f"\n{spec}: {n} rows, {len(verified)} verified pairs", flush=True)
        for name in names:
            MODE = VARIANTS[name]
            t = time.process_time()
            cl, (p, r, f1, big, over5) = scored(n, s, verified, ver, code, {"gather": True, "merge": True})
            table.append((spec, name, p, r, f1, big, over5))
            print(f"  {name:<14} P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
                  f"groups {len(cl)} CPU {time.process_time() - t:.2f} s", flush=True)
    print("\n| set | clustering | P | R | F1 | largest false group | false groups > 5 |\n|---|---|--:|--:|--:|--:|--:|")
    for row in table:
        print("| {} | {} | {:.4f} | {:.4f} | {:.4f} | {} | {} |".format(*row))
    base = {x[0]: x for x in table if x[1] == "shipped"}
    for name in names:
        rs = [x for x in table if x[1] == name]
        kept = all(x[2] >= base[x[0]][2] - 0.001 and x[6] <= base[x[0]][6] for x in rs)
        print(f"{name}: mean F1 {np.mean([x[4] for x in rs]):.4f}, lowest R {min(x[3] for x in rs):.4f}, "
              f"false groups > 5 {sum(x[6] for x in rs)}, allowed {kept}")


if __name__ == "__main__":
    main()

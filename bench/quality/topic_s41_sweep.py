"""Issue 22, session 41: true refiles the verifier would accept that are never candidates (the
MinHash bands' width ``r``), and rule ``numbers``' floor, chosen on TUNING sets only.

    python -m bench.quality.topic_s41_sweep [--sets places:3000:0,...] [--variants "r4 n0.45,r3 n0.45"]
    python -m bench.quality.topic_s41_sweep --variants "r4 n0.45 p,r4 n0.45 p a8,r4 n0.45 p a4"  # anchors

Why (bench/quality/topic_s41_where.py, bench/results/topic-s41.md): on the tuning places sets most
missed true pairs never share a key. A neighbour's or refiler's complaint on one topic template
with its numbers alike is accepted by rule ``numbers`` from J 0.45 (``numbers_floor``), but 13 bands
of 4 values make a pair of J 0.47 a candidate with probability 0.48 only (0.76 at 3 values a band,
0.96 at 2); and many such pairs are at J 0.3-0.45, under the floor.

Each set runs once through `dedup full` in process at the shipped config (textjoin_s40_sweep.prepared:
recipe, keys, sketches; the sketches do not depend on ``r`` or the floor); each variant ``rR nF``
searches candidates with bands of R values (BandScheme.r; 13 bands with three identity keys, as
shipped) and verifies them with ``numbers_floor`` F and, with ``p``, rule ``numbers`` keeping no pair
that names places, none the same (session 41, after the first grid: at 20,000 rows the extra
candidates' false pairs were letters on one template at two communities, their dates alike by
chance; every other rule as shipped), then groups them
as `dedup full` does (Recipe.grouped with the shipped checks, near widening included). CPU: the
search and verification of each variant (process time), and its candidate count.

A variant is allowed when no set's precision falls below the shipped variant's (by more than 1e-9)
and no set has more false groups over 5 rows (issue 22: precision first). Of those: the highest
lowest recall, then the highest mean F1, ties to the cheaper (larger R, then higher F), then the
stricter (``p``). The last line names the choice.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench.quality.textjoin_s40_sweep import clustered, prepared, say
from bench.quality.tuning22_recall_sweep import score

SETS = ("places:3000:0,places:3000:1,places_brief:3000:0,places_hard:3000:0,forms:5000:0,forms:20000:1,"
        "forms_several:5000:0,tickets:2000:0,petitions:5000:0")
SHIPPED = "r4 n0.45 p"  # the places guard shipped in session 42 (places-s42.md)
VARIANTS = [f"r{r} n{f}{p}" for p in ("", " p") for r in (4, 3, 2) for f in (0.45, 0.4, 0.35, 0.3)]


def variant(recipe, name: str):
    """The shipped recipe with bands of R values, rule numbers' floor F, with ``p`` rule numbers
    holding no pair whose places differ (TextVerifier.numbers_places), and with ``aA`` a bucket's
    rows compared with its first A only (``match.anchors``, issue 26; absent: as shipped)."""
    r, f, *rest = name.split()
    anchors = [int(t[1:]) for t in rest if t.startswith("a")]
    m = recipe.method
    scheme = replace(m.scheme, r=int(r[1:]), **({"anchors": anchors[0]} if anchors else {}))
    method = replace(m, scheme=scheme,
                     verifier=replace(m.verifier, numbers_floor=float(f[1:]), numbers_places="p" in rest))
    return replace(recipe, method=method)


def run_set(spec: str, names: list[str], table: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        recipe, keys, sk, _, code = prepared(spec, Path(tmp))
    say(f"\n{spec}: {len(keys)} rows")
    at = {k: i for i, k in enumerate(keys)}
    for name in names:
        rec = variant(recipe, name)
        t = time.process_time()
        pairs = rec.pairs(keys, sk)
        cpu = time.process_time() - t
        cands = len(rec.near(sk, verifying=True)[0])
        groups = clustered(rec, keys, sk, pairs, (rec.near_bar, 0.5, 4) if rec.near_bar is not None else None)
        labels = np.arange(len(keys), dtype=np.int64)
        for g in groups:
            labels[[at[k] for k in g.keys]] = at[g.keys[0]]
        p, rc, f1, big, over5 = score(labels, code)
        table.append((spec, name, p, rc, f1, big, over5, cands, cpu))
        say(f"  {name:<10} P {p:.4f} R {rc:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
            f"pairs {len(pairs)} candidates kept by the screen {cands} search+verify CPU {cpu:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    names = a.variants.split(",")
    table: list = []
    for spec in a.sets.split(","):
        run_set(spec, names, table)
    ranked = []
    for name, low, mean in allowed(table, names, SHIPPED):
        r, f, *rest = name.split()
        ranked.append((round(low, 4), round(mean, 4), int(r[1:]), float(f[1:]), "p" in rest, name))
    if ranked:
        say(f"chosen: {max(ranked)[-1]}")


def allowed(table: list, names: list[str], shipped: str) -> list[tuple[str, float, float]]:
    """Print the table and each variant's summary; (name, lowest R, mean F1) of the allowed variants: no
    set's precision under ``shipped``'s (by more than 1e-9), no set with more false groups over 5 rows."""
    say("\n| set | variant | P | R | F1 | largest false group | false groups > 5 | candidates | CPU s |\n"
        "|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for row in table:
        say("| {} | {} | {:.4f} | {:.4f} | {:.4f} | {} | {} | {} | {:.2f} |".format(*row))
    base = {x[0]: x for x in table if x[1] == shipped}
    out = []
    for name in names:
        rs = [x for x in table if x[1] == name]
        ok = bool(base) and all(x[2] >= base[x[0]][2] - 1e-9 and x[6] <= base[x[0]][6] for x in rs)
        low, mean = min(x[3] for x in rs), float(np.mean([x[4] for x in rs]))
        fell = [f"{x[0]} P {x[2]:.4f}" for x in rs if base and x[2] < base[x[0]][2] - 1e-9]
        say(f"{name}: lowest R {low:.4f}, mean F1 {mean:.4f}, false groups > 5 {sum(x[6] for x in rs)}, "
            f"CPU {sum(x[8] for x in rs):.1f} s, allowed {ok}" + (f" (precision fell: {', '.join(fell)})" if fell else ""))
        out += [(name, low, mean)] if ok else []
    return out


if __name__ == "__main__":
    main()

"""Whether a row the head rule and widening leave alone, though it has accepted links into a
group, should join it when the head rows it missed verify just under the bar (issue 22, stop 40),
chosen on issue 22's TUNING sets only (the sets of tuning22_recall_sweep.py).

    python -m bench.quality.textjoin_s40_sweep [--sets forms:5000:0,...] [--variants shipped,...]
    python -m bench.quality.textjoin_s40_sweep --sets dir:/tmp/p5k --variants shipped   # held-out: to report only

Each set is written to SQLite, given the config `dedup init` writes, and run once through `dedup
full` in process (dedup.runs.full.run_full): its recipe, keys and sketches are kept, its verified
pairs made once, and each variant clusters them as `dedup full` does (Recipe.grouped, the shipped
checks: head rule, gather, merge, widen) with the rule ``near`` at one setting:

- ``near D >S >=L``: widening (a row no head holds, as it is placed or gathered, is checked against the
  first WIDE = 9 rows of each group of its partners) also counts, once the row matches one of those
  rows at the bar, the rows the verifier holds with its bar lowered by D (every other rule as it is):
  more than the share S of them, at least L, and it joins (dedup.index.clusters ``_wide``).

For the shipped clustering (``near`` off) each true pair left apart is counted by cause: ``alone,
links into one group`` (one row in no group, its accepted partners all in the other's group),
``alone, links into several groups``, ``both in groups`` (split between two groups), ``no accepted link
across`` (neither row has an accepted pair into the other's group: the verifier's or the candidates').

A variant is allowed when no set's precision falls below ``shipped`` (by more than 1e-9) and no set has
more false groups over 5 rows than ``shipped`` (issue 22: precision first; stricter than stop 38's 0.001);
of those, the highest lowest recall, then the highest mean F1, ties to the stricter variant (larger L,
then smaller D, then larger S). The last line names the choice.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from unittest import mock

import numpy as np

import dedup.index.clusters as C
from bench.quality.quality22 import starter_config
from bench.quality.recall22_where import load
from bench.quality.tuning22_recall_sweep import DEFAULT_SETS, score
from dedup.config import load_config
from dedup.runs.full import run_full
from dedup.runs.recipe import Recipe, fingerprints_of

VARIANTS: dict[str, tuple[float, float, int] | None] = {"shipped": None}
for _least in (2, 3, 4):
    for _d in (0.03, 0.05, 0.08, 0.1):
        for _share in (0.5, 0.66):
            VARIANTS[f"near {_d} >{_share} >={_least}"] = (_d, _share, _least)


def say(line: str) -> None:
    """One line of the log, written at once (a sweep is read as it goes)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def prepared(spec: str, folder: Path):
    """(recipe, keys, sketches, verified pairs, truth codes by key order) of one set as `dedup full` runs it."""
    data, identity, content = load(spec)
    cols = ("id", *identity, *content)
    db = folder / "t.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, " + ", ".join(f'"{c}" TEXT' for c in cols[1:]) + ")")
    con.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(cols))})",
                    ([r["id"], *(None if r.get(c) is None else str(r[c]) for c in cols[1:])] for r in data.rows))
    con.commit()
    con.close()
    starter_config(db, "t", folder / "dedup.yaml")
    seen: dict = {}
    original = Recipe.groups

    def kept(self, keys, sketches, *a, **kw):
        seen.update(recipe=self, keys=list(keys), sketches=np.array(self.matrix(sketches)))
        return original(self, keys, sketches, *a, **kw)
    with mock.patch.object(Recipe, "groups", kept):
        run_full(load_config(folder / "dedup.yaml"), "t")
    recipe, keys, sk = seen["recipe"], seen["keys"], seen["sketches"]
    labs: dict = {}
    code = np.array([labs.setdefault(data.truth[int(k)], len(labs)) for k in keys], np.int64)
    return recipe, keys, sk, recipe.pairs(keys, sk), code


def clustered(recipe: Recipe, keys, sk, pairs, setting) -> list:
    """Groups of the verified pairs as Recipe.groups makes them, with ``near`` at ``setting``."""
    at = {k: i for i, k in enumerate(keys)}

    def rows(ks):
        return sk[np.fromiter((at[k] for k in ks), np.int64, len(ks))]
    r = replace(recipe, near_bar=None if setting is None else setting[0])
    shipped = C.NEAR_SHARE, C.NEAR_LEAST
    C.NEAR_SHARE, C.NEAR_LEAST = shipped if setting is None else setting[1:]
    try:
        return r.grouped(keys, fingerprints_of(sk, len(keys)), pairs, (), r.centre_check(rows), r.alone_check(rows),
                         r.near_check(rows))
    finally:
        C.NEAR_SHARE, C.NEAR_LEAST = shipped


def causes(groups, keys, pairs, code) -> tuple[Counter, int]:
    """Each true pair the groups leave apart, by cause; and how many rows in no group have accepted
    links into exactly one group holding a true partner."""
    group = {k: g.id for g in groups for k in g.keys}
    linked: dict[str, set] = {}
    for p in pairs:
        for x, y in ((p.a, p.b), (p.b, p.a)):
            if y in group:
                linked.setdefault(x, set()).add(group[y])
    by: dict[int, list[int]] = {}
    for n, c in enumerate(code.tolist()):
        by.setdefault(c, []).append(n)
    out: Counter = Counter()
    rows_one = set()
    for members in by.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                ka, kb = keys[a], keys[b]
                ga, gb = group.get(ka), group.get(kb)
                if ga is not None and ga == gb:
                    continue
                if ga is not None and gb is not None:
                    out["both in groups"] += 1
                    continue
                lone, other = (ka, gb) if ga is None else (kb, ga)
                into = linked.get(lone, set())
                if other is not None and other in into:
                    out["alone, links into one group" if len(into) == 1 else "alone, links into several groups"] += 1
                    rows_one.update([lone] if len(into) == 1 else [])
                else:
                    out["no accepted link across"] += 1
    return out, len(rows_one)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    a = ap.parse_args()
    names = a.variants.split(",")
    table = []
    for spec in a.sets.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            recipe, keys, sk, pairs, code = prepared(spec, Path(tmp))
        say(f"\n{spec}: {len(keys)} rows, {len(pairs)} verified pairs")
        for name in names:
            t = time.process_time()
            groups = clustered(recipe, keys, sk, pairs, VARIANTS[name])
            labels = np.arange(len(keys), dtype=np.int64)
            at = {k: i for i, k in enumerate(keys)}
            for g in groups:
                labels[[at[k] for k in g.keys]] = at[g.keys[0]]
            p, r, f1, big, over5 = score(labels, code)
            table.append((spec, name, p, r, f1, big, over5))
            say(f"  {name:<16} P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
                  f"groups {len(groups)} CPU {time.process_time() - t:.2f} s")
            if name == "shipped":
                why, lone = causes(groups, keys, pairs, code)
                for k, v in sorted(why.items()):
                    say(f"    missed: {k:<34} {v} pairs")
                say(f"    rows in no group with accepted links into one group only (a true partner's): {lone}")
    say("\n| set | clustering | P | R | F1 | largest false group | false groups > 5 |\n|---|---|--:|--:|--:|--:|--:|")
    for row in table:
        say("| {} | {} | {:.4f} | {:.4f} | {:.4f} | {} | {} |".format(*row))
    base = {x[0]: x for x in table if x[1] == "shipped"}
    ranked = []
    for name in names:
        rs = [x for x in table if x[1] == name]
        kept = all(x[2] >= base[x[0]][2] - 1e-9 and x[6] <= base[x[0]][6] for x in rs) if base else None
        low, mean = min(x[3] for x in rs), float(np.mean([x[4] for x in rs]))
        say(f"{name}: mean F1 {mean:.4f}, lowest R {low:.4f}, false groups > 5 {sum(x[6] for x in rs)}, allowed {kept}")
        if kept and VARIANTS[name] is not None:
            d, share, least = VARIANTS[name]  # type: ignore[misc]
            ranked.append((round(low, 4), round(mean, 4), least, -d, share, name))
    if ranked:
        say(f"chosen: {max(ranked)[-1]}")


if __name__ == "__main__":
    main()

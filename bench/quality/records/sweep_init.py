"""The record recipe's settings swept through the config `dedup init` writes (issue 22, s35):
the fields, kinds (``chars``, n) and weights a user gets, not every field ``short`` at weight 1 as
bench/quality/records/sweep_joint.py scored them. TUNING data only.

    python -m bench.quality.records.sweep_init [--sets copies20:5000:0,...] [--grid NAME,...] [--rename id_number=col7]

Sets as bench/quality/records/sweep_floor.py. Each row is bench/quality/records/where.py's (never
candidates / under the bar / left apart, P / R / F1 of the groups `dedup full` makes, candidates
per row, keys); first, per set, the fields init chose. ``--rename`` renames a column before init
sees it (an id column under a neutral name); ``--weights`` changes init's weight for what a column
holds (``id=2,name=1.5``) in this process only. ``--sets growth``: tuning tables of 5,000 to
40,000 rows, n vs 2n (s36: the grids ``floor_each*`` chose ``floor_each``; s37: ``say*``, ``say``
left at ``distinct``, bench/results/persons-s37.md).
"""

from __future__ import annotations

import argparse

from bench.quality.records.init_config import describe, init_specs, renamed
from bench.quality.records.sweep_joint import SETS
from bench.quality.records.where import load, table
from dedup.db import guess_columns

GRIDS = {
    "shipped": [{}],
    "threshold": [{"threshold": t} for t in (0.625, 0.65, 0.7, 0.725)],
    "floor_light": [{"floor_light": b} for b in (0.0, 2.0, 6.0)],
    "joint": [{"joint": False}],
    "floor_light more": [{"floor_light": b} for b in (8.0, 10.0)],
    "floor_light 6 threshold": [{"floor_light": 6.0, "threshold": 0.65}],
    "floor_bands": [{"floor_bands": b} for b in (0, 1)],
    "floor_pairs": [{"floor_pairs": 12}, {"floor_partners": 30.0}],
    "floor_pairs 12": [{"floor_pairs": 12}],
    "floor_each": [{"floor_each": e} for e in (0.5, 1.0)],
    "floor_each 1": [{"floor_each": 1.0}],
    "floor_each off": [{"floor_each": 1000.0}],  # main's keys before s36
    "floor_each more": [{"floor_each": e} for e in (1.5, 2.0)],
    "say": [{"say": "chance"}],  # s37: a field's say from its chance of agreeing, not its distinct values
    "say threshold": [{"say": "chance", "threshold": t} for t in (0.7, 0.725)],
    "say mean": [{"say": "mean"}],  # the mean of the two
}
GROWTH = ("copies40:5000:0,copies40:10000:0,copies40:20000:1,copies40:40000:1,copies:5000:0,copies:20000:1,"
          "copies:40000:1,copies20:10000:4,copies20:20000:2,train:20000:0,labelled:20000:0")  # n vs 2n (s36)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=SETS, help="SPEC,... or 'growth': 5,000 to 40,000 rows (s36)")
    ap.add_argument("--grid", default=",".join(GRIDS))
    ap.add_argument("--rename", action="append", default=[], help="OLD=NEW: a column renamed before init")
    ap.add_argument("--weights", default="", help="HINT=W,...: init's weights by what a column holds (id=2,...)")
    a = ap.parse_args(argv)
    guess_columns._WEIGHTS.update({h: float(w) for h, w in (x.split("=") for x in a.weights.split(",") if x)})
    rename = dict(r.split("=") for r in a.rename)
    a.sets = GROWTH if a.sets == "growth" else a.sets
    for spec in a.sets.split(","):
        rows, _, fields = load(spec)
        print(f"- {spec}: {describe(init_specs(*renamed(rows, fields, rename))[0])}")
    print()
    table(a.sets.split(","), [kw for g in a.grid.split(",") for kw in GRIDS[g]], True, rename)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

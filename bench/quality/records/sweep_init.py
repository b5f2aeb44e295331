"""The record recipe's settings swept through the config `dedup init` writes (issue 22, s35):
the fields, kinds (``chars``, n) and weights a user gets, not every field ``short`` at weight 1 as
bench/quality/records/sweep_joint.py scored them. TUNING data only.

    python -m bench.quality.records.sweep_init [--sets copies20:5000:0,...] [--grid NAME,...] [--rename id_number=col7]

Sets as bench/quality/records/sweep_floor.py. Each row is bench/quality/records/where.py's (never
candidates / under the bar / left apart, P / R / F1 of the groups `dedup full` makes, candidates
per row, keys); first, per set, the fields init chose. ``--rename`` renames a column before init
sees it (an id column under a neutral name); ``--weights`` changes init's weight for what a column
holds (``id=2,name=1.5``) in this process only.
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
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--grid", default=",".join(GRIDS))
    ap.add_argument("--rename", action="append", default=[], help="OLD=NEW: a column renamed before init")
    ap.add_argument("--weights", default="", help="HINT=W,...: init's weights by what a column holds (id=2,...)")
    a = ap.parse_args(argv)
    guess_columns._WEIGHTS.update({h: float(w) for h, w in (x.split("=") for x in a.weights.split(",") if x)})
    rename = dict(r.split("=") for r in a.rename)
    for spec in a.sets.split(","):
        rows, _, fields = load(spec)
        print(f"- {spec}: {describe(init_specs(*renamed(rows, fields, rename))[0])}")
    print()
    table(a.sets.split(","), [kw for g in a.grid.split(",") for kw in GRIDS[g]], True, rename)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

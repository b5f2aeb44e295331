"""The sweep that chose the light floor (``floor_light``) and the two-field redundancy (``joint``)
of the record recipe (issue 22, persons with up to five corrupted copies), TUNING data only.

    python -m bench.quality.records.sweep_joint [--sets copies20:5000:0,...] [--grid NAME,...]

Sets as bench/quality/records/sweep_floor.py (``copies``, ``copies60``, ``copies40``, ``copies20``:
the share of people copied; ``copiesnf``: no families; ``train``; ``labelled``). Each row is
bench/quality/records/where.py's: the missed true pairs split into never candidates / under the
bar / left apart, then P / R / F1 of the groups `dedup full` makes (star clustering with
gathering), candidates per row and the keys.
"""

from __future__ import annotations

import argparse

from bench.quality.records.where import table

SETS = ("copies20:5000:0,copies20:5000:3,copies20:10000:4,copies40:5000:0,copies:5000:0,copies60:5000:0,"
        "copiesnf:5000:0,train:5000:0,labelled:20000:0,copies:20000:1,copies40:20000:1,train:20000:0")
BEFORE = {"floor_light": 0.0, "joint": False}
GRIDS = {
    "shipped": [{}],
    "before": [BEFORE],
    "floor_light": [{"joint": False, "floor_light": b} for b in (2.0, 4.0, 6.0)],
    "joint": [{"floor_light": 0.0}],
    "threshold": [{"threshold": t} for t in (0.65, 0.7)],
    "light with joint": [{"floor_light": 6.0}],
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--grid", default=",".join(GRIDS))
    a = ap.parse_args(argv)
    table(a.sets.split(","), [kw for g in a.grid.split(",") for kw in GRIDS[g]])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

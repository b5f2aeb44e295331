"""Issue 26: how each stage of a full run grows with the rows, from bench.perf.memory_stages' JSON
outputs (one size each, or several): wall and CPU seconds a stage, the run's peak a row, and each
stage's growth from the smallest size against n and n log n (a stage above n log n's growth grows
faster than a sort).

    python -m bench.perf.scale_growth s42-200k.json s42-1m.json [s42-2m.json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path


def runs_of(paths: list[Path]) -> list[dict]:
    """The runs of this checkout (not a baseline's) in the files, smallest first."""
    runs = [r for p in paths for r in json.loads(p.read_text()) if r.get("code") == "this checkout"]
    return sorted(runs, key=lambda r: r["rows"])


def table(runs: list[dict]) -> str:
    """A markdown table: a stage a line, each size's wall (CPU) seconds, then the growth columns."""
    base = runs[0]
    head = ["stage"] + [f"{r['rows']:,} wall (CPU) s" for r in runs] + \
        [f"x{r['rows'] / base['rows']:g} rows: wall, CPU (n log n: {_nlogn(base['rows'], r['rows']):.2f})" for r in runs[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for stage in base["stages"]:
        cells = [f"{r['stages'].get(stage, 0):.1f} ({r.get('stages_cpu', {}).get(stage, 0):.1f})" for r in runs]
        for r in runs[1:]:
            cells.append(f"{_ratio(r['stages'], base['stages'], stage)}, {_ratio(r.get('stages_cpu', {}), base.get('stages_cpu', {}), stage)}")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def peaks(runs: list[dict]) -> str:
    """A line a size: the wall seconds, CPU seconds, the largest process's peak and per row."""
    out = []
    for r in runs:
        peak = max(r["self_peak_mb"], r["children_peak_mb"])
        out.append(f"{r['rows']:,} rows: {r['seconds']:.0f} s wall, {r.get('cpu_s', 0):.0f} CPU s, groups {r['groups']:,}, "
                   f"peak {peak:,.0f} MB ({peak * 1024 / r['rows']:.2f} KB a row; run's process {r['self_peak_mb']:,.0f}, "
                   f"largest child {r['children_peak_mb']:,.0f})")
    return "\n".join(out)


def _nlogn(n: int, m: int) -> float:
    return m * math.log(m) / (n * math.log(n))


def _ratio(a: dict, b: dict, stage: str) -> str:
    return f"{a[stage] / b[stage]:.2f}" if b.get(stage) and stage in a else "-"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", type=Path)
    runs = runs_of(p.parse_args(argv).files)
    sys.stdout.write(f"{peaks(runs)}\n\n{table(runs)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

# ruff: noqa: T201  (a one-off script kept with its output: it prints)
"""The page's table (growth-s42.md) from tail_scale's JSON: per stage, n, 2n, 4n, the growth and n log n's."""
import json
import math
import sys

STAGES = ("groups", "candidates", "verify")
for path in sys.argv[1:]:
    runs = json.load(open(path))
    sizes = [r["rows"] for r in next(iter(runs.values()))]
    nlogn = [b * math.log(b) / (a * math.log(a)) for a, b in ((sizes[0], sizes[1]), (sizes[1], sizes[2]), (sizes[0], sizes[2]))]
    print(f"\n{path}\n\n| stage, code | {sizes[0]:,} | {sizes[1]:,} | {sizes[2]:,} | 2n / n | 4n / 2n | 4n / n |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    print("| n log n | | | | " + " | ".join(f"{x:.2f}" for x in nlogn) + " |")

    def row(label, vals, fmt):
        r = [vals[1] / vals[0], vals[2] / vals[1], vals[2] / vals[0]] if vals[0] else [0, 0, 0]
        print(f"| {label} | " + " | ".join(format(v, fmt) for v in vals) + " | " + " | ".join(f"{x:.2f}" for x in r) + " |")

    for name, rs in runs.items():
        who = "branch" if name == "this checkout" else "main"
        for s in STAGES:
            row(f"{s} CPU s, {who}", [r["cpu"].get(s, 0.0) for r in rs], ".2f")
    rs = next(iter(runs.values()))
    row("pairs sharing a key", [r["in_buckets"] for r in rs], ",")
    row("candidates (past the screen)", [r["candidates"] for r in rs], ",")
    row("verified pairs", [r["verified"] for r in rs], ",")
    row("verified pairs a row", [r["verified"] / r["rows"] for r in rs], ".3f")
    row("pairs sharing a key a verified pair", [r["in_buckets"] / r["verified"] for r in rs], ".1f")
    row("candidates a verified pair", [r["candidates"] / r["verified"] for r in rs], ".3f")
    row("largest bucket", [r["largest_bucket"] for r in rs], ",")
    row("entries in buckets over the anchors", [r["rows_in_them"] for r in rs], ",")

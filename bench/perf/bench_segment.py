"""Segmentation speed of jieba and rjieba on one core, and whether their words are identical (issue 12).

Run by hand (not part of the tests):

    python -m bench.perf.bench_segment [--rows 20000] [--seed 42] [--repeat 3]

Two inputs, each normalised first as the Featurizer does (normalising is not timed): the People's
Daily excerpt of ``bench/datasets/heldout`` (one row a paragraph; made by ``bench/datasets/heldout/extract_excerpt.py``,
skipped with a note when missing) and ``generate_petitions(rows, seed)`` (one row = title +
content). For each HMM mode it times the word function dedup uses (``cutter(engine, hmm)``) over
every row with jieba and with rjieba, and rjieba's own cut alone (what rjieba gives without
dedup's guard, which is not identical with the HMM on). A row counts as differing when its words
differ from jieba's in any way. Rates are rows per second, the best of ``--repeat`` passes, in this
one process pinned to one core; the 1-minute load average is printed before and after (the
machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench.datasets.heldout.petitions_news import CORPUS
from dedup.demo.generator import generate_petitions
from dedup.text.normalize import normalize_text
from dedup.text.segment import _rjieba, cutter, engine_version


def corpus_rows() -> list[list[str]] | None:
    if not os.path.isfile(CORPUS):
        return None
    with open(CORPUS, encoding="utf-8") as f:
        return [[normalize_text(line)] for line in f if line.strip()]


def petition_rows(n: int, seed: int) -> list[list[str]]:
    return [[normalize_text(r[c]) for c in ("title", "content") if r.get(c)] for r in generate_petitions(n, seed).rows]


def best_rate(cut, rows: list[list[str]], repeat: int) -> tuple[float, list[list[str]]]:
    """Rows per second of the best pass, and the words of every text of every row."""
    best, words = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        words = [list(cut(text)) for row in rows for text in row]
        best = min(best, time.perf_counter() - start)
    return len(rows) / best, words


def load() -> str:
    return "%.2f" % os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=20000, help="generated petitions (default 20000)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--repeat", type=int, default=3, help="passes per measurement; the best counts")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    inputs = {"People's Daily 1998-01": corpus_rows(), f"petitions ({args.seed})": petition_rows(args.rows, args.seed)}
    if inputs["People's Daily 1998-01"] is None:
        print(f"note: {CORPUS} missing (bench/datasets/heldout/extract_excerpt.py makes it): corpus rows skipped")
        del inputs["People's Daily 1998-01"]
    for hmm in (True, False):  # load both dictionaries outside the timing
        cutter("jieba", hmm)("预热"), cutter("rjieba", hmm)("预热")
    print(f"engines: {engine_version('jieba', True)} | {engine_version('rjieba', True)}; "
          f"cores used: 1; load average at start: {load()}")
    head = ("input", "hmm", "rows", "jieba rows/s", "rjieba rows/s", "x jieba", "rows differing",
            "rjieba alone rows/s", "alone: rows differing")
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for name, rows in inputs.items():
        for hmm in (True, False):
            ref_rate, ref = best_rate(cutter("jieba", hmm), rows, args.repeat)
            rj_rate, rj = best_rate(cutter("rjieba", hmm), rows, args.repeat)
            alone = _rjieba()
            raw_rate, raw = best_rate(lambda text: alone.cut(text, hmm), rows, args.repeat)
            per_row = [len(r) for r in rows]
            print(f"| {name} | {'on' if hmm else 'off'} | {len(rows):,} | {ref_rate:,.0f} | {rj_rate:,.0f} | "
                  f"{rj_rate / ref_rate:.1f} | {differing(ref, rj, per_row):,} | {raw_rate:,.0f} | "
                  f"{differing(ref, raw, per_row):,} |")
    print(f"load average at end: {load()}")
    return 0


def differing(ref: list[list[str]], other: list[list[str]], per_row: list[int]) -> int:
    """Rows with any text whose words differ."""
    n, i = 0, 0
    for k in per_row:
        n += ref[i:i + k] != other[i:i + k]
        i += k
    return n


if __name__ == "__main__":
    sys.exit(main())

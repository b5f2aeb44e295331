"""Issue 22, session 44: rule ``places_against`` on the form letters of 180-260 characters that it
never reads (``places_against_chars``), chosen on TUNING sets only.

    python -m bench.quality.forms_s44_sweep [--sets ...] [--variants "c200,c300,c300 nn"] [--cache DIR]

Why (bench/quality/forms_s44_where.py, bench/results/forms6-s44.md): the tuning forms' false groups
over 5 rows at 100k and 200k rows are letters of one form and topic by different people at
different communities, joined pair by pair by rule ``content`` (J 0.75-0.86): the head rule places
them as it places copies. Rule ``places_against`` is for exactly these, but it reads only pairs
whose shorter content is under 200 characters, and these letters are 180-260.

Each set runs once through `dedup full` in process (textjoin_s40_sweep.prepared; ``--cache``: kept
there); each variant ``cN`` verifies the set's candidates with ``places_against_chars`` N (``nn``:
``places_need_numbers`` off, a place name alone counting against), every other setting as shipped,
and groups them as `dedup full` does. Allowed (topic_s41_sweep.allowed): no set's precision under
the shipped variant's, no set with more false groups over 5 rows; then the fewest false groups over
5 rows, the highest lowest recall, the highest mean F1, ties to the smaller change. The last line
names the choice. ``w0`` is the checkout's own place names: the committed log was made at 338852a
(main's, before 离 was made a function character); on a later checkout ``w0`` is ``w1``.
"""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from unittest import mock

from bench.quality.forms_s44_where import load_set, scored
from bench.quality.textjoin_s40_sweep import clustered, say
from bench.quality.topic_s41_sweep import SETS as S41
from bench.quality.topic_s41_sweep import allowed
from dedup.text import numbers

SETS = S41 + ",tickets_namesakes:5000:0,places_namesakes:5000:0,places_namesakes:20000:1,forms:100000:2,forms:200000:3"
SHIPPED = "w0 c200"
VARIANTS = [f"{w} {c}" for w in ("w0", "w1", "w2") for c in ("c200", "c250", "c300", "c300 nn")]
# place names that are none, left out besides session 40's: (function characters, two-character words)
WORDS = {"w0": ("", ()), "w1": ("离", ()), "w2": ("离们", ("单元", "住户"))}


@contextmanager
def words(name: str):
    """dedup.text.numbers.not_a_name leaving out the matches of ``WORDS[name]`` too."""
    chars, two = WORDS[name]
    shipped = numbers.not_a_name

    def not_a_name(match: str) -> bool:
        return shipped(match) or match[0] in chars or match[1] in chars or match[:2] in two
    with mock.patch.object(numbers, "not_a_name", not_a_name):
        yield


def variant(recipe, name: str):
    """The shipped recipe with ``places_against_chars`` N (``cN``), ``nn``: places_need_numbers off."""
    _, chars, *rest = name.split()
    m = recipe.method
    verifier = replace(m.verifier, places_against_chars=int(chars[1:]), places_need_numbers="nn" not in rest)
    return replace(recipe, method=replace(m, verifier=verifier))


def run_set(spec: str, names: list[str], table: list, cache: str | None, stored=None) -> None:
    """Each variant's first word names the stored rows (``stored``, a context: ``words`` here) run once."""
    for w in sorted({n.split()[0] for n in names}):
        with (stored or words)(w):
            recipe, keys, sk, _, code = load_set(spec, cache and str(Path(cache) / w))
        say(f"\n{spec} {w}: {len(keys)} rows")
        at = {k: i for i, k in enumerate(keys)}
        for name in (n for n in names if n.split()[0] == w):
            score_variant(spec, name, recipe, keys, sk, code, at, table)


def score_variant(spec: str, name: str, recipe, keys, sk, code, at, table: list, make=None) -> None:
    """Verify and group one set's rows as variant ``name`` (one line of ``table``; ``make``: the variant's recipe, ``variant`` here)."""
    rec = (make or variant)(recipe, name)
    t = time.process_time()
    pairs = rec.pairs(keys, sk)
    groups = clustered(rec, keys, sk, pairs, (rec.near_bar, 0.5, 4) if rec.near_bar is not None else None)
    cpu = time.process_time() - t
    table.append((spec, name, *scored(groups, at, code), len(pairs), cpu))
    say("  {1:<10} P {2:.5f} R {3:.5f} F1 {4:.5f} largest false {5} false>5 {6} pairs {7} "
        "verify+group CPU {8:.2f} s".format(*table[-1]))


def main(doc: str = __doc__, variants: list[str] = VARIANTS, sets: str = SETS, shipped: str = SHIPPED, run=None, rank=None) -> None:
    """The sweep's command line; later sweeps (forms_s45_sweep, topic_s47_sweep) pass their own sets, variants,
    ``run`` (run_set) and ``rank`` (table, names, the allowed (name, lowest R, mean F1) -> the key to maximise, name last)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cache", default=None)
    ap.add_argument("--variants", default=",".join(variants))
    ap.add_argument("--sets", default=sets)
    a = ap.parse_args()
    names = a.variants.split(",")
    table: list = []
    for spec in a.sets.split(","):
        (run or run_set)(spec, names, table, a.cache)
    say("(columns 'candidates' of the table below: the verified pairs)")
    over = {n: sum(x[6] for x in table if x[1] == n) for n in names}
    ranked = [rank(table, names, *ok) if rank else (-over[ok[0]], round(ok[1], 4), round(ok[2], 4), -names.index(ok[0]), ok[0])
              for ok in allowed(table, names, shipped)]
    if ranked:
        say(f"chosen: {max(ranked)[-1]}")


if __name__ == "__main__":
    main()

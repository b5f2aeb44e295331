"""Issue 22, session 47: a pair accepted on the content bar alone, near it, decided again on more
MinHash values (dedup.index.confirm), chosen on TUNING sets only (bench/results/forms9-s47.md).

    python -m bench.quality.forms_s47_sweep [--sets ...] [--variants "m0,m0.05 y128"] [--cache DIR]

Round two (forms10-s47.md): the confirming values are stored as 4-bit codes (dedup.index.confirm),
the same grid and rule, two grid points added (``m0.05 y96``, ``m0.07 y128``) before the run; every
variant but ``m0`` lost petitions 5k recall 0.9953 -> 0.9891, so two more were added before a second
run: ``m0.01 y64``, ``m0.01 y128`` (only pairs at exactly 48 of 64 re-decided).

64 values estimate J with an error of about 0.05 at the bar 0.75: held-out form letters 200k keep a
false group of 6 joined at 48 of 64 (true J 0.743, forms6-s44.md). Each set runs once through
`dedup full` in process with 128 confirming values stored (they change no key, screen or other
word: with ``m0`` the decisions are the checkout's without them); each variant ``mX yN`` verifies
its candidates re-deciding the pairs accepted on the content bar alone under ``threshold + X`` on
the 64 values and the first N confirming ones (``m0``: off, the shipped variant), and groups them
as `dedup full` does. Allowed: no set's precision under ``m0``'s, no set with more false groups over
5 rows, no set's recall down by more than 0.005; then the fewest false groups over 5 rows, the
highest lowest recall, the highest mean F1, ties to the smaller change (earlier in the list).
"""

from __future__ import annotations

import argparse
from contextlib import contextmanager
from dataclasses import replace
from unittest import mock

import numpy as np

from bench.quality import forms_s44_sweep
from bench.quality.forms_s45_sweep import SETS as S45
from bench.quality.textjoin_s40_sweep import say
from bench.quality.topic_s41_sweep import allowed
from dedup.methods.text import TextMinHash

SETS = S45.replace(",forms:100000:2,forms:200000:3", "")
SHIPPED = "m0"
VARIANTS = ["m0", "m0.03 y64", "m0.05 y64", "m0.03 y128", "m0.05 y128", "m0.1 y128", "m1 y128", "m0.05 y96", "m0.07 y128", "m0.01 y64",
            "m0.01 y128"]
STORED = 128  # confirming values stored in the sweep's full runs
RECALL_COST = 0.005
_OF = TextMinHash.of


@contextmanager
def stored(_: str):
    """Full runs whose text signatures keep STORED confirming values, read by no rule (margin 0)."""
    def of(config, tcfg):
        got = _OF(config, tcfg)
        sig = replace(got.signature, confirm=STORED)
        return replace(got, signature=sig, verifier=replace(got.verifier, confirm_at=sig.confirm_at, confirm=0, confirm_margin=0.0))
    with mock.patch.object(TextMinHash, "of", classmethod(lambda cls, config, tcfg: of(config, tcfg))):
        yield


def variant(recipe, name: str):
    """``mX yN``: the pairs on the content bar alone under it + X re-decided on N confirming values too."""
    words = dict((w[0], w[1:]) for w in name.split())
    m = recipe.method
    v = replace(m.verifier, confirm_margin=float(words["m"]), confirm=int(words.get("y", 0)))
    return replace(recipe, method=replace(m, verifier=v))


def run_set(spec: str, names: list[str], table: list, cache: str | None) -> None:
    """Every variant of one stored run (the first word ``k``: 128 confirming values kept)."""
    with mock.patch.object(forms_s44_sweep, "variant", lambda r, n: variant(r, n.split(" ", 1)[1])):
        forms_s44_sweep.run_set(spec, [f"k {n}" for n in names], table, cache, stored)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", default=None)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--sets", default=SETS)
    a = ap.parse_args()
    names = [f"k {n}" for n in a.variants.split(",")]
    table: list = []
    for spec in a.sets.split(","):
        run_set(spec, [n[2:] for n in names], table, a.cache)
    base = {x[0]: x for x in table if x[1] == f"k {SHIPPED}"}
    costly = {x[1] for x in table if x[3] < base[x[0]][3] - RECALL_COST}
    for n in sorted(costly):
        say(f"{n}: some set's recall fell by more than {RECALL_COST}: not allowed")
    over = {n: sum(x[6] for x in table if x[1] == n) for n in names}
    ranked = [(-over[name], round(low, 4), round(mean, 4), -names.index(name), name)
              for name, low, mean in allowed(table, names, f"k {SHIPPED}") if name not in costly]
    say(f"chosen: {max(ranked)[-1][2:] if ranked else SHIPPED} (mean F1 over sets {np.mean([x[4] for x in table]):.4f})")


if __name__ == "__main__":
    main()

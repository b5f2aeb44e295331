"""Issue 22, session 48, second lever: the least a common content feature weighs (``match.common_floor``),
raised, chosen on TUNING sets only (bench/results/recall-s48.md).

    python -m bench.quality.recall_s48_floor_sweep [--sets ...] [--variants "f0.3,f0.4"] [--cache DIR]

Why (recall_s48_where.py's log): the collective copies the tuning petitions lose are refused at an
estimated J of 0.55-0.74 while their exact plain Jaccard is 0.77-0.88: their shared body is the
topic's wording, which many other petitions carry, so it weighs down to the floor 0.3 while each
copy's own address, household and added sentence weigh 1. The floor was chosen in session 33's
sweep (tuning22_sweep.py) from 0.1, 0.2, 0.3: 0.3 was the top of its grid. A higher floor weighs
the shared body more; a form's shared opening and closing more too, which is what the guard sets
(forms, forms_orgs, letters_namesakes, places) watch.

Each variant ``fF`` runs each set through `dedup full` in process with ``common_floor`` F
(forms_s44_where.load_set; ``--cache``: kept per variant), verifies and groups as `dedup full`
does. The rule (committed with this script, before the sweep ran; recall_s48_sweep.py's): allowed
when no set's precision falls below the shipped variant's (1e-9) and no set has more false groups
over 5 rows (topic_s41_sweep.allowed); of those the highest lowest recall over the petitions sets,
then the highest mean F1 over every set, ties to the earlier variant listed. The last line names
the choice.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from unittest import mock


from bench.quality import forms_s44_sweep
from bench.quality.forms_s44_where import load_set, scored
from bench.quality.recall_s48_sweep import SETS, ranked
from bench.quality.textjoin_s40_sweep import clustered, say
from dedup.methods.text import TextMinHash

SHIPPED = "f0.3"
VARIANTS = [SHIPPED, "f0.35", "f0.4", "f0.5"]
_OF = TextMinHash.of


@contextmanager
def floor(value: float):
    """Full runs whose text tables learn common features with ``common_floor`` ``value``."""
    def of(config, tcfg):
        got = _OF(config, tcfg)
        return replace(got, common=(got.common[0], got.common[1], value))
    with mock.patch.object(TextMinHash, "of", classmethod(lambda cls, config, tcfg: of(config, tcfg))):
        yield


def run_set(spec: str, names: list[str], table: list, cache: str | None) -> None:
    """Each variant's full run of one set, verified and grouped (one line of ``table`` each)."""
    say(f"\n{spec}")
    for name in names:
        with floor(float(name[1:])):
            recipe, keys, sk, pairs, code = load_set(spec, cache and str(Path(cache) / name))
        at = {k: i for i, k in enumerate(keys)}
        t = time.process_time()
        groups = clustered(recipe, keys, sk, pairs, (recipe.near_bar, 0.5, 4))
        table.append((spec, name, *scored(groups, at, code), len(pairs), time.process_time() - t))
        say("  {1:<8} P {2:.5f} R {3:.5f} F1 {4:.5f} largest false {5} false>5 {6} pairs {7} "
            "group CPU {8:.2f} s".format(*table[-1]))


if __name__ == "__main__":
    forms_s44_sweep.main(__doc__, VARIANTS, SETS, SHIPPED, run_set, ranked)

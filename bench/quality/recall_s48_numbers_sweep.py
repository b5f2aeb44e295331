"""Issue 22, session 48, third lever: the J from which the numbers no longer count against a long
pair (``match.numbers_sure``), lowered, chosen on TUNING sets only (bench/results/recall-s48.md).

    python -m bench.quality.recall_s48_numbers_sweep [--sets ...] [--variants "u0.9,u0.85"] [--cache DIR]

Why (recall_s48_where.py's log): 115 of the true pairs the tuning petitions lose are collective
copies at estimated J 0.75-0.87 refused by rule ``numbers_against``: each signer's own address and
household numbers differ, so they share under half their numbers. Above ``numbers_sure`` (0.9) the
numbers never count against a pair. The first two levers (recall_s48_sweep.py, near widening;
recall_s48_floor_sweep.py, the common floor) were refused by the rule.

Each set runs once through `dedup full` in process (forms_s44_where.load_set; ``--cache``: kept
there, recall_s48_sweep's); each variant ``uU`` verifies its candidates with ``numbers_sure`` U,
every other setting as shipped, and groups them as `dedup full` does
(forms_s44_sweep.score_variant). The rule is recall_s48_sweep's (committed with this script, before
the sweep ran): allowed when no set's precision falls below the shipped variant's (1e-9) and no set
has more false groups over 5 rows; of those the highest lowest recall over the petitions sets, then
the highest mean F1, ties to the earlier variant listed. The last line names the choice.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from bench.quality import forms_s44_sweep, topic_s47_sweep
from bench.quality.recall_s48_sweep import SETS, ranked

SHIPPED = "u0.9"
VARIANTS = [SHIPPED, "u0.87", "u0.85", "u0.8"]


def variant(recipe, name: str):
    """The shipped recipe with ``numbers_sure`` U (``uU``)."""
    m = recipe.method
    return replace(recipe, method=replace(m, verifier=replace(m.verifier, numbers_sure=float(name[1:]))))


if __name__ == "__main__":
    forms_s44_sweep.main(__doc__, VARIANTS, SETS, SHIPPED, partial(topic_s47_sweep.run_set, make=variant), ranked)

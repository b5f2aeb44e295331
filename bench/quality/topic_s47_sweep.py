"""Issue 22, session 47: bands of 2 values with the pairs only they find kept on the plain bars or
rule ``numbers`` at a place both rows name (TextVerifier.wide_keys), chosen on TUNING sets only.

    python -m bench.quality.topic_s47_sweep [--sets places:3000:0,...] [--variants "r4 n0.45 p,r2 n0.45 p w4"] [--cache DIR]

Why (bench/results/topic5-s47.md): the topic refiles lost today are never candidates (13 bands of
4 values find a pair of J 0.47 with probability 0.48), and rule ``numbers`` would keep them; bands
of 2 find them but also namesakes, which the identity bars keep on the name alone (topic2-s42.md,
topic3-s44.md, namesakes-s45.md). ``wW``: a pair sharing no band of W values and no identity key
is kept only on the plain content bars or by rule ``numbers`` at a place both rows name.

Each set runs once through `dedup full` in process (forms_s44_where.load_set; ``--cache``: kept
there); each variant ``rR nF p [wW]`` searches candidates with bands of R values and verifies them
with ``numbers_floor`` F, ``numbers_places`` and ``wide_keys`` W (absent: 0, off), every other
setting as shipped, and groups them as `dedup full` does (forms_s44_sweep.score_variant: its CPU is
the verification and grouping; the first run's log, at da64bd4, gave the search and verification). The rule (topic5-s47.md, committed before
the sweep ran): allowed when no set's precision falls below the shipped variant's (1e-9) and no set
has more false groups over 5 rows (topic_s41_sweep.allowed); of those the highest lowest recall
over the topic sets (places*), then the highest mean F1 over every set, ties to the earlier
variant listed. The last line names the choice.
"""

from __future__ import annotations

from dataclasses import replace

from bench.quality import forms_s44_sweep
from bench.quality.forms_s44_where import load_set
from bench.quality.textjoin_s40_sweep import say
from bench.quality.topic_s41_sweep import SETS as S41

SETS = S41 + (",tickets_namesakes:5000:0,places_namesakes:5000:0,places_namesakes:20000:1,"
              "letters_namesakes:5000:0,letters_namesakes:20000:1")
SHIPPED = "r4 n0.45 p"
VARIANTS = [SHIPPED, "r2 n0.45 p", "r2 n0.45 p w4", "r3 n0.45 p w4"]


def variant(recipe, name: str):
    """The shipped recipe with bands of R values, rule numbers' floor F, ``numbers_places`` (``p``) and ``wide_keys`` W (``wW``)."""
    r, f, *rest = name.split()
    wide = [int(t[1:]) for t in rest if t.startswith("w")]
    m = recipe.method
    verifier = replace(m.verifier, numbers_floor=float(f[1:]), numbers_places="p" in rest, wide_keys=wide[0] if wide else 0)
    return replace(recipe, method=replace(m, scheme=replace(m.scheme, r=int(r[1:])), verifier=verifier))


def run_set(spec: str, names: list[str], table: list, cache: str | None, make=None) -> None:
    """Every variant of one set's run (``make``: the variant's recipe, ``variant`` here; recall_s48_numbers_sweep passes its own)."""
    recipe, keys, sk, _, code = load_set(spec, cache)
    say(f"\n{spec}: {len(keys)} rows")
    at = {k: i for i, k in enumerate(keys)}
    for name in names:
        forms_s44_sweep.score_variant(spec, name, recipe, keys, sk, code, at, table, make=make or variant)


def lowest_over(prefix: str, what: str):
    """The rule's order (forms_s44_sweep.main's ``rank``): the lowest recall over the sets named ``prefix``..., the mean F1,
    the earlier listed."""
    def rank(table: list, names: list[str], name: str, low: float, mean: float) -> tuple:
        worst = min(x[3] for x in table if x[1] == name and x[0].startswith(prefix))
        say(f"{name}: lowest R over the {what} sets {worst:.4f}")
        return round(worst, 4), round(mean, 4), -names.index(name), name
    return rank


topic_first = lowest_over("places", "topic")  # the topic sets: places*


if __name__ == "__main__":
    forms_s44_sweep.main(__doc__, VARIANTS, SETS, SHIPPED, run_set, topic_first)

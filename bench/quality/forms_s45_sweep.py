"""Issue 22, session 45: organisation names read by rule ``places_against`` beside the place names,
chosen on TUNING sets only (bench/results/forms7-s45.md).

    python -m bench.quality.forms_s45_sweep [--sets ...] [--variants "o0 c250,o1 c250"] [--cache DIR]

Letters of one standard form around one body template by people of different companies, shops,
schools or hospitals differ only in the organisation's name; with no place named, rule
``places_against`` had nothing to read (the tuning set: bench/datasets/tuning22/forms_orgs.py).
Each set runs once through `dedup full` in process per organisation variant (the names are in the
stored number words): ``o0`` none (main's number words), ``o1`` dedup.text.organisations'. Each
``cN`` verifies with ``places_against_chars`` N; ``n0``: ``places_numberless`` on (two rows naming
no number at all: the names alone count against); ``nn``: ``places_need_numbers`` off (a name
alone counts against whatever the numbers); ``s1``: ``places_sure`` 1.0 (the rule reads pairs up to
J 1.0, not only under ``numbers_sure`` 0.9: letters differing in a two-character name alone reach
0.9; added after the first results, see the page). Scored, allowed and chosen as forms_s44_sweep: allowed when no set's precision is
under the shipped variant's and no set has more false groups over 5 rows; then the fewest false
groups over 5 rows, the highest lowest recall, the highest mean F1, ties to the smaller change.
Session 46 (bench/results/forms8-s46.md): ``n0`` lets the names alone count for organisation names only.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from unittest import mock

from bench.quality import forms_s44_sweep
from bench.quality.forms_s44_sweep import SETS as S44
from dedup.text import numbers

SETS = S44 + ",forms_orgs:5000:0,forms_orgs:20000:1"
SHIPPED = "o0 c250"
VARIANTS = ["o0 c250", "o0 c250 n0", "o1 c250", "o1 c250 n0", "o1 c250 nn", "o1 c300 n0", "o1 c250 n0 s1", "o1 c250 s1"]
_S44_VARIANT = forms_s44_sweep.variant


def variant(recipe, name: str):
    """forms_s44_sweep.variant, ``places_numberless`` on with ``n0`` and off without (two rows naming no number: the names alone count)."""
    got = _S44_VARIANT(recipe, name)
    m = got.method
    sure = float(next((w[1:] for w in name.split() if w.startswith("s")), 0))
    return replace(got, method=replace(m, verifier=replace(m.verifier, places_numberless="n0" in name.split(), places_sure=sure)))


@contextmanager
def organisations(name: str):
    """``o0``: number words without organisation names (main's); ``o1``: with them (this checkout's)."""
    if name == "o1":
        yield
        return
    with mock.patch.object(numbers, "organisation_tokens", lambda text: set()):
        yield


def run_set(spec: str, names: list[str], table: list, cache: str | None) -> None:
    with mock.patch.object(forms_s44_sweep, "variant", variant):
        forms_s44_sweep.run_set(spec, names, table, cache, organisations)


def main() -> None:
    forms_s44_sweep.main(__doc__, VARIANTS, SETS, SHIPPED, run_set)


if __name__ == "__main__":
    main()

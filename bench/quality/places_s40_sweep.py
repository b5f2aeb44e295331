"""Rule ``places_against`` for longer contents (issue 22, session 40), on TUNING sets only.

    python -m bench.quality.places_s40_sweep [--sets forms:200000:2,...] [--points 200,1000000] [--save F.json] [--rank A.json,...]

Why: at 200,000 rows the tuning forms have about 114 false groups over 5 rows (`dedup full` at the
defaults, P 0.9959), every one made of form letters on one topic: a shared form of about 150
characters around the same topic's template sentence, each letter naming its own district,
community and dates (log: bench/results/logs/s40/lead/forms200k-false-groups.log). Their estimated
J is 0.75-0.92; rule ``places_against`` (a long pair under ``numbers_sure`` naming places, none the
same, its numbers not all alike) would drop such pairs, but only where the shorter content is under
``places_against_chars`` 200, and these letters run 250-330 characters. Session 37 chose 200 at up to
50,000 rows, where it tied with every long pair (tuning22_numtok_sweep.py); this sweep asks the same
question with the 200k sets in it.

Points: ``places_against_chars`` of PLACES (200: shipped; 10**6: every long pair), everything else as
shipped (the identity words marked with identity_rare_rows 5 as a full run marks them, rule
content_rare_identity at 0.35). Each set is signed once a version (tuning22_numbers_sweep.signed_raw;
v2: ``dedup.text.numbers.not_a_name`` leaves no match out); groups as main 4dfeaf5's `dedup full`
made them for a text table (zhrecall_s38_sweep.labels widened; session 40's near widening came
after). Ranked as
zhbar_s39_sweep: false groups over 5 rows, then precision falls as a family's table grows, then the
mean F1, then the smaller reach (the narrower rule).
"""

from __future__ import annotations

from dataclasses import replace

import dedup.text.numbers as numbers
from bench.quality.tuning22_numbers_sweep import signed_raw
from bench.quality.tuning22_sweep import score
from bench.quality.zhbar_s39_sweep import marked, rank, run
from bench.quality.zhrecall_s38_sweep import false_over, labels, verifier

PLACES = (200, 400, 10 ** 6)  # places_against_chars; 200: shipped
TOKENS = ("v2", "v3")  # place names as NUMBERS_VERSION 2 found them (session 37), or 3 (session 40: matches that are no name left out)


def sweep_set(spec: str, results: dict, grid) -> None:
    shipped = numbers.not_a_name
    for tokens in TOKENS:
        numbers.not_a_name = (lambda match: False) if tokens == "v2" else shipped  # v2: every match (what place_tokens calls)
        try:
            s, raw, i, j, code, at, identity = signed_raw(spec)
        finally:
            numbers.not_a_name = shipped
        s = marked(s, raw, 5)  # the shipped identity_rare_rows
        for chars in grid:
            ver = replace(verifier(identity, at, 0.45, 0.75), identity_rare_threshold=0.35, places_against_chars=chars)
            lab = labels(s, i, j, ver, widen=True)
            p, r, f1, big = score(lab, code)
            over5 = false_over(lab, code, 5)
            results[f"{tokens} {chars}"].append((spec, p, r, f1, big, over5))
            print(f"{spec:<24} places {tokens} places_against_chars {chars:>7}: P {p:.4f} R {r:.4f} F1 {f1:.4f} "
                  f"largest false {big} false>5 {over5}", flush=True)


def _tie(point: str) -> tuple:
    """The narrower reach first, then the place names' version."""
    tokens, chars = point.split()
    return int(chars), tokens


def main() -> None:
    run(sweep_set, PLACES, int, lambda results: rank(results, _tie, "place names, places_against_chars",
                                                     "then the narrower rule"), __doc__.splitlines()[0])


if __name__ == "__main__":
    main()

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
content_rare_identity at 0.35). Each set is signed once (tuning22_numbers_sweep.signed_raw); groups
as `dedup full` makes them for a text table (star clustering, gathered, merged, widened). Ranked as
zhbar_s39_sweep: false groups over 5 rows, then precision falls as a family's table grows, then the
mean F1, then the smaller reach (the narrower rule).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bench.quality.tuning22_numbers_sweep import signed_raw
from bench.quality.tuning22_sweep import score
from bench.quality.zhbar_s39_sweep import marked, rank, run
from bench.quality.zhrecall_s38_sweep import verifier
import dedup.text.numbers as numbers
from dedup.index.clusters import star_clusters
from dedup.index.groups import Pair
from dedup.text.normalize import nfkc
from dedup.text.numbers import _PLACE

PLACES = (200, 400, 10 ** 6)  # places_against_chars; 200: shipped
TOKENS = ("v2", "v3")  # place names as NUMBERS_VERSION 2 found them (session 37), or 3 (session 40: matches that are no name left out)


def place_tokens_v2(text: str) -> set[str]:
    """dedup.text.numbers.place_tokens as NUMBERS_VERSION 2 had it (session 37): every match."""
    text = nfkc(text)
    found = sorted(((m.start(), m.start() + len(m.group(1))) for m in _PLACE.finditer(text)), key=lambda se: -se[1])
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if all(end <= s or start >= e for s, e in kept):
            kept.append((start, end))
    return {text[s:e] for s, e in kept}


def labels(s: np.ndarray, i: np.ndarray, j: np.ndarray, ver) -> np.ndarray:
    """Each row's group as `dedup full` makes them for a text table: star clusters of the kept pairs,
    gathered, merged and widened (dedup.methods.text.TextMinHash's flags)."""
    keep = ver(s[i], s[j])

    def check(pairs):
        a = np.array([int(p) for p, _ in pairs], np.int64)
        b = np.array([int(q) for _, q in pairs], np.int64)
        return ver(s[a], s[b]).tolist() if len(a) else []

    out = np.arange(len(s), dtype=np.int64)
    pairs = [Pair(str(a), str(b), 0) for a, b in zip(i[keep].tolist(), j[keep].tolist())]
    for c in star_clusters(pairs, int, check, gather=True, merge=True, widen=True):
        out[[int(k) for k in c]] = int(c[0])
    return out


def false_over(lab: np.ndarray, code: np.ndarray, size: int) -> int:
    """How many groups over ``size`` rows hold more than one truth cluster (one sort, not a mask a group)."""
    order = np.lexsort((code, lab))
    g, c = lab[order], code[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    mixed = np.add.reduceat(np.r_[False, (g[1:] == g[:-1]) & (c[1:] != c[:-1])].astype(np.int64), starts) > 0
    return int(np.count_nonzero(mixed & (sizes > size)))


def sweep_set(spec: str, results: dict, grid) -> None:
    shipped = numbers.place_tokens
    for tokens in TOKENS:
        numbers.place_tokens = place_tokens_v2 if tokens == "v2" else shipped  # what number_words calls
        try:
            s, raw, i, j, code, at, identity = signed_raw(spec)
        finally:
            numbers.place_tokens = shipped
        s = marked(s, raw, 5)  # the shipped identity_rare_rows
        for chars in grid:
            ver = replace(verifier(identity, at, 0.45, 0.75), identity_rare_threshold=0.35, places_against_chars=chars)
            lab = labels(s, i, j, ver)
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

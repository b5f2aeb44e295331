"""How a row's number tokens are read, and the share of numbers under which they count against a
long pair (issue 22, session 42), chosen on TUNING sets only: the long same-person refiles of
bench/datasets/tuning22/refiles.py (1 to 8 edits each, beside the same person's new complaints),
the labelled petitions, and issue 22's precision traps (forms, forms_several, places, places_hard,
places_brief, tickets).

    python -m bench.quality.refile_s42_sweep [--sets refiles:5000:0,...] [--tokens unit,...]

bench/quality/refile_s42_where.py found the tuning refiles' misses refused by rule ``numbers_against``
with tokens such as ``5 `` beside ``5次`` or ``270,`` beside ``270 ``: a number token is a digit run
and the one character after it, whitespace and punctuation included. Tokenizers (TOKENS, the
pattern of dedup.text.numbers ``_NUMBER``): ``unit`` as shipped (NUMBERS_VERSION 3); ``space``
whitespace between a number and its unit skipped; ``word`` whitespace skipped and only a letter or
Han character taken as the unit (a number before punctuation or at a line's end stands alone).

Round 1 (``--tokens unit,space,word --against 0.5,0.4,0.34``, logs/s42/i22-refile/round1_*.log): ``space``
and ``word`` found the same pairs on every set run; a lower bar took more refiles but, once the refiles
set had the same person's letter written again for a new incident (``same_person_again``, added after
round 1's first sets), lost precision there. Round 2 (the defaults): ``unit`` and ``space``, the bar
as shipped or higher (exact tokens leave a refile sharing more of its numbers, so a higher bar may
refuse the new incidents without losing refiles).

Result (logs/s42/i22-refile/refile_s42_sweep_{a,b,c}.log, ranked together in refile_s42_sweep_ranked.log):
``chosen: unit 0.5``, the shipped recipe. ``space 0.5`` takes the most refiles (refiles mean R 0.9886 ->
0.9951, places_brief R up too) but lets in a few more of the same person's new-incident letters
(refiles 5k P 0.8450 -> 0.8435, 20k 0.8549 -> 0.8523 and a sixth row in one false group); a higher bar
keeps those out and loses refiles and the labelled petitions' recall. Not merged; the change and its
test are kept as logs/s42/i22-refile/code-s42.patch (bench/results/refile-s42.md).

Each set is run once through `dedup full` in process per tokenizer (textjoin_s40_sweep.prepared; the
pattern patched for that run), then each ``numbers_against`` of AGAINST verifies the search's pairs
(Recipe.pairs) and the shipped clustering groups them (petrecall-s41's ``run``). ``unit 0.5`` is the
shipped recipe. A variant is allowed when no set's precision falls below it (by more than 1e-9) and
no set has more false groups over 5 rows; of those, the highest mean recall of the refiles sets, then
the highest mean F1 over all sets, ties to the stricter (higher bar, then the tokenizer nearer the
shipped one, in TOKENS' order). ``--merge LOG ...`` ranks the tables of runs made apart (sets split
between processes; a later log's line replaces an earlier one of the same set and variant).
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

import numpy as np

import dedup.text.numbers as N
from bench.quality.textjoin_s40_sweep import prepared, say
from bench.quality.tuning22_recall_sweep import score
from dedup.runs.recipe import Recipe, fingerprints_of

SETS = ("refiles:5000:0,refiles:20000:1,petitions:5000:0,petitions:20000:1,forms:20000:1,forms_several:5000:0,"
        "forms_several:20000:1,places:3000:0,places_hard:3000:0,places_brief:3000:0,places_brief:20000:1,tickets:2000:0")
TOKENS = {"unit": r"(\d+)(\D?)", "space": r"(\d+)\s*(\D?)", "word": r"(\d+)\s*([^\W\d_]?)"}
AGAINST = (0.5, 0.6, 0.67)  # round 2; round 1 (logs/s42/i22-refile/round1_*): 0.5, 0.4, 0.34
SHIPPED = ("unit", 0.5)


def run(recipe: Recipe, keys, sk, code) -> tuple[tuple, int]:
    """``score`` of the recipe's groups as `dedup full` makes them, and its count of verified pairs."""
    at = {k: i for i, k in enumerate(keys)}

    def rows(ks):
        return sk[np.fromiter((at[k] for k in ks), np.int64, len(ks))]
    pairs = recipe.pairs(keys, sk)
    groups = recipe.grouped(keys, fingerprints_of(sk, len(keys)), pairs, (), recipe.centre_check(rows),
                            recipe.alone_check(rows), recipe.near_check(rows))
    labels = np.arange(len(keys), dtype=np.int64)
    for g in groups:
        labels[[at[k] for k in g.keys]] = at[g.keys[0]]
    return score(labels, code), len(pairs)


def scored(spec: str, token: str, against: float, recipe: Recipe, keys, sk, code) -> tuple:
    """One variant's line, said as it is made."""
    t = time.process_time()
    v = replace(recipe.method.verifier, numbers_against=against)
    (p, r, f1, big, over5), npairs = run(replace(recipe, method=replace(recipe.method, verifier=v)), keys, sk, code)
    say(f"  {token:<6} {against:<5} P {p:.6f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {over5} "
        f"verified pairs {npairs} CPU {time.process_time() - t:.2f} s")
    return spec, token, against, p, r, f1, big, over5


def ranked(table: list, barred: set = frozenset()) -> None:
    """Each variant's summary line and the choice (see the module's docstring); ``barred``: variants
    a log of this sweep found not allowed (its table's P are rounded to 4 places)."""
    base = {x[0]: x for x in table if x[1:3] == SHIPPED}
    best = []
    for token, against in dict.fromkeys(x[1:3] for x in table):
        rs = [x for x in table if x[1:3] == (token, against)]
        kept = all(x[3] >= base[x[0]][3] - 1e-9 and x[7] <= base[x[0]][7] for x in rs) and (token, against) not in barred
        rec = float(np.mean([x[4] for x in rs if x[0].startswith("refiles")] or [0.0]))
        mean = float(np.mean([x[5] for x in rs]))
        say(f"{token} {against}: refiles mean R {rec:.4f}, mean F1 {mean:.4f}, lowest P {min(x[3] for x in rs):.4f}, "
            f"false groups > 5 {sum(x[7] for x in rs)}, allowed {kept}")
        if kept:
            best.append((round(rec, 4), round(mean, 4), against, -list(TOKENS).index(token), token))
    if best:
        b = max(best)
        say(f"chosen: {b[-1]} {b[2]}")


def merged(line: str) -> tuple:
    """A table line of the log as ``scored`` made it (empty for any other line)."""
    if not line.startswith("| ") or line.split(" | ")[1] not in TOKENS:
        return ()
    spec, token, against, *rest = line.strip("| ").split(" | ")
    return (spec, token, float(against), *map(float, rest[:3]), int(rest[3]), int(rest[4]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--tokens", default="unit,space")
    ap.add_argument("--against", default=",".join(map(str, AGAINST)))
    ap.add_argument("--merge", nargs="*", help="logs of this sweep whose tables are ranked together")
    a = ap.parse_args()
    if a.merge:  # a later log's line replaces an earlier one of the same set and variant
        texts = [Path(log).read_text().splitlines() for log in a.merge]
        lines = {x[:3]: x for text in texts for x in map(merged, text) if x}
        barred = {tuple(line.split(":")[0].split()) for text in texts for line in text if line.endswith("allowed False")}
        ranked(list(lines.values()), {(t, float(x)) for t, x in barred})  # the logs' own verdicts, on unrounded P
        return
    table = []
    for spec in a.sets.split(","):
        for token in a.tokens.split(","):
            with tempfile.TemporaryDirectory() as tmp, mock.patch.object(N, "_NUMBER", re.compile(TOKENS[token])):
                recipe, keys, sk, _, code = prepared(spec, Path(tmp))
            say(f"\n{spec} ({token}): {len(keys)} rows")
            table += [scored(spec, token, float(x), recipe, keys, sk, code) for x in a.against.split(",")]
    say("\n| set | tokens | numbers_against | P | R | F1 | largest false group | false groups > 5 |\n"
        "|---|---|--:|--:|--:|--:|--:|--:|")
    for row in table:
        say("| {} | {} | {} | {:.6f} | {:.4f} | {:.4f} | {} | {} |".format(*row))
    ranked(table)


if __name__ == "__main__":
    main()

"""Where the same person's refiles of long letters are lost, and what the same person's new
complaints look like beside them (issue 22, session 42), on TUNING sets only.

    python -m bench.quality.refile_s42_where refiles:5000:0 [petitions:20000:1 ...]

Each set is run once through `dedup full` in process (textjoin_s40_sweep.prepared); of its candidate
pairs, the true ones the verifier refuses are counted by kind, rule (TextVerifier.rules) and whether
an identity field is equal; the same person's pairs (true and false) are binned by estimated J; and
for the pairs refused by a numbers rule, the number tokens the two rows do not share are shown
(dedup.text.numbers.number_tokens), to see whether an edit (a space or typo after a number) made them.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from bench.quality.recall22_where import load
from bench.quality.textjoin_s40_sweep import prepared, say
from dedup.text.numbers import number_tokens

BINS = (0.0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.75, 1.01)


def text_of(row: dict, content: tuple[str, ...]) -> str:
    return "\n".join(str(row[c]) for c in content if row.get(c) is not None)


def report(spec: str) -> None:
    """Print one set's refused true candidates and the same person's pairs by J."""
    with tempfile.TemporaryDirectory() as tmp:
        recipe, keys, sk, pairs, code = prepared(spec, Path(tmp))
    data, _, content = load(spec)
    rows = {r["id"]: r for r in data.rows}
    kinds = data.kinds
    i, j, _ = recipe.near(sk)
    v = recipe.method.verifier
    sa, sb = recipe.method.signatures(sk[i]), recipe.method.signatures(sk[j])
    ok, est, (same, _) = v(sa, sb), v.scores(sa, sb), v.persons(sa, sb)
    rules, (share, least) = np.array(v.rules(sa, sb)), v.numbers_alike(sa, sb)
    true = code[i] == code[j]
    total = sum(c * (c - 1) // 2 for c in np.unique(code, return_counts=True)[1].tolist())
    say(f"\n{spec}: rows {len(keys)}, true pairs {total}, candidates {len(i)}, true verified {(ok & true).sum()}, "
          f"false verified {(ok & ~true).sum()}, true never candidates {total - true.sum()}")
    miss = np.flatnonzero(~ok & true)
    for k, n in Counter((kinds[int(keys[i[x]])], str(rules[x]), bool(same[x])) for x in miss).most_common(12):
        say(f"   refused true {k} {n}")
    say("   same person (identity field equal), long, not verified: true / false by estimated J")
    long_ = np.minimum(sa[:, 0], sb[:, 0]) >= v.short_chars
    for lo, hi in zip(BINS, BINS[1:]):
        sel = same & long_ & (est >= lo) & (est < hi)
        say(f"     J [{lo:.2f}, {hi:.2f}): verified {(sel & ok & true).sum()} / {(sel & ok & ~true).sum()}, "
              f"refused {(sel & ~ok & true).sum()} / {(sel & ~ok & ~true).sum()}  "
              f"refused false by rule {dict(Counter(rules[sel & ~ok & ~true]).most_common(3))}")
    numbered = [x for x in miss if rules[x].startswith(("numbers", "places"))]
    say(f"   refused by a numbers/places rule: {len(numbered)}; the tokens not shared (first 12):")
    for x in numbered[:12]:
        ta = number_tokens(text_of(rows[int(keys[i[x]])], content))
        tb = number_tokens(text_of(rows[int(keys[j[x]])], content))
        say(f"     {rules[x]} J {est[x]:.3f} shared {share[x]:.2f} of {least[x]}: only a {sorted(ta - tb)} only b {sorted(tb - ta)}")


if __name__ == "__main__":
    for spec in sys.argv[1:]:
        report(spec)

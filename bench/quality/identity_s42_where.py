"""Which identity evidence the pairs accepted by rule ``content_identity`` rest on (issue 22, session 42),
on TUNING sets only: for each such pair, the identity columns that are equal and the state of the
others (both filled and different, one empty, equal), counted by truth.

    python -m bench.quality.identity_s42_where [--sets forms:20000:1,forms_several:20000:1,petitions:20000:1]

Each set runs once through `dedup full` in process (textjoin_s40_sweep.prepared: the shipped recipe).
A rule that would drop an equal identity value as evidence when another identity column is filled on
both rows and differs costs the "true" pairs of that state and saves its "false" ones.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from bench.quality.recall22_where import load
from bench.quality.textjoin_s40_sweep import prepared


def states(row_a: dict, row_b: dict, columns: tuple[str, ...]) -> str:
    """'name=' for equal values, 'phone≠' for both filled and different, 'phone?' for one empty."""
    out = []
    for c in columns:
        x, y = row_a.get(c), row_b.get(c)
        if x in (None, "") or y in (None, ""):
            out.append(f"{c}?")
        else:
            out.append(f"{c}=" if str(x) == str(y) else f"{c}≠")
    return " ".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="forms:20000:1,forms_several:20000:1,petitions:20000:1")
    args = ap.parse_args(argv)
    for spec in args.sets.split(","):
        with tempfile.TemporaryDirectory(prefix="identity-s42-") as tmp:
            recipe, keys, sk, pairs, code = prepared(spec, Path(tmp))
        data, identity, _content = load(spec)
        by_id = {str(r["id"]): r for r in data.rows}
        at = {k: n for n, k in enumerate(keys)}
        a = np.array([at[p.a] for p in pairs], np.int64)
        b = np.array([at[p.b] for p in pairs], np.int64)
        rules = recipe.verifier.rules(recipe.signatures(sk[a]), recipe.signatures(sk[b]))
        count: Counter = Counter()
        for x, y, rule in zip(a.tolist(), b.tolist(), rules):
            if rule in ("content_identity", "content_rare_identity"):
                truth = "true" if code[x] == code[y] else "FALSE"
                count[(rule, states(by_id[keys[x]], by_id[keys[y]], identity), truth)] += 1
        say = sys.stdout.write
        say(f"\n## {spec}: {len(keys):,} rows, {len(a):,} verified pairs\n")
        for (rule, state, truth), n in sorted(count.items()):
            say(f"  {rule:<22} {state:<32} {truth:<5} {n:>6}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

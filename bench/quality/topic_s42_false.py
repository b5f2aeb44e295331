"""The false pairs that bands of 2 values add (issue 22, session 42): for each set, the groups' false
pairs under bands of R values (``--variants``, topic_s41_sweep.variant), those new beside the first
variant, and for each the verified link that joined two truth entities: its rule (TextVerifier.rules),
estimated J, numbers alike, an identity field equal, and the two rows' text.

    python -m bench.quality.topic_s42_false --sets places:3000:0 --variants "r4 n0.45 p,r2 n0.45 p"
    python -m bench.quality.topic_s42_false --sets heldout:tickets:5000:100   # held-out: to report only

A held-out set is read here to say what went wrong, never to choose (the choice is topic_s42_sweep's,
tuning sets only).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from bench.quality.recall22_where import load
from bench.quality.textjoin_s40_sweep import clustered, prepared, say
from bench.quality.topic_s41_sweep import variant


def false_pairs(groups, keys, code) -> set[tuple[int, int]]:
    """Index pairs (a < b) in one group whose truth differs."""
    at = {k: i for i, k in enumerate(keys)}
    out = set()
    for g in groups:
        m = sorted(at[k] for k in g.keys)
        out |= {(a, b) for x, a in enumerate(m) for b in m[x + 1:] if code[a] != code[b]}
    return out


def links(rec, sk, pairs, keys, code, wanted: set[int]) -> list[tuple]:
    """The verified pairs across truth entities touching ``wanted`` rows: (a, b, rule, J, alike, same)."""
    at = {k: i for i, k in enumerate(keys)}
    cross = [(at[p.a], at[p.b]) for p in pairs
             if code[at[p.a]] != code[at[p.b]] and (at[p.a] in wanted or at[p.b] in wanted)]
    if not cross:
        return []
    a, b = np.array([x for x, _ in cross]), np.array([y for _, y in cross])
    sa, sb = rec.signatures(sk[a]), rec.signatures(sk[b])
    rules, est = rec.verifier.rules(sa, sb), rec.verifier.scores(sa, sb).tolist()
    share, least = rec.verifier.numbers_alike(sa, sb)
    alike = rec.verifier.numbers_agree(share, least).tolist()
    same = rec.verifier.persons(sa, sb)[0].tolist()
    return [(x, y, rules[n], est[n], alike[n], same[n]) for n, (x, y) in enumerate(cross)]


def text(row: dict, content) -> str:
    return " | ".join(str(row.get(c) or "").replace("\n", " ")[:260] for c in content)


def run(spec: str, names: list[str], show: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        recipe, keys, sk, _, code = prepared(spec, Path(tmp))
    data, identity, content = load(spec)
    by_id = {str(r["id"]): r for r in data.rows}
    first = None
    for name in names:
        rec = variant(recipe, name)
        pairs = rec.pairs(keys, sk)
        near = (rec.near_bar, 0.5, 4) if rec.near_bar is not None else None
        bad = false_pairs(clustered(rec, keys, sk, pairs, near), keys, code)
        new = bad - first if first is not None else bad
        say(f"\n{spec} {name}: {len(bad)} false pairs in groups, {len(new)} new beside {names[0]}")
        first = bad if first is None else first
        if not (show and new) or name == names[0]:
            continue
        rows = {x for p in new for x in p}
        for x, y, rule, est, alike, same in links(rec, sk, pairs, keys, code, rows):
            say(f"  -- link {keys[x]} / {keys[y]}: rule {rule}, J {est:.3f}, numbers alike {alike}, identity equal {same}")
            for k in (keys[x], keys[y]):
                r = by_id[k]
                say(f"     {k} [{' / '.join(str(r.get(c)) for c in identity)}] {text(r, content)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", required=True)
    ap.add_argument("--variants", default="r4 n0.45 p,r2 n0.45 p")
    ap.add_argument("--no-show", action="store_true")
    a = ap.parse_args()
    for spec in a.sets.split(","):
        run(spec, a.variants.split(","), not a.no_show)


if __name__ == "__main__":
    main()

"""True pairs verified by `r2 p u gr` and not by `r2 p u gm` on a tuning set: their identity fields."""
import sys
import tempfile
from collections import Counter
from pathlib import Path
from bench.quality.textjoin_s40_sweep import prepared
from bench.quality.recall22_where import load
from bench.quality import topic_s42_sweep as s42
spec = sys.argv[1]
with tempfile.TemporaryDirectory() as t:
    recipe, keys, sk, _, code = prepared(spec, Path(t))
data, identity, content = load(spec)
by = {str(r["id"]): r for r in data.rows}
at = {k: i for i, k in enumerate(keys)}
got = {}
for v in ("r2 n0.45 p u gr", "r2 n0.45 p u gm"):
    rec = s42.variant(recipe, v)
    got[v] = {(p.a, p.b) for p in rec.pairs(keys, sk) if code[at[p.a]] == code[at[p.b]]}
lost = got["r2 n0.45 p u gr"] - got["r2 n0.45 p u gm"]
print(spec, "true pairs lost by gm:", len(lost))
c: Counter = Counter()
for a, b in sorted(lost):
    ra, rb = by[a], by[b]
    c[tuple(ra.get(f) == rb.get(f) for f in identity)] += 1
print("equal (", identity, "):", dict(c))
for a, b in sorted(lost)[:4]:
    print(" ", [by[a].get(f) for f in identity], [by[b].get(f) for f in identity])
a, b = sorted(lost)[0]
sa, sb = recipe.signatures(sk[[at[a]]]), recipe.signatures(sk[[at[b]]])
print("identity cols", recipe.method.verifier.identity, [f.name for f in recipe.method.fields if f.role == "identity"])
print([hex(int(x)) for x in sa[0, :1 + recipe.method.verifier.identity]], [hex(int(x)) for x in sb[0, :1 + recipe.method.verifier.identity]])

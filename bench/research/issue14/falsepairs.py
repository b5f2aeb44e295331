"""Show false / missed verified pairs of a recipe on a cached set."""
import sys, numpy as np
from dataclasses import replace
import sweep_recipe as S, recipe as R
t = S.Table(sys.argv[1])
rc = S.Recipe(**{k: type(getattr(S.Recipe(), k))(v) for k, v in (a.split("=") for a in sys.argv[2:])})
keys = S.keys_of(t, rc)
(i, j) = R.candidate_pairs(keys)
keep = S.verify(t, rc, i, j)
sig, counts, lens = t.sig(rc)
i, j = i[keep], j[keep]
tr = np.array([r["truth"] for r in t.recs])
f = tr[i] != tr[j]
print("verified", len(i), "false", f.sum())
from collections import Counter
print(Counter(tuple(sorted((t.kinds[a], t.kinds[b]))) for a, b in zip(i[f], j[f])).most_common(10))
for a, b in list(zip(i[f], j[f]))[:12]:
    ra, rb = t.recs[a], t.recs[b]
    jac = (sig[a, :rc.K] == sig[b, :rc.K]).mean()
    print(f"J~{jac:.2f}", ra["kind"], rb["kind"], "|", ra["name"], ra["phone"], ra["address"], "|", ra["content"][:70].replace("\n"," "), "||", rb["name"], rb["phone"], rb["address"], "|", rb["content"][:70].replace("\n"," "))

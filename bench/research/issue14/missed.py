"""Missed true pairs of a kind (and false pairs) for a recipe: python missed.py SET kind key=value..."""
import sys, numpy as np
from collections import Counter
import sweep_recipe as S, recipe as R
t = S.Table(sys.argv[1]); kind = sys.argv[2]
rc = S.Recipe(**{k: (v == "True" if v in ("True", "False") else type(getattr(S.Recipe(), k))(v)) for k, v in (a.split("=") for a in sys.argv[3:])})
keys = S.keys_of(t, rc)
(i, j) = R.candidate_pairs(keys)
keep = S.verify(t, rc, i, j)
lab = R.components(t.N, i[keep], j[keep])
sig, counts, lens = t.sig(rc)
cand = set(zip(i.tolist(), j.tolist()))
m = (t.tkind == kind) & (lab[t.ta] != lab[t.tb])
print("missed", m.sum(), "of", (t.tkind == kind).sum())
for a, b in list(zip(t.ta[m], t.tb[m]))[:10]:
    ra, rb = t.recs[a], t.recs[b]
    jac = (sig[a, :rc.K] == sig[b, :rc.K]).mean()
    same = [f for f, x, y in zip(S.IDENTITY, t.ident[a], t.ident[b]) if x == y and x]
    print(f"J~{jac:.2f} cand={(min(a,b),max(a,b)) in cand} same={same} lens={lens[a]},{lens[b]} |", ra["name"], ra["phone"], ra["title"], "|", ra["content"][:60].replace("\n"," "), "||", rb["name"], rb["phone"], rb["title"], "|", rb["content"][:60].replace("\n"," "))
tr = np.array([r["truth"] for r in t.recs]); ii, jj = i[keep], j[keep]; f = tr[ii] != tr[jj]
print("false verified pairs", f.sum(), Counter(tuple(sorted((t.kinds[a], t.kinds[b]))) for a, b in zip(ii[f], jj[f])).most_common(8))
for a, b in list(zip(ii[f], jj[f]))[:8]:
    ra, rb = t.recs[a], t.recs[b]
    jac = (sig[a, :rc.K] == sig[b, :rc.K]).mean()
    same = [f for f, x, y in zip(S.IDENTITY, t.ident[a], t.ident[b]) if x == y and x]
    print(f"J~{jac:.2f} same={same} lens={lens[a]},{lens[b]} {ra['kind']},{rb['kind']} |", ra["name"], ra["phone"], "|", ra["content"][:60].replace("\n"," "), "||", rb["name"], rb["phone"], "|", rb["content"][:60].replace("\n"," "))

"""Pairwise scan of verification thresholds among candidates: false vs true pairs per J bin (long / short, same id or not)."""
import sys, numpy as np
from dataclasses import replace
import sweep_recipe as S, recipe as R
t = S.Table(sys.argv[1])
tr = np.array([r["truth"] for r in t.recs])
for spec in sys.argv[2:]:
    rc = S.Recipe(**{k: (v == "True" if v in ("True", "False") else type(getattr(S.Recipe(), k))(v)) for k, v in (a.split("=") for a in spec.split(",") if a)})
    (i, j) = R.candidate_pairs(S.keys_of(t, rc))
    sig, counts, lens = t.sig(rc)
    jac = (sig[i, :rc.K] == sig[j, :rc.K]).mean(axis=1)
    same = ((t.ident[i] == t.ident[j]) & (t.ident[i] != 0)).any(axis=1)
    short = np.minimum(lens[i], lens[j]) < rc.short_len
    true = tr[i] == tr[j]
    print(f"== {spec}  candidates {len(i)}")
    for name, sel in (("long noid", ~short & ~same), ("long id", ~short & same), ("short noid", short & ~same), ("short id", short & same)):
        row = []
        for th in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95):
            ok = sel & (jac >= th)
            row.append(f"{th}:{int((ok & ~true).sum())}/{int((sel & true & ~ok).sum())}")
        print(f"  {name:<11} true {int((sel & true).sum()):>6}  false/missed at J>=  " + " ".join(row))

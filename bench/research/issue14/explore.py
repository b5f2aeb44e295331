"""Exact Jaccard of true pairs (by kind) vs false candidate pairs, per shingle variant (5k/20k cache)."""
import sys, itertools, numpy as np
from collections import defaultdict
import cache, recipe as R
kind, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
recs = cache.load(kind, n, seed)
N = len(recs)
def pairkind(a, b):
    ks = sorted((recs[a]["kind"], recs[b]["kind"]))
    if "collective" in ks: return "collective"
    if "short" in ks or "short_refiled" in ks: return "short"
    return "refiled"
bylab = defaultdict(list)
for x, r in enumerate(recs): bylab[r["truth"]].append(x)
true = [(a, b) for m in bylab.values() if len(m) > 1 for a, b in itertools.combinations(m, 2)]
def sets_chars(field_list, ng, mask=True):
    out = []
    for r in recs:
        t = R.clean(" ".join(r[f] or "" for f in field_list), mask)
        out.append(set(t[i:i + ng] for i in range(max(1, len(t) - ng + 1))) - {""})
    return out
variants = {
  "c3 content": sets_chars(["content"], 3),
  "c3 title+content": sets_chars(["title", "content"], 3),
  "c2 content": sets_chars(["content"], 2),
  "c4 content": sets_chars(["content"], 4),
  "c3 content nomask": sets_chars(["content"], 3, False),
  "jieba title+content": [set(r["t_title"]) | set(r["t_content"]) for r in recs],
  "jieba content": [set(r["t_content"]) for r in recs],
}
def J(s, a, b):
    A, B = s[a], s[b]
    return len(A & B) / max(1, len(A | B))
# loose candidate set: pairs sharing any of 32 bands r=2 over c3 content minhash -> used for false pairs
h, c = R.char_gram_hashes([R.clean(r["content"]) for r in recs], 3)
sig = R.minhash(h, c, 64)
(i, j) = R.candidate_pairs(R.band_keys(sig, 32, 2, c > 0))
truth = np.array([r["truth"] for r in recs])
fi, fj = i[truth[i] != truth[j]], j[truth[i] != truth[j]]
nfalse = len(fi)
if len(fi) > 20000:
    pick = np.random.default_rng(0).choice(len(fi), 20000, replace=False); fi, fj = fi[pick], fj[pick]
print(f"{N} rows, {len(true)} true pairs, loose candidates {len(i)}, false among them {nfalse} (exact J on {len(fi)})")
for name, s in variants.items():
    tj = defaultdict(list)
    for a, b in true: tj[pairkind(a, b)].append(J(s, a, b))
    fjac = np.array([J(s, a, b) for a, b in zip(fi, fj)])
    line = f"{name:<22}"
    for k in ("refiled", "short", "collective"):
        v = np.array(tj[k]); line += f" {k}: n={len(v)} p1={np.percentile(v,1):.2f} p3={np.percentile(v,3):.2f} p5={np.percentile(v,5):.2f} |"
    line += f" false: p99={np.percentile(fjac,99):.2f} p99.9={np.percentile(fjac,99.9):.2f} max={fjac.max():.2f} n>0.5={int((fjac>0.5).sum())} n>0.4={int((fjac>0.4).sum())}"
    print(line)

import sys, itertools, numpy as np
from collections import defaultdict, Counter
import cache, recipe as R
recs = cache.load("petitions", int(sys.argv[1]), int(sys.argv[2]))
cl = [R.clean(r["content"]) for r in recs]
def S(t, n=3): return set(t[i:i+n] for i in range(max(1, len(t)-n+1)))
sets = [S(t) for t in cl]
h, c = R.char_gram_hashes(cl, 3)
sig = R.minhash(h, c, 64)
(i, j) = R.candidate_pairs(R.band_keys(sig, 32, 2, c > 0))
truth = np.array([r["truth"] for r in recs])
J = np.array([len(sets[a] & sets[b]) / len(sets[a] | sets[b]) for a, b in zip(i, j)])
f = (truth[i] != truth[j]) & (J > 0.45)
print("false J>0.45:", f.sum(), Counter(tuple(sorted((recs[a]["kind"], recs[b]["kind"]))) for a, b in zip(i[f], j[f])).most_common(8))
lens = np.array([len(t) for t in cl])
print("min len of pair:", np.percentile(np.minimum(lens[i[f]], lens[j[f]]), [10, 50, 90, 100]))
for a, b in list(zip(i[f], j[f]))[:6]:
    ra, rb = recs[a], recs[b]
    print(round(len(sets[a]&sets[b])/len(sets[a]|sets[b]),2), ra["kind"], rb["kind"], "|", ra["name"], ra["phone"], ra["title"], ra["content"][:80], "||", rb["name"], rb["phone"], rb["title"], rb["content"][:80])
print("--- true short pairs low J")
bylab = defaultdict(list)
for x, r in enumerate(recs): bylab[r["truth"]].append(x)
k = 0
for m in bylab.values():
    for a, b in itertools.combinations(m, 2):
        if recs[a]["kind"].startswith("short"):
            jj = len(sets[a]&sets[b])/len(sets[a]|sets[b])
            if jj < 0.7 and k < 8:
                k += 1; ra, rb = recs[a], recs[b]
                print(round(jj,2), "|", ra["name"], ra["phone"], ra["title"], ra["content"], "||", rb["name"], rb["phone"], rb["title"], rb["content"])

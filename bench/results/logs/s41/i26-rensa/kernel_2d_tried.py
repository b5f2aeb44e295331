import sys, time, numpy as np
sys.path.insert(0, "/work/wt/i26-rensa")
from dedup.index import minhash as M
U64 = np.uint64
d = np.load("/tmp/i26r/feats.npz", allow_pickle=True)
hashes, counts, w = d["hashes"], d["counts"], d["w"]
k = 64
t = time.process_time(); ref = M.weighted_minhash(hashes, counts, w, k); print("current", time.process_time() - t)

def parts_timing(hashes, counts, weights, a, b):
    T = {}
    t = time.process_time()
    light = weights < 1.0
    with np.errstate(over="ignore"):
        plain = ~light
        distinct, plain_inv = np.unique(hashes[plain], return_inverse=True)
        lh, first, light_inv = np.unique(hashes[light], return_index=True, return_inverse=True)
        T["unique"] = time.process_time() - t; t = time.process_time()
        power = 1.0 / weights[light][first]
        u = ((lh * a[:, None] + b[:, None]) >> U64(32)).astype(np.float64)
        late = -np.expm1(np.log1p(-(u + 0.5) / 2.0 ** 32) * power)
        late_values = np.minimum(np.floor(late * 2.0 ** 32), float(M.EMPTY - 1)).astype(U64).astype(np.uint32)
        T["light"] = time.process_time() - t; t = time.process_time()
        table = np.concatenate([((distinct * a[:, None] + b[:, None]) >> U64(32)).astype(np.uint32), late_values], axis=1)
        inv = np.empty(len(hashes), np.int64)
        inv[plain] = plain_inv
        inv[light] = light_inv + len(distinct)
        T["table"] = time.process_time() - t; t = time.process_time()
    has = counts > 0
    starts = (np.cumsum(counts) - counts)[has]
    found = np.empty((int(has.sum()), len(a)), np.uint32)
    v = np.empty(len(hashes), np.uint32)
    for i in range(len(a)):
        np.take(table[i], inv, out=v)
        found[:, i] = np.minimum.reduceat(v, starts)
    T["loop"] = time.process_time() - t; t = time.process_time()
    tt = np.ascontiguousarray(table.T)
    T["transpose"] = time.process_time() - t; t = time.process_time()
    found2 = np.empty_like(found)
    # sub-chunks of rows
    ends = np.cumsum(counts[has]); st = ends - counts[has]
    lo = 0; n = len(st); S = 1 << 15
    while lo < n:
        hi = max(lo + 1, int(np.searchsorted(ends, st[lo] + S, side="right")))
        g = tt[inv[st[lo]:ends[hi-1]]]
        found2[lo:hi] = np.minimum.reduceat(g, st[lo:hi] - st[lo], axis=0)
        lo = hi
    T["2d"] = time.process_time() - t
    assert (found == found2).all()
    return T, len(distinct), len(lh)

a, b = M.permutations(k, 1)
ends = np.cumsum(counts); tot = {}
lo = 0
while lo < len(counts):
    first = int(ends[lo] - counts[lo])
    hi = max(lo + 1, int(np.searchsorted(ends, first + M.FEATURE_CHUNK, side="right")))
    last = int(ends[hi - 1])
    T, nd, nl = parts_timing(hashes[first:last], counts[lo:hi], w[first:last], a, b)
    for kk, v in T.items(): tot[kk] = tot.get(kk, 0) + v
    lo = hi
print({kk: round(v, 3) for kk, v in tot.items()}, nd, nl)

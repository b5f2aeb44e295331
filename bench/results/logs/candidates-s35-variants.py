"""Candidate-pair variants on cached demo sketches: counts, verified pairs lost, growth."""
import sys, yaml, numpy as np
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.index.pairs import distinct_rows
from dedup.index.anchors import anchor_mask
from dedup.index.minhash import key_pairs
from dedup.index.numbers import shared_numbers
from dedup.runs.recipe import Recipe
rows = []
for path in sys.argv[1:]:
    d = np.load(path); keys, sk = d["keys"].tolist(), d["sketches"]
    rec = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="bench")).learn(sk)
    _, uniq, _, _ = distinct_rows(keys, rec.matrix(sk))
    m = rec.method; sch = m.scheme; v = m.verifier
    sig = m.signatures(uniq); K = sch.keys(sig); n = len(sig)
    vals = sch.values(sig).astype(np.uint64)
    tri = np.stack([(vals[:, 3*t] * np.uint64(0x9E3779B97F4A7C15)) ^ (vals[:, 3*t+1] * np.uint64(0xC2B2AE3D27D4EB4F)) ^ vals[:, 3*t+2] for t in range(21)], 1)
    out = {}
    for A in (16, 4):
        anc = anchor_mask(K, A)
        parts = []
        for c in range(K.shape[1]):
            i, j = key_pairs(K[:, [c]], A)
            over = ~anc[j, c]
            if c < sch.bands:
                ts = [t for t in range(21) if 3*t+2 < 4*c or 3*t > 4*c+3]
                ntri = np.zeros(len(i), np.int64)
                for t in ts:
                    ntri += tri[i, t] == tri[j, t]
            else:
                ntri = np.full(len(i), 99)
            parts.append((i * n + j, over, ntri))
        code = np.concatenate([p[0] for p in parts]); over = np.concatenate([p[1] for p in parts]); ntri = np.concatenate([p[2] for p in parts])
        u, inv = np.unique(code, return_inverse=True); lo, hi = u // n, u % n
        keep = np.concatenate([v(sig[lo[s:s+(1<<18)]], sig[hi[s:s+(1<<18)]]) for s in range(0, len(u), 1 << 18)])
        same = v.same_person(sig[lo], sig[hi])
        sh, least = shared_numbers(sig[lo][:, v.numbers_at:], sig[hi][:, v.numbers_at:])
        num = (least >= v.numbers_least) & (sh >= np.maximum(v.numbers_least, np.ceil(v.numbers_share * least - 1e-9)))
        num1 = (least >= v.numbers_least) & (sh >= 1)
        def survive(f):
            s = np.zeros(len(u), bool); np.logical_or.at(s, inv, f); return s
        var = {f"A{A} shipped rule": np.ones(len(u), bool),
               f"A{A} over-anchor: tri>=1|id|num>=1": survive(~over | (ntri >= 1) | (same | num1)[inv]),
               f"A{A} every pair: tri>=1|id|num>=1": survive((ntri >= 1) | (same | num1)[inv]),
               f"A{A} every pair: tri>=3|id|num rule": survive((ntri >= 3) | (same | num)[inv]),
               f"A{A} no over-anchor pairs": survive(~over)}
        for name, s in var.items():
            out[name] = (int(s.sum()), int((s & keep).sum()), int((keep & ~s).sum()))
    rows.append((n, out)); print(n, out, flush=True)
names = list(rows[0][1])
print("| variant | " + " | ".join(f"{n:,} cand / verified kept" for n, _ in rows) + " | growth |")
for k in names:
    c = [o[k][0] for _, o in rows]
    print(f"| {k} | " + " | ".join(f"{o[k][0]:,} / {o[k][1]:,}" for _, o in rows) + " | " + " ".join(f"{b/a:.2f}" for a, b in zip(c, c[1:])) + " |")

"""Diagnosis: which pairs the 0.35 identity bar adds (accepted at 0.35, not at 0.45), and which of them sit in false groups."""
import sys, time, re
import numpy as np
from bench.quality.tuning22_sweep import load, score
from bench.quality.tuning22_numbers_sweep import WEIGHTING
from bench.quality.zhrecall_s38_sweep import verifier, labels, false_over
from dedup.index.bands import BandScheme
from dedup.text.numbers import KEEP
from dedup.text.rarity import IDENTITY_SALT, ContentModel, document_counts
from dedup.text.signature import TextSignature

HAN = re.compile(r"[\u4e00-\u9fff]")
for spec in sys.argv[1:]:
    t = time.process_time()
    data, identity, content = load(spec)
    rows = sorted(data.rows, key=lambda r: r["id"])
    labs = {lab: i for i, lab in enumerate(dict.fromkeys(data.truth[r["id"]] for r in rows))}
    code = np.array([labs[data.truth[r["id"]]] for r in rows], np.int64)
    sig = TextSignature(content, identity, numbers=KEEP)
    head, hashes, counts = sig.parts(rows)
    model = ContentModel.learn(hashes, len(rows), *WEIGHTING)
    ids = ContentModel.learn(head[:, 1:].ravel(), len(rows), *WEIGHTING, IDENTITY_SALT)
    s = sig.finish(head, hashes, counts, model, ids, sig.numbers_of(rows))
    i, j = BandScheme(len(identity)).near(s)
    at, k = sig.numbers_at, len(identity)
    uniq, cnt = document_counts(head[:, 1:].ravel())
    def df(v):
        p = np.searchsorted(uniq, v); return int(cnt[p]) if p < len(uniq) and uniq[p] == v else 0
    hi, lo = verifier(k, at, 0.45, 0.75), verifier(k, at, 0.35, 0.75)
    print(f"{spec}: {len(rows)} rows, {len(i)} candidates, common identity > {ids.common:.0f} rows, signed in {time.process_time()-t:.0f} s", flush=True)
    res = {}
    for name, ver in (("0.45", hi), ("0.35", lo)):
        lab = labels(s, i, j, ver)
        p, r, f1, big = score(lab, code)
        print(f"  bar {name}: P {p:.4f} R {r:.4f} F1 {f1:.4f} largest false {big} false>5 {false_over(lab, code, 5)}", flush=True)
        res[name] = lab
    add = lo(s[i], s[j]) & ~hi(s[i], s[j])
    ai, aj = i[add], j[add]
    lab = res["0.35"]
    sizes = np.bincount(lab, minlength=len(rows))
    bad_groups = {g for g in np.unique(lab) if sizes[g] > 5 and len(np.unique(code[lab == g])) > 1}
    han = np.array([len(HAN.findall(" ".join(str(r.get(c) or "") for c in content))) > 10 for r in rows])
    print(f"  added pairs {add.sum()}: true {(code[ai]==code[aj]).sum()}, false {(code[ai]!=code[aj]).sum()}, Han {han[ai].sum()}")
    buckets = {}
    for a, b in zip(ai.tolist(), aj.tolist()):
        eq = [c for c in range(k) if s[a, 1+c] != 0 and s[a, 1+c] == s[b, 1+c]]
        d = min(df(head[a, 1+c]) for c in eq) if eq else -1
        bk = "df<=2" if d <= 2 else "df<=5" if d <= 5 else "df<=10" if d <= 10 else "df<=40" if d <= 40 else "df>40"
        cols = "+".join(identity[c] for c in eq)
        key = (bk, cols)
        tr = code[a] == code[b]
        inbad = lab[a] in bad_groups
        e = buckets.setdefault(key, [0, 0, 0])
        e[0 if tr else 1] += 1
        e[2] += (not tr) and inbad
    for key in sorted(buckets):
        print(f"    least df of equal value {key[0]:<7} columns {key[1]:<20} true {buckets[key][0]:>5} false {buckets[key][1]:>4} (false in a false group>5: {buckets[key][2]})")
    for g in sorted(bad_groups):
        m = np.flatnonzero(lab == g)
        inside = [(a, b) for a, b in zip(ai.tolist(), aj.tolist()) if lab[a] == g and code[a] != code[b]]
        print(f"  false group of {len(m)} rows, {len(np.unique(code[m]))} truth clusters; added false links inside: {len(inside)}")
        for a, b in inside[:8]:
            eq = [identity[c] for c in range(k) if s[a,1+c] != 0 and s[a,1+c] == s[b,1+c]]
            dfs = [df(head[a,1+c]) for c in range(k) if s[a,1+c] != 0 and s[a,1+c] == s[b,1+c]]
            print(f"    J {float(lo.scores(s[[a]], s[[b]])[0]):.3f} equal {eq} df {dfs} len {int(s[a,0])}/{int(s[b,0])} name {rows[a].get('name')!r}/{rows[b].get('name')!r}")
    print(f"  CPU {time.process_time()-t:.0f} s", flush=True)

"""Quality table on the same cached rows: papers' recipe, today's default, the new recipe, MinHash LSH swept.

    python quality.py petitions-5000-0 petitions-20000-0 ... [--perms 128] [--no-baselines]
Prints one line per method; the new recipe also gets recall per duplicate kind.
"""
import argparse, json, time
import numpy as np
import sweep_recipe as S, recipe as R
from dedup.eval.metrics import pair_quality

def line(set_, method, q, secs, extra=""):
    d = q.as_dict() if hasattr(q, "as_dict") else q
    return (f"| {set_} | {method} | {d['precision']:.4f} | {d['recall']:.4f} | {d['f1']:.4f} | "
            f"{d['predicted_pairs']} | {d['true_pairs']} | {d['largest_group']} | {secs:.1f} | {extra} |")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--perms", default="128")
    ap.add_argument("--thresholds", default="0.5,0.6,0.7,0.8,0.9")
    ap.add_argument("--no-baselines", action="store_true")
    a = ap.parse_args()
    print("| set | method | P | R | F1 | predicted pairs | true pairs | largest group | s | recall by kind / notes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in a.sets:
        t = S.Table(name)
        t0 = time.perf_counter()
        r = S.evaluate(t, S.Recipe())
        secs = time.perf_counter() - t0
        kinds = " ".join(f"{k[2:]} {r[k]:.3f}" for k in r if k.startswith("R_") and r[k] == r[k])
        print(line(name, "new recipe", r, secs, f"{kinds}; keys/row {r['keys_per_row']:.1f}, cand/row {r['cand_per_row']:.2f}, bucket {r['largest_bucket']}"), flush=True)
        if a.no_baselines or t.recs[0].get("t_content") is None:
            continue
        import baselines as B
        for paper in (True, False):
            groups, secs, _ = B.simhash_recipe(t.recs, paper)
            q = pair_quality(groups, t.truth)
            print(line(name, "papers' recipe (k=3)" if paper else "today's default (k=12, 256-bit, 0.84)", q, secs, "sketch+search+groups only"), flush=True)
        for label, q, secs in B.minhash_sweep(t.recs, t.truth, [float(x) for x in a.thresholds.split(",")], [int(p) for p in a.perms.split(",")]):
            print(line(name, label, q, secs), flush=True)

if __name__ == "__main__":
    main()

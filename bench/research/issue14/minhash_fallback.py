"""MinHash LSH (bench/minhash_baseline, datasketch) on the widened persons table: char 3-grams of all fields, swept."""
import sys, time
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository
from bench.minhash_baseline import char_ngrams, minhash_groups
from dedup.eval.metrics import pair_quality


def bench_minhash_persons(rows, truth, fields, thresholds=(0.3, 0.4, 0.5, 0.6, 0.7), perms=(128,)):
    out = []
    for p in perms:
        for t in thresholds:
            t0 = time.perf_counter()
            res = minhash_groups(rows, "id", lambda row: char_ngrams(row, list(fields), 3), t, num_perm=p)
            q = pair_quality([[str(k) for k in g] for g in res.groups], truth)
            out.append(f"| persons11 | MinHash LSH char3 t={t} perm={p} | {q.precision:.4f} | {q.recall:.4f} | {q.f1:.4f} | "
                       f"{q.predicted_pairs} | {q.true_pairs} | {q.largest_group} | {time.perf_counter() - t0:.1f} s |")
    return out

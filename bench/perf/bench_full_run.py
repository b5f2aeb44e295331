"""A whole `dedup full` at n and 2n rows (issue 12): seconds, CPU seconds of all its processes and
where the time goes, beside one-core rates of each stage and their baselines (jieba alone, the
textbook SimHash and MinHash loops), all measured in this run.

    python -m bench.perf.bench_full_run [--sizes 100000,200000] [--seed 5] [--sample 20000] [--out bench/out]
                                   [--baseline-code /path/to/a/checkout/of/main]

For each size N, ``generate_petitions(N, seed)`` is written to a SQLite file and ``run_full`` runs
on it in a child process with the demo config (the shipped defaults, written out) and a SQLite
store: ``text.workers: auto``, i.e. one worker per core (2 here). Its wall seconds, the user+sys
CPU seconds of the child and its workers (``getrusage(RUSAGE_CHILDREN)``: other work on a shared
machine disturbs it less than wall time), its largest resident set, its stage seconds (``FullResult.stages``,
dedup.runs.clock) and a digest of its groups are printed. The one-core table times each stage
alone on the first ``--sample`` rows, in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.perf import full_run_child
from bench.perf.bench_full import read_all, simhash_textbook
from bench.perf.full_run_child import demo_config
from bench.support import OUT, child_env, rate, sqlite_url
from dedup.config import Config
from dedup.demo.generator import generate_petitions, write_sample_db
from dedup.index.fingerprint import HashedFeatures
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe
from dedup.text.normalize import normalize_text
from dedup.text.segment import tokenizer

TEXTBOOK_ROWS = 2_000  # the pure-Python loops are slow: their rate comes from this many rows
BATCH = 2_000


def measured_run(source_url: str, store_url: str, code: Path | None = None) -> dict:
    """``code``: the checkout whose dedup runs (a baseline: another branch or commit); default this one."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    out = subprocess.run([sys.executable, full_run_child.__file__, source_url, store_url],
                         check=True, capture_output=True, text=True, env=child_env(code))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "seconds": wall, "cpu_seconds": cpu,
            "load_before": load, "load_after": os.getloadavg()[0]}


def one_core(config: Config, source_url: str, rows: list[tuple[str, dict]]) -> dict:
    """Each stage alone on ``rows``, one process, CPU seconds (process_time) and rows/s from them."""
    recipe = Recipe.of(config)
    fz, seg, tok = recipe.featurizer, recipe.featurizer.segmenter, tokenizer()
    seg.terms("预热分词器"), tok.lcut("预热分词器")  # dictionaries load on first use: not timed
    texts = [r[f] for _, r in rows for f in ("title", "content") if r[f]]
    normal = [normalize_text(t) for t in texts]
    few = rows[:TEXTBOOK_ROWS]
    out = {"rows": len(rows)}

    def cpu(name: str, n: int, fn) -> object:
        start = time.process_time()
        value = fn()
        secs = time.process_time() - start
        out[name] = {"rows": n, "cpu_seconds": secs, "rows_per_s": rate(n, secs)}
        return value

    cpu("read (whole table)", read_all(source_url, config), lambda: read_all(source_url, config))
    cpu("segment: jieba alone (baseline)", len(rows), lambda: [tok.lcut(t) for t in texts])
    cpu("segment: Segmenter.terms", len(rows), lambda: [seg.terms(t) for t in normal])
    parts = cpu("featurise (features + signature)", len(rows),
                lambda: [featurize_rows(fz, rows[i:i + BATCH])[1] for i in range(0, len(rows), BATCH)])
    feats = HashedFeatures.concat(parts)
    sketches = cpu("sketch (SimHash word)", len(rows), lambda: recipe.sketch(feats))
    described = [fz.features(r) for _, r in few]
    cpu("sketch: textbook SimHash loop (baseline)", len(few), lambda: [simhash_textbook(f) for f in described])
    cpu("signature: textbook MinHash loop (baseline)", len(few), lambda: textbook_minhash(recipe, few))
    i, j, _ = cpu("candidates (band keys, pairs)", len(rows), lambda: recipe.near(sketches))
    cpu("verify", len(rows), lambda: recipe.verify(sketches[i], sketches[j]))
    return out


def textbook_minhash(recipe: Recipe, rows: list[tuple[str, dict]]) -> list[list[int]]:
    """The content's 3-gram set hashed per gram, then per permutation the least value, in Python."""
    from cityhash import CityHash64
    from dedup.index.minhash import permutations
    from dedup.text.shingles import clean

    sig = recipe.featurizer.signature
    a, b = (v.tolist() for v in permutations(sig.perms, 1))
    out = []
    for _, r in rows:
        text = clean("\n".join(r[c] for c in sig.content if r[c]))
        grams = {CityHash64(text[k:k + 3].encode()) for k in range(max(len(text) - 2, 1))}
        out.append([min(((h * x + y) & (2**64 - 1)) >> 32 for h in grams) for x, y in zip(a, b)])
    return out


def bench_size(n: int, seed: int, sample: int, baseline: Path | None) -> dict:
    data = generate_petitions(n, seed=seed)
    with tempfile.TemporaryDirectory(prefix="dedup-bench-") as d:
        src = sqlite_url(Path(d), "petitions.db")
        write_sample_db(src, data)
        run = measured_run(src, sqlite_url(Path(d), "store.db"))
        before = measured_run(src, sqlite_url(Path(d), "store-baseline.db"), baseline) if baseline else None
        rows = [(str(r["id"]), r) for r in data.rows[:sample]]
        alone = one_core(demo_config(src, sqlite_url(Path(d), "unused.db")), src, rows) if sample else {}
    return {"rows": n, "seed": seed, "run": run, "baseline_run": before, "one_core": alone}


def print_sizes(results: list[dict]) -> None:
    heads = [f"{r['rows']:,} rows" for r in results]
    print(f"\n{'dedup full, 2 workers':<44}" + "".join(f"{h:>16}" for h in heads))
    lines = [("wall seconds", lambda r: f"{r['run']['seconds']:.1f}"),
             ("rows/s", lambda r: f"{r['rows'] / r['run']['seconds']:,.0f}"),
             ("CPU seconds (user+sys, all processes)", lambda r: f"{r['run']['cpu_seconds']:.1f}"),
             ("largest process RSS MB", lambda r: f"{r['run']['max_rss_mb']:,.0f}"),
             ("load average before / after", lambda r: f"{r['run']['load_before']:.1f} / {r['run']['load_after']:.1f}"),
             ("groups", lambda r: f"{r['run']['groups']:,}"),
             ("groups digest", lambda r: r["run"]["digest"])]
    stages = list(dict.fromkeys(s for r in results for s in r["run"]["stages"]))
    lines += [(f"  stage: {s} (wall s / main CPU s)",
               lambda r, s=s: f"{r['run']['stages'].get(s, 0):.1f} / {r['run']['stages_cpu'].get(s, 0):.1f}")
              for s in stages]
    for name, cell in lines:
        print(f"{name:<44}" + "".join(f"{cell(r):>16}" for r in results))
    for r in results:
        if r["baseline_run"]:
            b = r["baseline_run"]
            print(f"baseline code at {r['rows']:,} rows: {b['seconds']:.1f} s, CPU {b['cpu_seconds']:.1f} s, "
                  f"RSS {b['max_rss_mb']:,.0f} MB, load {b['load_before']:.1f} / {b['load_after']:.1f}, "
                  f"groups digest {b['digest']} ({'same' if b['digest'] == r['run']['digest'] else 'DIFFERENT'})")
    if not results[-1]["one_core"]:
        return
    print(f"\n{'one core, stage alone':<48}{'rows':>9}{'CPU s':>9}{'rows/s':>11}   (first rows of the {heads[-1]} table)")
    for name, m in results[-1]["one_core"].items():
        if isinstance(m, dict):
            print(f"{name:<48}{m['rows']:>9,}{m['cpu_seconds']:>9.2f}{m['rows_per_s']:>11,.0f}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:  # the old spelling of the measured run; full_run_child.py is it now
        full_run_child.child(argv[1], argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100000,200000")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--sample", type=int, default=20_000, help="rows of the one-core stage table")
    ap.add_argument("--baseline-code", type=Path, help="also run dedup from this checkout (e.g. a worktree of main)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    results = [bench_size(int(s.replace("_", "")), args.seed, args.sample, args.baseline_code) for s in args.sizes.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, seed {args.seed}")
    print_sizes(results)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "full-run.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

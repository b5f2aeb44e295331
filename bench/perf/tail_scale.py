"""Issue 26's single-process tail at n and 2n rows: the stages ``groups``, ``candidates`` and
``verify`` of a full run (CPU seconds of one process), the candidate and verified pair counts,
the buckets behind them, and each figure's growth from one size to the next; beside a baseline
checkout, on the same sketches, in one run.

    python -m bench.perf.tail_scale --sizes 200000,400000 --baseline-code /path/to/a/checkout/of/main
    python -m bench.perf.tail_scale --sizes 20000,40000                     # a quick look
    python -m bench.perf.tail_scale --generator news --seed 100 --sizes 100000,200000
    python -m bench.perf.tail_scale --sizes 100000,200000 --anchors 8,4 --baseline-code ../main

Each size's demo table (``generate_petitions(n, seed)``) is featurised and sketched once, by this
checkout, and kept under ``--cache`` (bench/out/tail; a later run reuses it); then each checkout
runs the tail on those sketches in a process of its own, as ``run_full`` does it (``distinct_rows``,
then ``Recipe.groups`` with a StageClock), and reports a digest of its groups, so the table says
whether both made the same groups. Comparing on one set of sketches is only fair while both
checkouts sketch alike (the same version stamp): the script checks that the stamps are equal.
``--anchors 8,4`` also runs this checkout at those ``match.anchors`` (a key's rows meet its first A;
not part of the sketches, so the same sketches serve): the pairs, candidates and CPU at each A.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench.support import OUT, child_env

CHILD = r"""
import hashlib, json, sys, time, yaml
import numpy as np
from dedup.config import parse_config
from dedup.demo import DEMO_CONFIG
from dedup.index.minhash import bucket_sizes
from dedup.index.pairs import distinct_rows, verified
from dedup.runs.clock import StageClock
from dedup.runs.recipe import Recipe
data = np.load(sys.argv[1])
keys, sk = data["keys"].tolist(), data["sketches"]
raw = yaml.safe_load(DEMO_CONFIG)
if sys.argv[2:]:  # --anchors: match.anchors set, the rest of the config as shipped
    raw.setdefault("match", {})["anchors"] = int(sys.argv[2])
recipe = Recipe.of(parse_config(raw, origin="bench"))
recipe = recipe.learn(sk)
clock = StageClock()
with clock.stage("groups"):
    distinct = distinct_rows(keys, recipe.matrix(sk))
with clock.stage("groups"):
    groups = recipe.groups(keys, sk, (), clock, distinct)
uniq = distinct[1]
try:  # the candidates the run verifies (issue 26: those that could pass), after the clock: not timed
    i, j, _ = recipe.near(uniq, verifying=True)
except TypeError:  # a checkout from before ``verifying``: every candidate is verified
    i, j, _ = recipe.near(uniq)
every = len(recipe.near(uniq)[0])
kept = int(verified(recipe.verify, uniq, i, j).sum()) if len(i) else 0
sizes = bucket_sizes(recipe.scheme.keys(recipe.signatures(uniq)))
anchors = recipe.scheme.anchors or 0
digest = hashlib.sha1(json.dumps([g.keys for g in groups]).encode()).hexdigest()[:12]
print(json.dumps({"rows": len(keys), "distinct": len(uniq), "candidates": len(i), "verified": kept, "in_buckets": every,
                  "groups": len(groups), "grouped_rows": sum(g.size for g in groups), "digest": digest,
                  "cpu": clock.cpu, "wall": clock.seconds, "stamp": recipe.stamp,
                  "largest_bucket": int(sizes.max()) if len(sizes) else 0,
                  "buckets_over_anchors": int((sizes > anchors).sum()),
                  "rows_in_them": int(sizes[sizes > anchors].sum())}))
"""

STAGES = ("groups", "candidates", "verify")


def sketched(n: int, seed: int, workers: int, cache: Path, generator: str = "demo") -> Path:
    """The npz of the table's keys and sketches at ``n`` rows (made once, by this checkout): the
    demo's (``generate_petitions``) or the held-out news-length petitions' (``news``), both read
    with the demo config (the same fields, the default match), so only the rows differ."""
    name = "demo" if generator == "demo" else generator
    path = cache / f"{name}-{n}-seed{seed}.npz"
    if path.exists():
        return path
    import numpy as np
    import yaml

    from dedup.config import parse_config
    from dedup.db.source import Source
    from dedup.demo import DEMO_CONFIG
    from dedup.demo.generator import generate_petitions, write_sample_db
    from dedup.runs.featurise import featurise_table
    from dedup.runs.recipe import Recipe

    cache.mkdir(parents=True, exist_ok=True)
    db = cache / f"{name}-{n}-seed{seed}.db"
    db.unlink(missing_ok=True)
    if generator == "news":
        from bench.datasets.heldout.common import write_sqlite
        from bench.datasets.heldout.petitions_news import generate_petitions as news_petitions
        write_sqlite(news_petitions(n, seed=seed), str(db))
    else:
        write_sample_db(f"sqlite:///{db}", generate_petitions(n, seed=seed))
    raw = yaml.safe_load(DEMO_CONFIG)
    raw["source"]["url"], raw["store"]["url"] = f"sqlite:///{db}", f"sqlite:///{cache / 'unused-store.db'}"
    raw.setdefault("text", {})["workers"] = workers
    config = parse_config(raw, origin="bench")
    recipe = Recipe.of(config)
    with Source(config.source_url, recipe.table) as source:
        f = featurise_table(source, recipe, workers=workers)
    np.savez(path, keys=np.array(f.rows.keys), sketches=f.sketches)
    db.unlink()
    return path


def tail(path: Path, code: Path | None, anchors: int | None = None) -> dict:
    """The tail on one cached table, in a child with dedup from ``code`` (None: this checkout) and
    ``match.anchors`` = ``anchors`` (None: the checkout's default)."""
    extra = [] if anchors is None else [str(anchors)]
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), *extra], env=child_env(code), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ratio(a: float, b: float) -> str:
    return f"{b / a:.2f}" if a else "-"


def table(name: str, runs: list[dict]) -> list[str]:
    """Markdown rows for one checkout: a column a size, then each step's growth."""
    sizes = [r["rows"] for r in runs]
    head = f"| {name} | " + " | ".join(f"{n:,}" for n in sizes) + " | " + \
        " | ".join(f"{b:,} / {a:,}" for a, b in zip(sizes, sizes[1:])) + " |"
    lines = [head, "|---|" + "--:|" * (2 * len(runs) - 1)]

    def row(label: str, values: list[float], fmt: str) -> None:
        lines.append(f"| {label} | " + " | ".join(format(v, fmt) for v in values) + " | " +
                     " | ".join(ratio(a, b) for a, b in zip(values, values[1:])) + " |")

    for s in STAGES:
        row(f"{s} CPU s", [r["cpu"].get(s, 0.0) for r in runs], ".2f")
    row("tail CPU s", [sum(r["cpu"].get(s, 0.0) for s in STAGES) for r in runs], ".2f")
    row("tail wall s", [sum(r["wall"].get(s, 0.0) for s in STAGES) for r in runs], ".2f")
    row("pairs sharing a key (anchored)", [r.get("in_buckets", r["candidates"]) for r in runs], ",")
    row("pairs sharing a key a distinct row", [r.get("in_buckets", r["candidates"]) / max(r["distinct"], 1) for r in runs], ".2f")
    row("candidate pairs (verified next)", [r["candidates"] for r in runs], ",")
    row("verified pairs", [r["verified"] for r in runs], ",")
    row("candidates a distinct row", [r["candidates"] / max(r["distinct"], 1) for r in runs], ".1f")
    row("candidates + verify µs a candidate",
        [1e6 * (r["cpu"].get("candidates", 0) + r["cpu"].get("verify", 0)) / max(r["candidates"], 1) for r in runs], ".3f")
    row("buckets over the anchors", [r["buckets_over_anchors"] for r in runs], ",")
    row("their rows (entries)", [r["rows_in_them"] for r in runs], ",")
    row("largest bucket", [r["largest_bucket"] for r in runs], ",")
    row("groups", [r["groups"] for r in runs], ",")
    lines.append("| groups digest | " + " | ".join(r["digest"] for r in runs) + " |" + " |" * (len(runs) - 1))
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="200000,400000", help="comma-separated row counts (n, 2n, ...)")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--generator", choices=("demo", "news"), default="demo",
                   help="demo: generate_petitions; news: bench/datasets/heldout/petitions_news (held out)")
    p.add_argument("--workers", type=int, default=2, help="featurising workers (the sketches, made once)")
    p.add_argument("--cache", type=Path, default=OUT / "tail")
    p.add_argument("--baseline-code", type=Path, help="also run the tail with dedup from this checkout")
    p.add_argument("--json", type=Path, help="write every run's numbers here")
    p.add_argument("--anchors", default="",
                   help="comma-separated match.anchors values to run this checkout at (beside its default)")
    a = p.parse_args(argv)
    paths = [sketched(int(n), a.seed, a.workers, a.cache, a.generator) for n in a.sizes.split(",")]
    codes: list[tuple[str, Path | None, int | None]] = [("this checkout", None, None)]
    codes += [(f"this checkout, anchors {x}", None, int(x)) for x in a.anchors.split(",") if x]
    codes += [("baseline", a.baseline_code, None)] if a.baseline_code else []
    results: dict[str, list[dict]] = {name: [] for name, _, _ in codes}
    for path in paths:
        for name, code, anchors in codes:  # one after the other, on the same minutes' load
            results[name].append(tail(path, code, anchors))
    for name, runs in results.items():
        print("\n".join(table(name, runs)) + "\n")  # noqa: T201
    if a.baseline_code:
        mine, base = results["this checkout"], results["baseline"]
        same = all(x["digest"] == y["digest"] for x, y in zip(mine, base))
        stamps = all(x["stamp"] == y["stamp"] for x, y in zip(mine, base))
        print(f"same groups as the baseline: {'yes' if same else 'NO'}; same version stamp: {'yes' if stamps else 'NO'}")  # noqa: T201
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

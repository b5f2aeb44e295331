"""Issue 26: the weighted MinHash kernel alone, this checkout's beside a baseline checkout's, on
the content features of demo petitions weighed as a full run weighs them; CPU seconds (less
disturbed by a loaded machine than wall seconds) and whether the two outputs are identical.

    python -m bench.perf.sketch_kernel --rows 20000 --baseline-code /path/to/a/checkout/of/main
                                       [--folder bench/out/vs_rensa/news-200000-s100]

With ``--folder`` (a table bench.perf.vs_rensa made): the first rows of its news-length petitions,
sketched as its ``dedup.yaml`` says, instead of demo rows. This checkout's compiled kernels
(dedup.index.kernels) are loaded before the clock starts; the seconds that took are shown apart.
The baseline's ``dedup/index/minhash.py`` is loaded by path (it needs only numpy: a checkout from
before dedup.index.kernels).
"""

from __future__ import annotations

import argparse
import importlib.util
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np
import yaml

from dedup.config import load_config, parse_config
from dedup.index import kernels
from dedup.demo import DEMO_CONFIG
from dedup.demo.generator import generate_petitions
from dedup.index.minhash import weighted_minhash
from dedup.runs.recipe import Recipe
from dedup.text.rarity import ContentModel


def features(rows: int, folder: Path | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(hashes, counts, weights) of ``rows`` demo petitions (or the first of ``folder``'s table),
    weighed by the model a full run learns."""
    if folder is None:
        recipe = Recipe.of(parse_config(yaml.safe_load(DEMO_CONFIG), origin="bench"))
        table = generate_petitions(rows, seed=5).rows
    else:
        recipe = Recipe.of(load_config(str(folder / "dedup.yaml")))
        with sqlite3.connect(folder / "petitions.db") as con:
            con.row_factory = sqlite3.Row
            table = [dict(r) for r in con.execute("SELECT * FROM petitions ORDER BY id LIMIT ?", (rows,))]
    signature = recipe.method.signature
    _head, hashes, counts = signature.parts(table)
    return hashes, counts, ContentModel.learn(hashes, len(counts), *recipe.method.common).weights(hashes)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--perms", type=int, default=64)
    p.add_argument("--baseline-code", type=Path, required=True)
    p.add_argument("--folder", type=Path, help="a vs_rensa table folder: its news-length rows, not demo rows")
    a = p.parse_args(argv)
    spec = importlib.util.spec_from_file_location("baseline_minhash", a.baseline_code / "dedup/index/minhash.py")
    assert spec is not None and spec.loader is not None
    baseline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(baseline)
    t = time.perf_counter()
    got = kernels.compiled()
    sys.stdout.write(f"compiled kernels: {'loaded' if got else 'unavailable (numpy code)'} in {time.perf_counter() - t:.2f} s\n")
    hashes, counts, weights = features(a.rows, a.folder)
    light = 0.0 if weights is None else float((weights < 1).mean())
    print(f"{a.rows:,} rows, {len(hashes):,} features ({len(np.unique(hashes)):,} distinct, {light:.0%} weighing < 1)")
    for name, w in (("weighted", weights), ("all weigh 1", None)):
        t = time.process_time()
        old = baseline.weighted_minhash(hashes, counts, w, a.perms)
        t_old = time.process_time() - t
        t = time.process_time()
        new = weighted_minhash(hashes, counts, w, a.perms)
        t_new = time.process_time() - t
        print(f"{name:>12}: baseline {t_old:6.2f} CPU s, this checkout {t_new:6.2f} CPU s "
              f"({t_old / t_new:.1f}x), identical: {old.tobytes() == new.tobytes()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

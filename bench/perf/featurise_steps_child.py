"""The timed steps of bench/perf/featurise_steps.py, in a process of its own. Run by path, not as
``bench.perf``: it imports dedup only, so that a baseline checkout's dedup (first on PYTHONPATH)
runs it.

    python bench/perf/featurise_steps_child.py CONFIG DB ROWS [kernels]    # prints one JSON line: step -> CPU µs a row

With ``kernels``, the compiled kernels (dedup.index.kernels) are loaded first, untimed, as a text
worker of a large table loads them (issue 26, session 49).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
import unicodedata

from dedup.config import load_config
from dedup.runs.parallel import featurize_rows
from dedup.runs.recipe import Recipe
from dedup.text import content, normalize, shingles
from dedup.text.batch import hashed_batch
from dedup.text.normalize import normalize_short, normalize_text, value_to_text

BATCH = 2_000  # rows a batch, as a run reads them


def steps(config: str, db: str, limit: int) -> dict[str, float]:
    """CPU µs a row of each featurising step on the first ``limit`` rows (one process, one core)."""
    fz = Recipe.of(load_config(config)).featurizer
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = [(str(r["id"]), dict(r)) for r in con.execute("SELECT * FROM petitions ORDER BY id LIMIT ?", (limit,))]
    n = len(rows)
    featurize_rows(fz, rows[:BATCH])  # dictionaries and tables load on first use: not timed
    batches = [rows[i:i + BATCH] for i in range(0, n, BATCH)]
    out: dict[str, float] = {}

    def cpu(name: str, fn):
        normalize._MEMO.clear()  # each step normalises its cells afresh, as the first step of a batch does
        for memo in ("_kept", "_seen", "_dropped", "_tables"):  # the judged tokens (their names differ by checkout)
            getattr(fz.segmenter, memo, set()).clear()
        start = time.process_time()
        value = fn()
        out[name] = round((time.process_time() - start) * 1e6 / n, 1)
        return value

    cpu("featurize_rows (all of it)", lambda: [featurize_rows(fz, b) for b in batches])
    found = cpu("Featurizer.occurrences", lambda: [fz.occurrences(r) for _, r in rows])
    texts = [r[f.name] for _, r in rows for f in fz.fields if f.kind == "text" and r[f.name]]
    short = [r[f.name] for _, r in rows for f in fz.fields if f.kind == "short" and r[f.name]]
    cpu("  NFKC of the text cells (unicodedata, for reference)", lambda: [unicodedata.normalize("NFKC", t) for t in texts])
    cpu("  NFKC of the text cells (normalize.nfkc)", lambda: [normalize.nfkc(t) for t in texts])
    normal = cpu("  normalize_text", lambda: [normalize_text(t) for t in texts])
    cpu("  normalize_short", lambda: [normalize_short(t) for t in short])
    cpu("  Segmenter.terms", lambda: [fz.segmenter.terms(t) for t in normal])
    cpu("hashed_batch", lambda: [hashed_batch(fz, found[i:i + BATCH]) for i in range(0, n, BATCH)])
    sig = fz.signature
    kept = [r for _, r in rows]
    cpu("TextSignature.parts (content features, identity)", lambda: [sig.parts(kept[i:i + BATCH]) for i in range(0, n, BATCH)])
    cells = [[t for t in (value_to_text(r.get(c)) for c in sig.content) if t] for r in kept]
    by_batch = getattr(content, "split_batch", None)  # session 46: a batch at once (a checkout before: row by row)
    split = cpu("  split_scripts", lambda: [s for i in range(0, n, BATCH) for s in by_batch(cells[i:i + BATCH])]
                if by_batch else [content.split_scripts(p) for p in cells])
    grams = [[s[1] for s in split[i:i + BATCH]] for i in range(0, n, BATCH)]
    codes = cpu("  shingle_codes", lambda: [shingles.shingle_codes(g) for g in grams])
    cpu("  distinct_per_row (the n-grams)", lambda: [shingles.distinct_per_row(c, o, BATCH) for c, o in codes])
    cpu("TextSignature.numbers_of (number tokens, place names)", lambda: [sig.numbers_of(kept[i:i + BATCH]) for i in range(0, n, BATCH)])
    return out


if __name__ == "__main__":
    if sys.argv[4:] == ["kernels"]:
        from dedup.index import kernels
        kernels.compiled()
    sys.stdout.write(json.dumps(steps(sys.argv[1], sys.argv[2], int(sys.argv[3]))) + "\n")

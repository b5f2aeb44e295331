"""CPU µs a row of ``dedup.text.numbers.number_words`` alone (issue 26, session 42, numfast-s42.md),
on the news-length petitions table's content cells as ``TextSignature.numbers_of`` gives them. Run
by path: it imports dedup only, so a baseline checkout's dedup (first on PYTHONPATH) runs it.

    PYTHONPATH=CHECKOUT python bench/perf/number_words_micro.py CONFIG DB [ROWS] [REPEAT]

Batches of 2,000 rows, as a run reads them. ``us_row_cold``: the NFKC memo emptied before each
batch and the hash memo (where there is one) before each repeat, as the featurise_steps child does;
``us_row_normalised``: each batch's cells normalised first, untimed, as featurising has done by the
time the signature asks for its numbers. Each figure is the lowest of the repeats
(``process_time``). Prints one JSON line.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

import dedup
from dedup.config import load_config
from dedup.runs.recipe import Recipe
from dedup.text import normalize, numbers
from dedup.text.normalize import value_to_text

BATCH = 2_000


def main(config: str, db: str, limit: int = 20_000, repeat: int = 3) -> dict:
    sig = Recipe.of(load_config(config)).featurizer.signature
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute("SELECT * FROM petitions ORDER BY id LIMIT ?", (limit,))]
    cells = [[t for t in (value_to_text(r.get(c)) for c in sig.content) if t] for r in rows]
    numbers.number_words(cells[:100], sig.numbers)  # first use: not timed
    batches = [cells[i:i + BATCH] for i in range(0, len(cells), BATCH)]
    cold, normalised = [], []
    for _ in range(repeat):
        for memo in ("_NUMBER_HASH", "_PLACE_HASH"):
            getattr(numbers, memo, {}).clear()
        cold.append(0.0)
        for batch in batches:
            normalize._MEMO.clear()
            start = time.process_time()
            numbers.number_words(batch, sig.numbers)
            cold[-1] += time.process_time() - start
        normalised.append(0.0)
        for batch in batches:
            normalize._MEMO.clear()
            [normalize.nfkc(t) for parts in batch for t in parts]
            start = time.process_time()
            numbers.number_words(batch, sig.numbers)
            normalised[-1] += time.process_time() - start
    n = len(cells)
    return {"dedup": dedup.__file__, "rows": n, "us_row_cold": round(min(cold) * 1e6 / n, 1),
            "us_row_normalised": round(min(normalised) * 1e6 / n, 1)}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(main(sys.argv[1], sys.argv[2], *map(int, sys.argv[3:]))) + "\n")

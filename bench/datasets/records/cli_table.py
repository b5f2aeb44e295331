"""The training persons as a SQLite table with a dedup.yaml (every column a ``short`` field), for
timing the whole `dedup full` run (read, fingerprint, keys, pairs, store) rather than the library.

    python -m bench.datasets.records.cli_table --rows 100000 --out DIR
    cd DIR && /usr/bin/time -v dedup -c dedup.yaml full --table persons

The 11 fields include gender (2 values) and status (10 values); truth.csv is for `dedup eval`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.datasets.records.training import training
from bench.datasets.records.copies import write


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    rows, truth, fields = training(a.rows, a.seed)
    out = Path(a.out)
    write(rows, truth, out, fields)
    print(f"{len(rows)} rows -> {out / 'persons.db'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

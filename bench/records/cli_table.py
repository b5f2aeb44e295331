"""The training persons as a SQLite table with a dedup.yaml (every column a ``short`` field), for
timing the whole `dedup full` run (read, fingerprint, keys, pairs, store) rather than the library.

    python bench/records/cli_table.py --rows 100000 --out DIR
    cd DIR && /usr/bin/time -v dedup -c dedup.yaml full --table persons

The 11 fields include gender (2 values) and status (10 values); truth.csv is for `dedup eval`.
"""

from __future__ import annotations

import argparse
import csv
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.records.common import training  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, truth, fields = training(a.rows, a.seed)
    con = sqlite3.connect(str(out / "persons.db"))
    with con:
        con.execute("DROP TABLE IF EXISTS persons")
        con.execute(f"CREATE TABLE persons (id INTEGER PRIMARY KEY, {', '.join(f + ' TEXT' for f in fields)}, "
                    "updated_at TEXT)")
        con.executemany(f"INSERT INTO persons VALUES ({', '.join('?' * (len(fields) + 2))})",
                        ([r["id"], *[r[f] for f in fields], "2026-01-01 00:00:00"] for r in rows))
    con.close()
    with open(out / "truth.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["key", "cluster"])
        w.writerows(truth.items())
    (out / "dedup.yaml").write_text(
        'source:\n  url: "sqlite:///persons.db"\nstore:\n  url: "sqlite:///persons-store.db"\ntables:\n'
        "  persons:\n    key: id\n    watermark: updated_at\n    fields:\n"
        + "".join(f"      {f}: short\n" for f in fields), encoding="utf-8")
    print(f"{len(rows)} rows -> {out / 'persons.db'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

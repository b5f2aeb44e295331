"""Write a tuning set as `dedup eval` reads it: a SQLite table, a truth CSV and a config."""

from __future__ import annotations

import argparse
import os
import random
from datetime import datetime, timedelta
from pathlib import Path

from bench.datasets.labelled.common import Labelled, write_sqlite_table, write_truth_csv


def write_set(data: Labelled, out: str | os.PathLike, table: str, identity: tuple[str, ...],
              content: tuple[str, ...]) -> None:
    """``out``/source.db, ``out``/truth.csv and ``out``/dedup.yaml (store: ``out``/store.db)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_sqlite_table(data, out / "source.db", table, (*identity, *content))
    write_truth_csv(data, out / "truth.csv")
    fields = "".join(f"      {c}: short\n" for c in identity) + "".join(f"      {c}: text\n" for c in content)
    (out / "dedup.yaml").write_text(
        f"source: {{url: 'sqlite:///{out / 'source.db'}'}}\nstore: {{url: 'sqlite:///{out / 'store.db'}'}}\n"
        f"tables:\n  {table}:\n    key: id\n    watermark: updated_at\n    fields:\n{fields}", encoding="utf-8")


def numbered(docs: list[tuple[dict, str, str]], rng: random.Random, t0: datetime) -> Labelled:
    """The shuffled (row, kind, label) triples as rows 1..n, each created and updated at a random
    minute of the year or so after ``t0``."""
    rows, truth, kinds = [], {}, {}
    for i, (row, kind, lab) in enumerate(docs, start=1):
        at = t0 + timedelta(minutes=rng.randrange(500_000))
        rows.append({"id": i, **row, "created_at": at, "updated_at": at})
        truth[i], kinds[i] = lab, kind
    return Labelled(rows, truth, kinds)


def cli(doc: str, generate, rows: int, table: str, identity: tuple[str, ...], content: tuple[str, ...]) -> None:
    """A generator's command line: --rows, --seed, --out."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--rows", type=int, default=rows)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    write_set(generate(a.rows, a.seed), a.out, table, identity, content)

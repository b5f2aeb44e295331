"""Write a tuning set as `dedup eval` reads it: a SQLite table, a truth CSV and a config."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bench.datasets.labelled.common import Labelled, write_truth_csv


def write_set(data: Labelled, out: str | os.PathLike, table: str, identity: tuple[str, ...],
              content: tuple[str, ...]) -> None:
    """``out``/source.db, ``out``/truth.csv and ``out``/dedup.yaml (store: ``out``/store.db)."""
    from sqlalchemy import Column, DateTime, Integer, MetaData, Table, Text, create_engine, insert

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cols = [Column(c, Text) for c in (*identity, *content)]
    t = Table(table, MetaData(), Column("id", Integer, primary_key=True, autoincrement=False), *cols,
              Column("created_at", DateTime), Column("updated_at", DateTime))
    engine = create_engine(f"sqlite:///{out / 'source.db'}")
    try:
        with engine.begin() as conn:
            t.drop(conn, checkfirst=True)
            t.create(conn)
            for lo in range(0, len(data.rows), 2000):
                conn.execute(insert(t), data.rows[lo:lo + 2000])
    finally:
        engine.dispose()
    write_truth_csv(data, out / "truth.csv")
    fields = "".join(f"      {c}: short\n" for c in identity) + "".join(f"      {c}: text\n" for c in content)
    (out / "dedup.yaml").write_text(
        f"source: {{url: 'sqlite:///{out / 'source.db'}'}}\nstore: {{url: 'sqlite:///{out / 'store.db'}'}}\n"
        f"tables:\n  {table}:\n    key: id\n    watermark: updated_at\n    fields:\n{fields}", encoding="utf-8")


def cli(doc: str, generate, rows: int, table: str, identity: tuple[str, ...], content: tuple[str, ...]) -> None:
    """A generator's command line: --rows, --seed, --out."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--rows", type=int, default=rows)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    write_set(generate(a.rows, a.seed), a.out, table, identity, content)

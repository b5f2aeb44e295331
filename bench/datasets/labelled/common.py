"""What every labelled set shares: rows with their truth, the truth file and the SQLite table (SQLAlchemy
imported only to write it)."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Labelled:
    """Rows with ground truth: ``truth`` maps row id -> cluster label (a row that duplicates nothing
    has a label of its own), ``kinds`` maps row id -> how the row was made (the set's ``KINDS``)."""

    rows: list[dict]
    truth: dict[int, str]
    kinds: dict[int, str]


def write_truth_csv(labelled: Labelled, path: str | os.PathLike) -> None:
    """``key,cluster`` per row, in id order."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["key", "cluster"])
        for key in sorted(labelled.truth):
            writer.writerow([key, labelled.truth[key]])


def write_sqlite_table(labelled: Labelled, path: str | os.PathLike, table: str, columns: tuple[str, ...]) -> None:
    """(Re)create ``table`` in the SQLite file at ``path``: integer ``id``, the text ``columns``,
    ``created_at`` and ``updated_at``, then every row (SQLAlchemy is imported only here)."""
    from sqlalchemy import Column, DateTime, Integer, MetaData, Table, Text, create_engine, insert

    t = Table(table, MetaData(), Column("id", Integer, primary_key=True, autoincrement=False),
              *(Column(c, Text) for c in columns), Column("created_at", DateTime), Column("updated_at", DateTime))
    engine = create_engine(f"sqlite:///{os.fspath(path)}")
    try:
        with engine.begin() as conn:
            t.drop(conn, checkfirst=True)
            t.create(conn)
            for start in range(0, len(labelled.rows), 2000):
                conn.execute(insert(t), labelled.rows[start:start + 2000])
    finally:
        engine.dispose()

"""What every labelled set shares: rows with their truth, and the truth file (standard library only)."""

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

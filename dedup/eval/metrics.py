"""Pairwise quality of duplicate groups against labelled truth.

A pair of rows is *predicted* when both rows are in one found group and *true* when both carry
the same truth label. Precision = correct / predicted pairs, recall = correct / true pairs. Both
are counted with combinatorics per group and per cluster, so a group of 10,000 rows costs
nothing extra; only the few pairs shown to a person are listed one by one.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..errors import ConfigError


@dataclass(frozen=True)
class Quality:
    precision: float
    recall: float
    f1: float
    groups: int
    predicted_pairs: int
    true_pairs: int
    correct_pairs: int
    largest_group: int

    def as_dict(self) -> dict:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def load_truth_csv(path: str | Path) -> dict[str, str]:
    """``key,cluster`` rows (a header line naming them is optional) -> key -> cluster label."""
    truth: dict[str, str] = {}
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            for n, row in enumerate(csv.reader(fh), 1):
                if not row or (n == 1 and [c.strip().lower() for c in row[:2]] == ["key", "cluster"]):
                    continue
                if len(row) < 2 or not row[0].strip():
                    raise ConfigError(f"{path}: line {n}: expected 'key,cluster', got {','.join(row)!r}")
                truth[row[0].strip()] = row[1].strip()
    except OSError as e:
        raise ConfigError(f"cannot read truth file {path}: {e.strerror or e}") from e
    if not truth:
        raise ConfigError(f"truth file {path} has no rows")
    return truth


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def pair_quality(groups: Iterable[Sequence[str]], truth: Mapping[str, str],
                 keys: Iterable[str] | None = None) -> Quality:
    """Pairwise precision/recall/F1 of ``groups`` (lists of row keys).

    ``keys`` are all rows evaluated (default: every key in ``truth``); true pairs are counted among
    them, so a duplicate row that could not be fingerprinted counts as missed. Rows absent from
    ``truth`` are their own cluster.
    """
    universe = set(truth) if keys is None else set(keys)
    predicted = correct = n_groups = largest = 0
    for g in groups:
        if len(g) < 2:
            continue
        n_groups += 1
        largest = max(largest, len(g))
        predicted += _pairs(len(g))
        labels = Counter(truth.get(k, ("row", k)) for k in g)
        correct += sum(_pairs(c) for c in labels.values())
    clusters = Counter(truth.get(k, ("row", k)) for k in universe)
    true = sum(_pairs(c) for c in clusters.values())
    precision = correct / predicted if predicted else 1.0
    recall = correct / true if true else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Quality(precision, recall, f1, n_groups, predicted, true, correct, largest)


def false_pairs(groups: Iterable[Sequence[str]], truth: Mapping[str, str], limit: int) -> list[tuple[str, str]]:
    """Up to ``limit`` pairs grouped together although their truth labels differ."""
    out: list[tuple[str, str]] = []
    for g in groups:
        for a, b in combinations(g, 2):
            if truth.get(a, ("row", a)) != truth.get(b, ("row", b)):
                out.append((a, b))
                if len(out) >= limit:
                    return out
    return out


def missed_pairs(groups: Iterable[Sequence[str]], truth: Mapping[str, str], keys: Iterable[str],
                 limit: int) -> list[tuple[str, str]]:
    """Up to ``limit`` pairs with one truth label that were not put in one group."""
    group_of = {k: n for n, g in enumerate(groups) for k in g}
    clusters: dict[str, list[str]] = {}
    for k in keys:
        if k in truth:
            clusters.setdefault(truth[k], []).append(k)
    out: list[tuple[str, str]] = []
    for members in clusters.values():
        for a, b in combinations(members, 2):
            ga, gb = group_of.get(a), group_of.get(b)
            if ga is None or ga != gb:
                out.append((a, b))
                if len(out) >= limit:
                    return out
    return out

"""Random draws for generated tables, from ``random.Random`` alone (no ``hash()``, no set order), so
a seed always gives the same table. Shared by the demo sample and bench/datasets/labelled."""

from __future__ import annotations

import random


def pick(rng: random.Random, seq):
    return seq[int(rng.random() * len(seq))]


def integer(rng: random.Random, a: int, b: int) -> int:
    """A whole number from a to b, both included."""
    return a + int(rng.random() * (b - a + 1))


def sample(rng: random.Random, seq, k: int) -> list:
    """Up to ``k`` distinct items of ``seq`` in random order (a partial Fisher-Yates shuffle)."""
    items = list(seq)
    n = len(items)
    k = min(k, n)
    for i in range(k):
        j = i + int(rng.random() * (n - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


def homophone_edit(rng: random.Random, text: str, homophones) -> str | None:
    """``text`` with one occurrence of a word from ``homophones`` ((word, typo) pairs) replaced by its
    typo, as a pinyin input method makes them; None when no word of the list is in the text."""
    present = [(a, b) for a, b in homophones if a in text]
    if not present:
        return None
    old, new = pick(rng, present)
    spots, i = [], text.find(old)
    while i >= 0:
        spots.append(i)
        i = text.find(old, i + 1)
    at = pick(rng, spots)
    return text[:at] + new + text[at + len(old):]

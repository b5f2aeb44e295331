"""Block names made by numpy: ``{label}{key:016x}`` (with a one-character suffix where asked) for
every non-zero key of many rows at once.

A full run names millions of block entries (13 a row); an f-string each cost 1.5 s per million
and the Python ints of ``keys.tolist()`` as much again. Here the names are ASCII bytes laid out
in one array and turned into str objects by numpy.
"""

from __future__ import annotations

from itertools import islice

import numpy as np

HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
STR_CHUNK = 1 << 16
NAME_ROWS = 1 << 14  # rows key_names works on at a time


def key_names(keys: np.ndarray, labels: list[str], suffixed: np.ndarray | None = None,
              suffix: str = "+") -> tuple[np.ndarray, np.ndarray]:
    """The names of the non-zero ``keys`` ((rows, m) uint64) in row-major order, as numpy bytes
    (ASCII), and each row's count of them. ``labels[c]`` prefixes column c's keys; where
    ``suffixed`` ((rows, m) bool) is set the name ends in ``suffix`` (one ASCII character). Made
    NAME_ROWS rows at a time into the one output: the working arrays of all rows at once (digits,
    positions) held three times the names' own bytes."""
    keys = np.asarray(keys, dtype=np.uint64)
    keys = keys if keys.ndim == 2 else keys.reshape(len(keys), -1)
    coded = [label.encode("ascii") for label in labels]
    width = max([len(c) for c in coded] or [0]) + 16 + len(suffix)
    counts = np.count_nonzero(keys, axis=1)
    out = np.zeros((int(counts.sum()), width), dtype=np.uint8)
    at = 0
    for lo in range(0, len(keys), NAME_ROWS):
        part = _named(out[at:], keys[lo:lo + NAME_ROWS], coded,
                      None if suffixed is None else suffixed[lo:lo + NAME_ROWS], suffix)
        at += part
    return out.view(f"S{width}").reshape(-1), counts  # trailing zeros end a name


def _named(out: np.ndarray, keys: np.ndarray, coded: list[bytes], suffixed: np.ndarray | None, suffix: str) -> int:
    """key_names for some rows, written at the start of ``out``; how many names."""
    rows, cols = np.nonzero(keys)
    be = keys[rows, cols].astype(">u8").view(np.uint8).reshape(-1, 8)  # the key's bytes, high first
    digits = np.empty((len(rows), 16), dtype=np.uint8)
    digits[:, 0::2], digits[:, 1::2] = HEX[be >> 4], HEX[be & 15]
    marks = suffixed[rows, cols] if suffixed is not None else np.zeros(len(rows), dtype=bool)
    for c, label in enumerate(coded):  # a column's labels are alike: fill them column by column
        at = np.flatnonzero(cols == c)
        n = len(label)
        out[at, :n] = np.frombuffer(label, dtype=np.uint8)
        out[at, n:n + 16] = digits[at]
        out[at[marks[at]], n + 16] = ord(suffix)
    return len(rows)


def as_str(names: np.ndarray) -> list[str]:
    """Names (numpy bytes) as a list of str, a slice at a time (as numpy str, 4 bytes a character,
    millions of names at once would take hundreds of MB)."""
    out: list[str] = []
    for lo in range(0, len(names), STR_CHUNK):
        out.extend(names[lo:lo + STR_CHUNK].astype(f"U{names.itemsize}").tolist())
    return out


def suffixed(names: np.ndarray, suffix: str = "+") -> np.ndarray:
    """The names, each ending in ``suffix`` once."""
    mark = suffix.encode("ascii")
    return np.char.add(np.char.rstrip(names, mark), mark) if len(names) else names


def per_row(names: np.ndarray, counts: np.ndarray) -> list[list[str]]:
    """Flat names cut back into each row's list."""
    flat = iter(as_str(names))
    return [list(islice(flat, n)) for n in counts.tolist()]

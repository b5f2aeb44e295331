"""Block names made by numpy: ``{label}{key:016x}`` (with a one-character suffix where asked) for
every non-zero key of many rows at once.

A full run names millions of block entries (13 a row); an f-string each cost 1.5 s per million
and the Python ints of ``keys.tolist()`` as much again. Here the names are ASCII bytes laid out
in one array and turned into str objects by numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    marks = suffixed[rows, cols] if suffixed is not None else np.zeros(len(rows), dtype=bool)
    _write(out, keys[rows, cols], cols, marks, coded, suffix)
    return len(rows)


def _write(out: np.ndarray, values: np.ndarray, cols: np.ndarray, marks: np.ndarray, coded: list[bytes], suffix: str) -> None:
    """The names of keys ``values`` of columns ``cols`` (``marks``: ending in ``suffix``) into ``out``'s first rows."""
    be = values.astype(">u8").view(np.uint8).reshape(-1, 8)  # the key's bytes, high first
    digits = np.empty((len(values), 16), dtype=np.uint8)
    digits[:, 0::2], digits[:, 1::2] = HEX[be >> 4], HEX[be & 15]
    for c, label in enumerate(coded):  # a column's labels are alike: fill them column by column
        at = np.flatnonzero(cols == c)
        n = len(label)
        out[at, :n] = np.frombuffer(label, dtype=np.uint8)
        out[at, n:n + 16] = digits[at]
        out[at[marks[at]], n + 16] = ord(suffix)


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


@dataclass
class KeyNames:
    """Block names ``{label}{key:016x}`` (``suffix`` after the marked ones) held as their parts: 10
    bytes a name against 21 as bytes, made into bytes only for the names asked for (``names[at]``:
    the store's slice being written). A full run's store writer held its 13 names a row as bytes,
    0.27 KB a row (issue 26, bench/results/memory-s40.md). ``ranks`` orders them as their bytes."""

    keys: np.ndarray  # uint64, non-zero
    column: np.ndarray  # uint8: the label's place in ``labels``
    marked: np.ndarray  # bool: the name ends in ``suffix``
    labels: list[str]
    suffix: str = "+"

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, at) -> np.ndarray:
        """The names at ``at`` (positions or a slice) as numpy bytes (ASCII), as key_names makes them."""
        coded = [label.encode("ascii") for label in self.labels]
        width = max([len(c) for c in coded] or [0]) + 16 + len(self.suffix)
        values = self.keys[at]
        out = np.zeros((len(values), width), dtype=np.uint8)
        _write(out, values, self.column[at], self.marked[at], coded, self.suffix)
        return out.view(f"S{width}").reshape(-1)

    def with_suffix(self, at: np.ndarray) -> KeyNames:
        """These names, then the names at ``at`` each ending in ``suffix`` once (``suffixed``)."""
        return KeyNames(np.concatenate([self.keys, self.keys[at]]), np.concatenate([self.column, self.column[at]]),
                        np.concatenate([self.marked, np.ones(len(at), dtype=bool)]), self.labels, self.suffix)

    def ranks(self) -> np.ndarray:
        """Each name's place among the distinct names sorted as bytes (equal names, equal ranks):
        by label (no label is the start of another: each ends in its one ':'), then key (16 hex
        digits sort as the number), the unmarked name first (it is the start of the marked one)."""
        coded = [label.encode("ascii") for label in self.labels]
        if any(a != b and b.startswith(a) for a in coded for b in coded):
            raise ValueError(f"block name labels {self.labels}: one starts another, so names do not sort by their parts")
        label_rank = np.empty(len(coded), dtype=np.uint8)
        label_rank[sorted(range(len(coded)), key=coded.__getitem__)] = np.arange(len(coded))
        if not len(self):
            return np.empty(0, np.int64)
        perm = np.lexsort((self.marked, self.keys, label_rank[self.column]))
        new = np.empty(len(self), dtype=bool)
        new[0] = True
        for lo in range(1, len(self), STR_CHUNK):  # neighbours compared a slice at a time
            at = perm[lo - 1:lo + STR_CHUNK]
            differ = self.keys[at[1:]] != self.keys[at[:-1]]
            differ |= self.column[at[1:]] != self.column[at[:-1]]
            differ |= self.marked[at[1:]] != self.marked[at[:-1]]
            new[lo:lo + len(at) - 1] = differ
        kind = np.int32 if len(self) < 1 << 31 else np.int64
        rank: np.ndarray = np.empty(len(self), dtype=kind)
        rank[perm] = np.cumsum(new, dtype=kind) - 1
        return rank


def key_parts(keys: np.ndarray, labels: list[str], suffixed: np.ndarray | None = None,
              suffix: str = "+") -> tuple[KeyNames, np.ndarray]:
    """``key_names`` held as KeyNames (the same names in the same order), and each row's count."""
    keys = np.asarray(keys, dtype=np.uint64)
    keys = keys if keys.ndim == 2 else keys.reshape(len(keys), -1)
    if len(labels) > 256:
        raise ValueError(f"{len(labels)} block name labels: at most 256 fit a name's column")
    counts = np.count_nonzero(keys, axis=1)
    total = int(counts.sum())
    out = KeyNames(np.empty(total, np.uint64), np.empty(total, np.uint8), np.zeros(total, bool), labels, suffix)
    at = 0
    for lo in range(0, len(keys), NAME_ROWS):  # the nonzero positions of some rows at a time
        rows, cols = np.nonzero(keys[lo:lo + NAME_ROWS])
        n = len(rows)
        out.keys[at:at + n] = keys[lo + rows, cols]
        out.column[at:at + n] = cols
        if suffixed is not None:
            out.marked[at:at + n] = suffixed[lo + rows, cols]
        at += n
    return out, counts

"""A full run's block entries held compactly and handed to a store a slice at a time, in the order
the store writes them.

A 200k-row run files 2.6 million entries (13 a row). As BlockEntries (a Python str and a key
reference an entry, and in the SQL store a sorted copy of both) they added about 2 KB a row to the
run's peak (bench/results/memory-i26.md). Packed, each name is kept as bytes and an entry is two
ints, its name's place and its row's; the str objects of SLICE entries at a time are made as the
store writes them and freed after (bench/results/memory-entries-i26.md). What a store keeps is the
same: the same entries, each block's in the same order.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from operator import itemgetter
from typing import Iterator, Protocol

import numpy as np

from ..errors import StoreError
from ..index.keys import picked
from ..index.order import sorted_places
from .model import BlockEntries

SLICE = 1 << 16  # entries made into Python objects at a time


class Names(Protocol):
    """Names held some other way than as bytes (the block names' parts, dedup.index.names.KeyNames):
    ``names[at]`` gives some as numpy bytes, ASCII, ``ranks()`` their order as bytes."""

    def __len__(self) -> int: ...

    def __getitem__(self, at) -> np.ndarray: ...

    def ranks(self) -> np.ndarray: ...


@dataclass
class PackedEntries:
    """Entry i files row ``row_at[i]`` (its key ``keys[row_at[i]]``, its fingerprint
    ``fingerprints[row_at[i]]``) under the name ``names[name_at[i]]`` (UTF-8 bytes; a name may be
    there more than once). Positions are kept as the smallest ints that hold them; ``keys`` and
    ``fingerprints`` are the snapshot's own, not copies."""

    names: np.ndarray | Names  # numpy bytes (S), or names held as their parts
    name_at: np.ndarray  # int, one an entry
    row_at: np.ndarray  # int, one an entry
    keys: list[str]
    fingerprints: np.ndarray  # uint64, aligned with keys

    def __post_init__(self) -> None:
        self.fingerprints = np.asarray(self.fingerprints, dtype=np.uint64).reshape(-1)
        if not (len(self.name_at) == len(self.row_at) and len(self.keys) == len(self.fingerprints)) or (
                len(self.row_at) and (self.row_at.max() >= len(self.keys) or self.name_at.max() >= len(self.names))):
            raise StoreError(f"block entries: {len(self.name_at)} names and {len(self.row_at)} rows of "
                             f"{len(self.keys)} keys and {len(self.fingerprints)} fingerprints; nothing was written")
        self.name_at = self.name_at.astype(_index(len(self.names)), copy=False)
        self.row_at = self.row_at.astype(_index(len(self.keys)), copy=False)

    @classmethod
    def of(cls, entries: BlockEntries) -> "PackedEntries":
        """BlockEntries as they are (an entry a row: a key may come twice)."""
        at = np.arange(len(entries))
        names = np.array([n.encode("utf-8") for n in entries.names], dtype="S")
        return cls(names, at, at, entries.keys, entries.fingerprints)

    def __len__(self) -> int:
        return len(self.name_at)

    def entries(self, at: np.ndarray, shared: bool = True) -> BlockEntries:
        """The entries at positions ``at``, as BlockEntries; entries of one name share its str
        (the copies of a mass petition: one name object, not one each), or with ``shared`` False
        and names held as parts, a str an entry (``_names_at``)."""
        rows = self.row_at[at]
        return BlockEntries(self._names_at(at, shared), picked(self.keys, rows), self.fingerprints[rows])

    def _names_at(self, at: np.ndarray, shared: bool) -> list[str]:
        """The names of the entries at ``at`` as str. Unshared, names held as parts (``Names``:
        ASCII) are made and decoded by numpy, a str an entry: the store writer's slices, let go a
        slice at a time (2.1 CPU s became 1.4 for the 3.2 million entries of 200k news rows, most
        of it np.unique and a decode call a name: store2-s48.md). Else each distinct name is
        decoded once."""
        if not shared and not isinstance(self.names, np.ndarray):
            return self.names[self.name_at[at]].astype("U").tolist()
        used, which = np.unique(self.name_at[at], return_inverse=True)
        names = [b.decode("utf-8") for b in self.names[used].tolist()]
        return picked(names, which.reshape(-1))

    def whole(self) -> BlockEntries:
        return self.entries(np.arange(len(self)))

    def slices(self, by_key: bool = True) -> Iterator[BlockEntries]:
        """Every entry, SLICE at a time, by block name and then by row key (the SQL store's index
        order: inserts append instead of landing at random) or with ``by_key`` False in the order
        given (each block's entries as the pipeline filed them: the MongoDB documents' order)."""
        order = self._order(by_key)
        for lo in range(0, len(order), SLICE):
            yield self.entries(order[lo:lo + SLICE], shared=False)

    def by_block(self) -> Iterator[tuple[str, list[tuple[str, int]]]]:
        """(block name, [(row key, fingerprint as the signed 64-bit int with the same bits)]) for
        every block, by name, its entries in the order given."""
        flat = ((n, k, f) for e in self.slices(by_key=False)
                for n, k, f in zip(e.names, e.keys, e.fingerprints.view(np.int64).tolist()))
        for name, members in itertools.groupby(flat, key=itemgetter(0)):
            yield name, [(k, f) for _, k, f in members]

    def _order(self, by_key: bool) -> np.ndarray:
        """The entries' positions sorted by (name, key rank or position): names by their rank
        (as bytes: the order of str for UTF-8), keys ranked once each as str."""
        if not len(self):
            return np.empty(0, np.int64)
        then = _ranks(self.keys) if by_key else np.arange(len(self.keys))
        ranks = _name_ranks(self.names) if isinstance(self.names, np.ndarray) else self.names.ranks()
        code = np.empty(len(self), dtype=np.int64)
        for lo in range(0, len(self), SLICE):  # gathered a slice at a time: no temporaries the entries' size
            part = code[lo:lo + SLICE]
            np.multiply(ranks[self.name_at[lo:lo + SLICE]], len(self.keys), out=part, dtype=np.int64)
            part += then[self.row_at[lo:lo + SLICE]]
        del ranks, then
        return sorted_places(code, _index(len(self)))


def _name_ranks(names: np.ndarray) -> np.ndarray:
    """Each name's place among the distinct names sorted (equal names, equal ranks). np.unique's
    inverse held four times the names' bytes (270 MB for 3.2 million names); this holds the
    argsort and a slice of the sorted names (a sorted copy of them all was one more names' worth)."""
    if not len(names):
        return np.empty(0, np.int64)
    perm = np.argsort(names, kind="stable")
    new = np.empty(len(names), dtype=bool)
    new[0] = True
    for lo in range(1, len(names), SLICE):  # neighbours compared a slice at a time, not from a sorted copy
        at = perm[lo - 1:lo + SLICE]
        ordered = names[at]
        np.not_equal(ordered[1:], ordered[:-1], out=new[lo:lo + len(at) - 1])
    rank: np.ndarray = np.empty(len(names), dtype=_index(len(names)))
    rank[perm] = np.cumsum(new, dtype=rank.dtype) - 1
    return rank


def _index(n: int) -> type:
    """The int type of positions below ``n``."""
    return np.int32 if n < 1 << 31 else np.int64


def _ranks(keys: list[str]) -> np.ndarray:
    """Each key's place among the distinct keys sorted as str (equal keys, equal ranks): the
    positions sorted by key, not a dict of the keys (with their set and sorted list, 0.15 KB a
    row in the store writer; issue 26)."""
    by = sorted(range(len(keys)), key=keys.__getitem__)
    new = np.fromiter((a != b for a, b in zip(picked(keys, by[1:]), picked(keys, by[:-1]))), dtype=bool, count=max(len(keys) - 1, 0))
    rank = np.empty(len(keys), dtype=np.int64)
    if len(keys):
        rank[np.asarray(by, dtype=np.int64)] = np.concatenate(([0], np.cumsum(new)))
    return rank


def packed(entries: BlockEntries | PackedEntries) -> PackedEntries:
    return entries if isinstance(entries, PackedEntries) else PackedEntries.of(entries)

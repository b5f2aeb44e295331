"""Block layout: the block tables that make the search for fingerprints within distance k exact.

The 64 bits are cut into m disjoint bit ranges (blocks). Two fingerprints that differ in at most k
bits differ in at most k blocks, so they agree exactly on at least m - k of them (pigeonhole). A
*table* is one choice of m - k blocks; its key is those blocks' bits side by side. Every pair
within k shares the key of at least one table, so only fingerprints with a common key need
comparing.

- m = k + 1 is the paper's layout: k + 1 tables of one block each (k = 3: four 16-bit blocks).
- A larger k would make single blocks too narrow to narrow anything (k = 9: 6-bit blocks, each
  holding n/64 rows), so more blocks are cut and tables of two or more are used instead
  (Manku et al., "Detecting near-duplicates for web crawling", 2007): k = 9 with m = 11 gives 55
  tables with keys of 10-12 bits.

A *fields* layout (tables with ``fingerprint: fields``) gives each field of the row its own block:
the fingerprint is the fields' own SimHashes side by side, each table is one field's block, and
any two rows whose block of one field is equal and not empty (the field is not NULL in either)
are candidates, however far apart their other fields are. A pair within m - 1 bits is still
always found (pigeonhole), and one field recorded identically is enough to be compared.

Block position 0 holds the most significant bits. A table's positions are part of its block
names (``"2:3fa2"``, ``"0+5:a13"``), so one value in two tables names two different blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from itertools import combinations
from math import comb

import numpy as np

BITS = 64
MIN_KEY_BITS = 8  # a narrower key has at most 256 values: every bucket would hold n/256 rows
DEFAULT_KEY_BITS = 10  # the automatic layout adds blocks until every table key is at least this wide
MAX_TABLES = 256  # each table puts one entry per row in the store


@dataclass(frozen=True)
class BlockLayout:
    max_distance: int
    widths: tuple[int, ...]  # the m blocks, most significant first
    shared: bool = False  # fields layout: sharing a non-empty block makes a candidate, whatever the distance

    @classmethod
    def for_fields(cls, count: int) -> "BlockLayout":
        """One block per field, the 64 bits split as evenly as possible (the first fields get the
        remainder); a row whose field is empty has 0 in that block and is not indexed under it."""
        if not 2 <= count <= BITS // MIN_KEY_BITS:
            raise ValueError(f"a fields fingerprint needs 2 to {BITS // MIN_KEY_BITS} fields, not {count}")
        return replace(_layout(count - 1, count), shared=True)

    @classmethod
    def for_distance(cls, k: int, blocks: int | None = None) -> "BlockLayout":
        """The layout for distance ``k`` with ``blocks`` bit ranges (None: the fewest that give every
        table a key of DEFAULT_KEY_BITS or more); refuses layouts that cannot narrow the search."""
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise ValueError("must be a whole number from 0 upwards")
        if k >= BITS // 2:
            raise ValueError(f"{k} is half of the {BITS} bits or more: any two fingerprints could match")
        if blocks is None:
            m = k + 1
            while _layout(k, m).key_bits < DEFAULT_KEY_BITS and comb(m + 1, m + 1 - k) <= MAX_TABLES:
                m += 1
            return _layout(k, m)
        if not isinstance(blocks, int) or isinstance(blocks, bool) or blocks <= k or blocks > BITS:
            raise ValueError(f"blocks must be a whole number from max_distance + 1 ({k + 1}) to {BITS}")
        layout = _layout(k, blocks)
        if layout.key_bits < MIN_KEY_BITS:
            raise ValueError(
                f"{blocks} blocks for distance {k} give table keys of {layout.key_bits} bits: too narrow "
                f"to narrow the search (keys need {MIN_KEY_BITS} bits or more; use more blocks)")
        if len(layout.tables) > MAX_TABLES:
            raise ValueError(f"{blocks} blocks for distance {k} make {len(layout.tables)} tables "
                             f"(at most {MAX_TABLES}); use fewer blocks")
        return layout

    @cached_property
    def shifts(self) -> tuple[int, ...]:
        """Right shift that brings each block down to the low bits."""
        out, used = [], 0
        for w in self.widths:
            used += w
            out.append(BITS - used)
        return tuple(out)

    @cached_property
    def tables(self) -> tuple[tuple[int, ...], ...]:
        """Each table's block positions: every choice of m - k blocks."""
        return tuple(combinations(range(len(self.widths)), len(self.widths) - self.max_distance))

    @property
    def reach(self) -> int:
        """The largest fingerprint distance a candidate pair may have: max_distance, or any for a
        fields layout (sharing a field's block is enough)."""
        return BITS if self.shared else self.max_distance

    @property
    def key_bits(self) -> int:
        """Width of the narrowest table key."""
        return min(sum(self.widths[p] for p in t) for t in self.tables)

    @cached_property
    def block_masks(self) -> tuple[int, ...]:
        """The bit mask of each block."""
        return tuple(((1 << w) - 1) << s for w, s in zip(self.widths, self.shifts))

    @cached_property
    def masks(self) -> tuple[int, ...]:
        """The bit mask of each table's key."""
        return tuple(sum(self.block_masks[p] for p in t) for t in self.tables)

    def values(self, fps: np.ndarray) -> np.ndarray:
        """Table keys, shape (len(fps), number of tables), as uint64: each table's blocks side by side."""
        fps = np.asarray(fps, dtype=np.uint64)
        out = np.zeros((fps.shape[0], len(self.tables)), dtype=np.uint64)
        for t, positions in enumerate(self.tables):
            for p in positions:
                w, s = self.widths[p], self.shifts[p]
                out[:, t] = (out[:, t] << np.uint64(w)) | ((fps >> np.uint64(s)) & np.uint64((1 << w) - 1))
        return out

    def table_name(self, t: int, value: int) -> str:
        """``"<positions joined by +>:<hex value>"``, the blockName of key ``value`` in table ``t``."""
        positions = self.tables[t]
        width = sum(self.widths[p] for p in positions)
        return f"{'+'.join(map(str, positions))}:{value:0{(width + 3) // 4}x}"

    def names(self, fp: int) -> list[str]:
        """The block names of one fingerprint, one per table."""
        return self.names_of(np.array([int(fp)], dtype=np.uint64))[0]

    def names_of(self, fps: np.ndarray) -> list[list[str]]:
        """The block names of many fingerprints, keys extracted once for all of them."""
        return [[self.table_name(t, v) for t, v in enumerate(row) if self.indexed(v)]
                for row in self.values(fps).tolist()]

    def indexed(self, value: int) -> bool:
        """Whether a table key names a block in the store: every key, except an empty field's 0 in a
        fields layout."""
        return bool(value) or not self.shared

    def describe(self) -> str:
        m, k = len(self.widths), self.max_distance
        if self.shared:
            return f"one block per field: {m} blocks of {'/'.join(map(str, self.widths))} bits"
        if m == k + 1:
            return f"{m} blocks of {'/'.join(map(str, self.widths))} bits"
        return (f"{m} blocks of {'/'.join(map(str, sorted(set(self.widths))))} bits, "
                f"{len(self.tables)} tables of {m - k} blocks (keys of {self.key_bits}+ bits)")


def _layout(k: int, m: int) -> BlockLayout:
    base, extra = divmod(BITS, m)
    return BlockLayout(k, tuple(base + 1 if i < extra else base for i in range(m)))

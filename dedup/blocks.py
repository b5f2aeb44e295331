"""Block layout: the k+1 bit ranges that make the search for fingerprints within distance k exact.

Two 64-bit fingerprints that differ in at most k bits agree exactly on at least one of k+1
disjoint bit ranges (pigeonhole), so only fingerprints sharing a block value need comparing.
Position 0 holds the most significant bits; the position is part of the block's name, so the
same value in two positions names two different blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BITS = 64
MIN_BLOCK_BITS = 8  # narrower blocks have at most 256 values: every bucket holds n/256 rows


@dataclass(frozen=True)
class BlockLayout:
    max_distance: int
    widths: tuple[int, ...]

    @classmethod
    def for_distance(cls, k: int) -> "BlockLayout":
        """k+1 blocks as equal as possible (wider ones first); refuses k that cannot be searched usefully."""
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise ValueError("must be a whole number from 0 upwards")
        n = k + 1
        if BITS // n < MIN_BLOCK_BITS:
            top = BITS // MIN_BLOCK_BITS - 1
            raise ValueError(
                f"{k} needs {n} blocks of {BITS // n} bits: too narrow to narrow the search "
                f"(at most {top}, i.e. blocks of {MIN_BLOCK_BITS} bits or more)"
            )
        base, extra = divmod(BITS, n)
        return cls(k, tuple(base + 1 if i < extra else base for i in range(n)))

    @property
    def shifts(self) -> tuple[int, ...]:
        """Right shift that brings each block down to the low bits."""
        out, used = [], 0
        for w in self.widths:
            used += w
            out.append(BITS - used)
        return tuple(out)

    def values(self, fps: np.ndarray) -> np.ndarray:
        """Block values, shape (len(fps), number of blocks), as uint64."""
        fps = np.asarray(fps, dtype=np.uint64)
        out = np.empty((fps.shape[0], len(self.widths)), dtype=np.uint64)
        for p, (w, s) in enumerate(zip(self.widths, self.shifts)):
            out[:, p] = (fps >> np.uint64(s)) & np.uint64((1 << w) - 1)
        return out

    def names(self, fp: int) -> list[str]:
        """The block names of one fingerprint: ``"<position>:<hex value>"``."""
        return [
            f"{p}:{(fp >> s) & ((1 << w) - 1):0{(w + 3) // 4}x}"
            for p, (w, s) in enumerate(zip(self.widths, self.shifts))
        ]

    def describe(self) -> str:
        return f"{len(self.widths)} blocks of {'/'.join(map(str, self.widths))} bits"

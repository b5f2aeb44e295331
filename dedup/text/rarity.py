"""What a table shares, learned by a full run: content features carried by many rows weigh less.

A form letter's opening and closing, a topic template, a stock sentence of a ticket pool: their
n-grams and words are in hundreds of rows and say nothing about which complaint a row is. A full
run counts, for every content feature (dedup.text.content), the rows that have it (its document
frequency, df). A feature in more than ``common = max(common_rows, common_share * rows)`` rows
is *common* and weighs ``common / df``, but never less than ``floor``, in the weighted MinHash
(dedup.index.minhash.weighted_minhash); every other feature weighs 1. Two letters in one form
around different bodies then share mostly light features and little weight; a mass petition's
copies, the same text, still agree everywhere (a weighted Jaccard of identical sets is 1).

Identity values (a name, a phone, an address) are counted the same way: one carried by more than
``common`` rows (a common name, a placeholder phone) is no evidence of the same person and is
left out of the row's signature, as if empty.

Rule content_rare_identity (dedup.index.bands) also keeps the identity values in more than
``keep_rows`` rows (``match.identity_rare_rows``, a count that does not grow with the table): such
a value is generic, a weaker sign of the same person than a rare one (bench/results/zhbar-s39.md).

Only the common features are kept (their counts go to the store beside the IDF terms, salted
apart), with the number of rows in the version stamp, so an incremental run weighs a new row's
features exactly as the full run did: a feature the full run never saw as common weighs 1.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..index import kernels

SALT = np.uint64(0x636F_6D6D_6F6E_0022)  # a content feature's hash XOR this is its key among the stored term counts
IDENTITY_SALT = np.uint64(0x6964_656E_7469_0022)  # the same for an identity value's hash


@dataclass(frozen=True)
class ContentModel:
    documents: int  # rows the counts were learned from
    common_share: float
    common_rows: int
    floor: float  # the least a common feature weighs
    hashes: np.ndarray  # uint64 sorted: the common features
    counts: np.ndarray  # int64 aligned: their document frequency
    salt: np.uint64 = SALT  # IDENTITY_SALT: a model of identity values (``common_values``)
    keep_rows: int = 0  # identity values: also kept when in more than this many rows (``generic_values``; 0: off)

    @property
    def common(self) -> float:
        """A feature in more rows than this is common."""
        return max(float(self.common_rows), self.common_share * self.documents)

    @classmethod
    def learn(cls, hashes: np.ndarray, documents: int, common_share: float, common_rows: int,
              floor: float, salt: np.uint64 = SALT, keep_rows: int = 0) -> "ContentModel":
        """The common features of rows whose content hashes (distinct per row) are ``hashes``."""
        return cls.of_counts(*document_counts(hashes), documents, common_share, common_rows, floor, salt, keep_rows)

    @classmethod
    def of_counts(cls, uniq: np.ndarray, counts: np.ndarray, documents: int, common_share: float,
                  common_rows: int, floor: float, salt: np.uint64 = SALT, keep_rows: int = 0) -> "ContentModel":
        """The common features of rows in which the distinct non-zero hashes ``uniq`` (sorted) occur
        ``counts`` times (``document_counts``); with ``keep_rows``, those in more rows than that too."""
        empty = cls(documents, common_share, common_rows, floor, np.empty(0, np.uint64), np.empty(0, np.int64), salt,
                    keep_rows)
        if not len(uniq):
            return empty
        keep = counts > empty.kept_over
        return replace(empty, hashes=uniq[keep], counts=counts[keep].astype(np.int64))

    @classmethod
    def stored(cls, documents: int, common_share: float, common_rows: int, floor: float,
               found: dict[int, int], salt: np.uint64 = SALT, keep_rows: int = 0) -> "ContentModel":
        """From the counts the store gave back for some salted hashes (``stored_keys``)."""
        keys = np.fromiter(sorted(found), np.uint64, len(found)) ^ salt
        counts = np.fromiter((found[int(k)] for k in keys ^ salt), np.int64, len(found))
        order = np.argsort(keys, kind="stable")
        return cls(documents, common_share, common_rows, floor, keys[order], counts[order], salt, keep_rows)

    @property
    def kept_over(self) -> float:
        """A value in more rows than this is kept (and stored): the common ones, or ``keep_rows``' when lower."""
        return min(self.common, self.keep_rows) if self.keep_rows else self.common

    @staticmethod
    def stored_keys(hashes: np.ndarray, salt: np.uint64 = SALT) -> np.ndarray:
        """The keys under which the store keeps these features' counts."""
        hashes = np.unique(np.asarray(hashes, np.uint64))
        return hashes[hashes != 0] ^ salt

    def kept(self) -> tuple[np.ndarray, np.ndarray]:
        """(salted keys, counts) for the store."""
        return self.hashes ^ self.salt, self.counts

    def common_values(self, values: np.ndarray, over: float | None = None) -> np.ndarray:
        """Which of ``values`` (any shape) are common (bool, same shape): in more than ``over`` rows
        (None: ``common``)."""
        values = np.asarray(values, np.uint64)
        if not len(self.hashes):
            return np.zeros(values.shape, bool)
        pos = np.minimum(np.searchsorted(self.hashes, values), len(self.hashes) - 1)
        return (self.hashes[pos] == values) & (self.counts[pos] > (self.common if over is None else over))

    def generic_values(self, values: np.ndarray) -> np.ndarray:
        """Which of ``values`` are in more than ``keep_rows`` rows (rule content_rare_identity's
        generic values; all False when off)."""
        if not self.keep_rows:
            return np.zeros(np.shape(values), bool)
        return self.common_values(values, self.keep_rows)

    def weights(self, hashes: np.ndarray) -> np.ndarray | None:
        """Each feature's weight (None: all weigh 1)."""
        if not len(self.hashes) or not len(hashes):
            return None
        hashes = np.asarray(hashes, np.uint64)
        compiled = kernels.compiled(len(hashes))
        if compiled is not None:  # looked up in a hash table (dedup.index.kernels): the same weights
            weighs = np.clip(self.common / self.counts, self.floor, 1.0)
            w, hits = compiled.weigh(np.ascontiguousarray(self.hashes), weighs, np.ascontiguousarray(hashes))
            return w if hits else None
        pos = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        hit = self.hashes[pos] == hashes
        if not hit.any():
            return None
        w = np.ones(len(hashes))
        w[hit] = np.clip(self.common / self.counts[pos[hit]], self.floor, 1.0)
        return w

    def stamp(self) -> dict:
        return {"content_documents": self.documents}


COUNT_CHUNK = 1 << 20  # document_counts counts this many hashes at a time (1 << 22: a run's peak, issue 26)


def document_counts(hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct non-zero hashes sorted, how often each occurs) of ``hashes``, counted COUNT_CHUNK
    at a time and merged: a table's rows share most features, so the temporaries are a chunk's
    (not a sorted copy of every row's features, 8 bytes a feature, 240 features a demo row)."""
    hashes = np.asarray(hashes, np.uint64).ravel()
    parts = [np.unique(chunk[chunk != 0], return_counts=True)  # an identity value of 0: none
             for chunk in (hashes[lo:lo + COUNT_CHUNK] for lo in range(0, len(hashes), COUNT_CHUNK))]
    return merged_counts(parts)


def merged_counts(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(distinct hashes sorted, counts) of several (distinct hashes sorted, counts), the counts added
    up: one stable argsort of the sorted runs side by side (a merge of runs, not a sort from
    scratch), then the counts of equal neighbours added. A full run's learning merged each range's
    counts into the table's so far with np.unique's inverse and np.add.at: 0.7 of the 2.2 s a
    200k-row run learned in one process (rensa2-s44.md)."""
    if not parts:
        return np.empty(0, np.uint64), np.empty(0, np.int64)
    both = np.concatenate([np.asarray(u, np.uint64) for u, _c in parts])
    order = np.argsort(both, kind="stable")
    both = both[order]
    counts = np.concatenate([np.asarray(c, np.int64) for _u, c in parts])[order]
    new = np.empty(len(both), bool)
    new[:1] = True
    np.not_equal(both[1:], both[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return both[starts], np.add.reduceat(counts, starts) if len(starts) else counts

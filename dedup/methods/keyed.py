"""What the MinHash methods share: a sketch of one SimHash word (the fingerprint, for identity and
reports) and a signature whose keys (dedup.index.bands / records) find the candidates and whose
values verify them, and the block entries of keys whose buckets are anchored (dedup.index.anchors).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

import numpy as np

from ..index import fingerprint
from ..index.anchors import ANCHORLESS
from ..index.blocks import BITS
from ..index.fingerprint import HashedFeatures
from ..index.keys import picked
from ..index.minhash import distances, key_pairs
from ..index.names import KeyNames
from ..index.pairs import distinct_rows, screened
from ..text.features import Featurizer
from ..text.segment import Segmenter
from .base import Method


class KeyedMethod(Method):
    """A method whose candidates share a key of the row's signature (``scheme``); the concrete
    types are frozen dataclasses with a ``signature`` and a ``scheme``."""

    signature: Any  # dedup.text.signature.TextSignature or dedup.text.records.RecordSignature
    scheme: Any  # dedup.index.bands.BandScheme or dedup.index.records.RecordScheme
    words = 1

    def featurizer(self, segmenter: Segmenter, tf: str) -> Featurizer:
        return Featurizer(self.fields, segmenter, tf=tf, signature=self.signature)

    @property
    def width(self) -> int:
        return self.words + self.signature.words

    def sketch(self, feats: HashedFeatures, weights: np.ndarray) -> np.ndarray:
        words = fingerprint.sketch(feats.hashes, weights, feats.counts, words=self.words)
        sigs = self.finished(feats)
        if sigs is None:
            sigs = np.zeros((len(feats.counts), self.signature.words), np.uint64)
        return np.hstack([words, sigs])

    def finished(self, feats: HashedFeatures) -> np.ndarray | None:
        """The rows' signature words as the featuriser left them (a method may finish them)."""
        return feats.signatures

    @property
    def anchors(self) -> int | None:  # type: ignore[override]
        return getattr(self.scheme, "anchors", None)

    def near(self, sk, taken=None, verifying=False):
        sig = self.signatures(sk)
        keep = self.may_verify(sig) if verifying else None
        if keep is not None:
            i, j = self.scheme.near(sig, taken, keep)
        else:
            i, j = self.scheme.near(sig, taken) if self.anchored else self.scheme.near(sig)
        return i, j, distances(np.ascontiguousarray(sk[:, 0]), i, j)

    def may_verify(self, sig: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
        """(i, j) -> whether rows i and j of ``sig`` could pass ``verify`` (never False for a pair
        it keeps), asked inside the search; None: every candidate is verified."""
        return None

    def bucket_pairs(self, sk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every pair of one bucket's members whose lower row is among its first ``anchors``
        (key_pairs on the one key they share), as the local search pairs them."""
        i, j = key_pairs(np.ones((len(sk), 1), np.uint64), self.anchors)
        return i, j, np.bitwise_count(sk[i, 0] ^ sk[j, 0]).astype(np.int64)

    def block_names(self, sk: np.ndarray) -> list[list[str]]:
        return self.scheme.names_of(self.signatures(sk))

    @property
    def reach(self) -> int:
        return BITS

    def verify(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self.verifier(self.signatures(a), self.signatures(b))

    def verify_pairs(self, sk: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``verify`` of the pairs (sk[i], sk[j]); a verifier with a ``screen`` first drops the pairs
        it cannot pass on a compact copy of the rows, and reads whole signatures only for the rest."""
        small = self.verifier.compact(self.signatures(sk)) if hasattr(self.verifier, "screen") else None
        if small is None:
            return super().verify_pairs(sk, i, j)
        return screened(self.verify, self.verifier.screen, small, np.ascontiguousarray(sk), i, j)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.asarray(self.verifier.scores(self.signatures(a), self.signatures(b)), dtype=float)

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        return self.verifier.field_scores(self.signatures(a), self.signatures(b)) if len(a) else None

    def sweep(self, a: np.ndarray, b: np.ndarray) -> Callable[[float], np.ndarray]:
        if not len(a):
            return lambda t: np.zeros(0, bool)
        sig_a, sig_b = self.signatures(a), self.signatures(b)  # once, for every threshold
        return lambda t: self.at_threshold(t)(sig_a, sig_b)

    def at_threshold(self, t: float):
        """The verifier at another threshold."""
        return replace(self.verifier, threshold=t)

    @property
    def sweep_label(self) -> str:  # type: ignore[override]
        return f"minhash recipe: {self.describe()}; threshold={self.verifier.threshold}"

    sweep_measure = "estimated Jaccard similarity of the contents (candidate pairs: rows sharing a key)"

    def describe(self) -> str:
        return self.scheme.describe()

    def every_entry(self, keys: list[str], sk: np.ndarray) -> tuple[list[str], list[str], np.ndarray]:
        """(names, keys, fingerprints) of every entry the rows may have been filed under (to remove
        them): each key's name and its ANCHORLESS name."""
        names = [[*row, *(n + ANCHORLESS for n in row)] for row in self.block_names(sk)]
        counts = [len(n) for n in names]
        return [n for row in names for n in row], picked(keys, np.repeat(np.arange(len(keys)), counts)), \
            np.repeat(sk[:, 0], counts)

    def anchored_entries(self, keys: list[str], sk: np.ndarray, taken: dict[str, int] | None = None,
                         copies: Collection[str] = frozenset(), distinct=None
                         ) -> tuple[KeyNames, np.ndarray, np.ndarray]:
        """The rows' block entries packed (dedup.store.entries): names (held as their parts), each
        entry's place among them and its row's. A key's anchors are filed under its block name,
        after the ``taken`` ones a block already has; the other rows and the ``copies`` of stored
        rows under the ANCHORLESS name."""
        _, uniq, rep, of_row = distinct or distinct_rows(keys, sk)
        copied = np.fromiter((k in copies for k in keys), bool, len(keys)) if copies else np.zeros(len(keys), bool)
        first = (rep[of_row] == np.arange(len(keys))) & ~copied
        # a copy of an earlier row is never an anchor; the names are made once a distinct sketch
        # and shared by its rows (all anchorless for a copy), so 300,000 identical rows cost one
        # row's names; made flat by numpy (dedup.index.names), each row's entries point into them
        ukeys = self.scheme.keys(self.signatures(uniq))
        own, counts = self.scheme.flat_names(ukeys, self.scheme.anchored_keys(_slotted(ukeys, copied[rep]), taken))
        del ukeys
        per_row = counts[of_row]
        row_of = np.repeat(np.arange(len(keys), dtype=np.int32 if len(keys) < 1 << 31 else np.int64), per_row)
        # each entry's place in ``own``, in the smallest int that holds it (no int64 temporaries an entry)
        kind = np.int32 if 2 * max(len(own), len(row_of)) < 1 << 31 else np.int64
        at = np.repeat(((np.cumsum(counts) - counts)[of_row] - (np.cumsum(per_row) - per_row)).astype(kind), per_row)
        at += np.arange(len(row_of), dtype=kind)
        copy = ~first[row_of]
        if copy.any():  # the copies' names, anchorless, once each, after the others
            need = np.unique(at[copy])
            at[copy] = len(own) + np.searchsorted(need, at[copy])
            own = own.with_suffix(need)
        return own, at, row_of


def _slotted(ukeys: np.ndarray, is_copy: np.ndarray) -> np.ndarray:
    """The distinct sketches' keys that count for a bucket's anchor places: a copy of a stored row
    holds none (its sketch's place is the stored row's, as one full run counts it), so a new row
    after it in the batch takes the place one full run gives it (s41: a copy took a place and
    pushed a later row out of the anchors)."""
    return np.where(is_copy[:, None], np.uint64(0), ukeys) if is_copy.any() else ukeys

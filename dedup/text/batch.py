"""A batch of rows' hashed features, with numpy doing the per-feature bookkeeping.

``Featurizer.described`` builds one dict a row and adds each term's weight in Python; over a full
run that loop and laying its dicts out flat cost about as much as segmenting the text. Here Python
only collects each field's features as they occur (``Featurizer.occurrences``, which ``described``
walks too) and hashes them through a memo (terms repeat across rows); counting a feature's
occurrences in a field, weighting it, adding the weights of one feature met in several fields and
laying the rows out are array operations. The result is ``Featurizer.hashed`` of the rows'
``described`` features: the same hashes in the same order (each row's features in the order first
met), the same weights to the bit (a feature's field weights are added in field order, as the
dict adds them), ``tests/test_batch_features.py`` compares them. Two different features with one CityHash64 (one
chance in 2**64 a pair) are one feature here and two there; their sketch bits are the same.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from cityhash import CityHash64

from ..index.fingerprint import HashedFeatures
from .features import _TF_CACHED, _TF_TABLES, Featurizer
from .shingles import row_hash_order


class _Hashes(dict):
    """feature -> CityHash64 of its UTF-8 bytes, each feature hashed once while remembered."""

    LIMIT = 1 << 20

    def __missing__(self, feature: str) -> int:
        if len(self) >= self.LIMIT:
            self.clear()
        value = self[feature] = CityHash64(feature.encode("utf-8"))
        return value


_HASHES = _Hashes()


def forget() -> None:
    """Empty the feature hashes remembered (dedup.text.memos)."""
    _HASHES.clear()


def hashed_batch(fz: Featurizer, found: Sequence[list[tuple[int, list[str]]]]) -> HashedFeatures:
    """The rows' hashed features from their ``Featurizer.occurrences`` (every row with at least one)."""
    flat: list[str] = []
    seg_len, seg_pos, seg_row = [], [], []
    for r, fields in enumerate(found):
        for position, feats in fields:
            flat += feats
            seg_len.append(len(feats))
            seg_pos.append(position)
            seg_row.append(r)
    hashes = np.fromiter(map(_HASHES.__getitem__, flat), np.uint64, len(flat))
    return hashed_segments(fz, hashes, np.asarray(seg_len, np.int64), np.asarray(seg_pos, np.int64),
                           np.asarray(seg_row, np.int64), len(found))


def hashed_segments(fz: Featurizer, hashes: np.ndarray, seg_len: np.ndarray, seg_pos: np.ndarray,
                    seg_row: np.ndarray, rows: int) -> HashedFeatures:
    """``hashed_batch`` from its features laid out flat: each field's feature hashes as they occur
    (``hashes``), cut in segments of ``seg_len`` by the field position and row of each (every row
    in ``range(rows)`` with at least one feature)."""
    n = len(hashes)
    seg = np.repeat(np.arange(len(seg_len)), seg_len)
    # a field's occurrences of one feature: one run after a stable sort by (field segment, hash)
    order = row_hash_order(seg, hashes, len(seg_len))
    h, s = hashes[order], seg[order]
    starts = np.flatnonzero(np.r_[True, (h[1:] != h[:-1]) | (s[1:] != s[:-1])]) if n else np.empty(0, np.int64)
    tf = np.diff(np.r_[starts, n])
    first = order[starts]  # stable: a run's first element is the feature's first occurrence in its field
    run_seg, run_hash = s[starts], h[starts]
    pos = seg_pos[run_seg]
    kinds = [f.kind for f in fz.fields]
    field_w = np.array([f.weight for f in fz.fields], np.float64)
    whole = np.array([k == "short" for k in kinds], bool)
    weights = _tf_weights(fz, tf) * field_w[pos]  # a whole value is one occurrence: 1.0 * weight
    # one feature met in several fields: its runs, in field order, become one entry
    run_row = seg_row[run_seg]
    by = row_hash_order(run_row, run_hash, rows)  # stable: ties (one feature's fields) in field order
    rr, rh = run_row[by], run_hash[by]
    heads = np.flatnonzero(np.r_[True, (rh[1:] != rh[:-1]) | (rr[1:] != rr[:-1])]) if len(by) else by
    total = _sum_in_order(weights[by], heads)
    head = by[heads]
    # each row's features in the order first met; the keys are distinct and already in row order, which
    # the stable sort (a merge of runs) uses: half the time of the default one, the same order (session 48)
    place = np.argsort(run_row[head] * max(n, 1) + first[head], kind="stable")
    head = head[place]
    counts = np.bincount(run_row[head], minlength=rows).astype(np.int64)
    return HashedFeatures(run_hash[head], total[place], ~whole[pos[head]], counts,
                          pos[head].astype(np.int16) if fz.by_field else None)


def _tf_weights(fz: Featurizer, tf: np.ndarray) -> np.ndarray:
    """A feature's weight for its count in a field before the field weight: the TF table's floats,
    and beyond it ``Featurizer._count`` (math.log, as ``described``)."""
    table = np.array(_TF_TABLES["log" if fz.tf == "log" else "raw"], np.float64)
    out = table[np.minimum(tf, _TF_CACHED - 1)]
    big = np.flatnonzero(tf >= _TF_CACHED)
    if len(big):
        out[big] = [fz._count(int(t)) for t in tf[big]]
    return out


def _sum_in_order(values: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """Each group's sum (groups start at ``heads``), added left to right as Python would: numpy's
    own reductions add in pairs, whose rounding can differ in the last bit."""
    total = values[heads].copy()
    size = np.diff(np.r_[heads, len(values)])
    k = 1
    while len(heads) and k < size.max():
        more = size > k
        total[more] += values[heads[more] + k]
        k += 1
    return total


"""A batch of rows' features with each token looked up once (issue 26, bench/results/featurise2-s48.md).

``Featurizer.occurrences`` gives a row's features as strings: a text field's terms filtered by
``Segmenter.terms`` (a set of the row's tokens, the new ones judged, the list filtered), which
dedup.text.batch then hashes through a memo, one look-up more a term. Here the fields' raw tokens
of the whole batch are laid out flat and numbered through the segmenter's ``TokenTable`` (one
look-up a token); which are dropped and their hashes are array reads, and the flat layout goes
straight to ``hashed_segments``. The result is ``hashed_batch`` of the rows' ``occurrences``: the
same hashes, weights, order and skipped rows (``tests/test_batch_terms.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np
from cityhash import CityHash64

from ..index.fingerprint import HashedFeatures
from .batch import hashed_segments
from .features import FIELD_TAG, WHOLE_VALUE, Featurizer, ngrams
from .normalize import normalize_short, normalize_text, value_to_text
from .token_hashes import compiled_hasher, hash_strings

Segments = list[tuple[int, bool, list[str]]]  # (field position, judged as terms, its tokens or features)


def row_segments(fz: Featurizer, row: Mapping[str, object], plan: "Plan | None" = None) -> Segments:
    """``Featurizer.occurrences`` before the terms are judged: a text field's tokens all (True),
    a short or chars field's features (False). A fields fingerprint's text terms are tagged
    with their column, so they are judged here, per row, as ``occurrences`` does (False).
    ``plan``: ``field_plan(fz)``, made once a batch."""
    out: Segments = []
    for position, name, kind, tag, n in plan or field_plan(fz):
        text = value_to_text(row.get(name))
        if text is None:
            continue
        if kind == "text":
            found = fz.segmenter.tokens(normalize_text(text))
            if found:
                out.append((position, True, found))
            continue
        if kind == "short":
            value = normalize_short(text)
            found = [tag + value] if value else []
        elif kind == "chars":
            found = [tag + g for g in ngrams(normalize_short(text), n)]
        else:  # a fields fingerprint's text field
            found = [tag + t for t in fz.segmenter.terms(normalize_text(text))]
        if found:
            out.append((position, False, found))
    return out


Plan = tuple[tuple[int, str, str, str, int], ...]


def field_plan(fz: Featurizer) -> Plan:
    """(position, column, kind, tag, n) of each field, its kind ``tagged`` for a fields
    fingerprint's text field: what ``row_segments`` reads for every row."""
    out = []
    for position, f in enumerate(fz.fields):
        kind = "tagged" if f.kind == "text" and fz.by_field else f.kind
        tag = f"{f.name}{WHOLE_VALUE}" if f.kind == "short" else f"{f.name}{FIELD_TAG}"
        out.append((position, f.name, kind, tag, f.n or 1))
    return tuple(out)


@dataclass
class Layout:
    """A batch's segments laid out flat: the tokens to judge, the features that are whole (a
    short value, mostly met once: hashed straight, not numbered), and each segment's length,
    field, row and kind."""

    tokens: list[str] = field(default_factory=list)
    whole: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    judged: list[bool] = field(default_factory=list)

    def add(self, row: int, segments: Segments) -> None:
        for position, judged, found in segments:
            if judged:
                self.tokens += found
            else:
                self.whole += found
            self.lengths.append(len(found))
            self.positions.append(position)
            self.rows.append(row)
            self.judged.append(judged)


def hashed_layout(fz: Featurizer, layout: Layout, rows: int) -> tuple[HashedFeatures, np.ndarray]:
    """(features, which of the ``rows`` have any) of a batch's layout, its rows numbered in order:
    the features of those rows alone, as ``hashed_batch`` of their ``occurrences``."""
    lengths = np.asarray(layout.lengths, np.int64)
    seg = np.repeat(np.arange(len(lengths)), lengths)
    judged = np.repeat(np.asarray(layout.judged, bool), lengths)
    hashes = np.empty(len(seg), np.uint64)
    keep = np.ones(len(seg), bool)
    hashes[judged], dropped, hashes[~judged] = _hashed(fz, layout)
    keep[judged] = ~dropped
    hashes = hashes[keep]
    kept = np.bincount(seg[keep], minlength=len(lengths))
    some = kept > 0  # a field whose terms are all dropped is no segment (occurrences leaves it out)
    seg_row = np.asarray(layout.rows, np.int64)
    has = np.bincount(seg_row[some], minlength=rows) > 0
    renumber = np.cumsum(has) - 1
    feats = hashed_segments(fz, hashes, kept[some], np.asarray(layout.positions, np.int64)[some],
                            renumber[seg_row[some]], int(has.sum()))
    return feats, has


def _hashed(fz: Featurizer, layout: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the tokens' hashes, whether each is dropped, the whole values' hashes): by the compiled
    kernel where numba is loaded in this process already (dedup.text.token_hashes), else through
    the segmenter's token table, the reference."""
    kernel = compiled_hasher()
    tokens = whole = None
    if kernel is not None:
        tokens = hash_strings(kernel, layout.tokens, fz.segmenter.stopwords)
        whole = hash_strings(kernel, layout.whole, fz.segmenter.stopwords)
    if tokens is not None and whole is not None:
        return tokens[0], tokens[1], whole[0]
    table = fz.segmenter.numbered()
    numbers = table.numbers(layout.tokens)
    # the whole values hashed straight, not through batch's memo: names and phones are nearly all
    # unique, so the memo held some 250,000 of them (about 40 MB) in each text worker of a 200k-row run
    # and a miss cost 4x a hash (session 48, lead)
    plain = np.fromiter((CityHash64(f.encode("utf-8")) for f in layout.whole), np.uint64, len(layout.whole))
    return table.hashes(numbers), table.dropped(numbers), plain

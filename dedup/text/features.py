"""Per-field features and weights: the paper's recipe for relational rows.

A short field (name, phone, address...) is one feature, its normalised whole value, weighted 2
by default; it is tagged with the column name so equal values in different columns stay apart.
A text field is segmented into terms, each weighted by its frequency in the row times the
field's weight (1 by default); terms from all text fields of a row add up. A chars field is cut
into character n-grams (tagged with the column), so one typo in a name or an id changes a few
features instead of the whole value. NULL and empty values contribute nothing.

Each feature is also described to the index: which field it came from (a fields fingerprint
gives every field its own bits) and whether it is a term or n-gram, which IDF may weigh
(dedup.text.terms), or a whole value, which keeps its weight. The feature strings themselves,
tags included, are what is hashed: changing them changes every stored fingerprint.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ..config.model import FieldSpec
from ..index.fingerprint import HashedFeatures
from .normalize import normalize_short, normalize_text, value_to_text
from .segment import Segmenter

WHOLE_VALUE = "\x1f"  # between a short field's column name and its value
FIELD_TAG = "\x1e"  # between a column name and one of its n-grams or (fields fingerprints) terms


@dataclass(frozen=True)
class Featurizer:
    fields: tuple[FieldSpec, ...]
    segmenter: Segmenter
    by_field: bool = False  # fields fingerprint: text terms are tagged with their column too
    tf: str = "log"  # how a term's count in a field counts: raw (the paper) or log, 1 + ln(count)
    signature: object = None  # makes each row's signature words (dedup.text.signature), if the recipe keeps one

    def _count(self, n: int) -> float:
        return 1.0 + math.log(n) if self.tf == "log" else float(n)

    def occurrences(self, row: Mapping[str, object]) -> list[tuple[int, list[str]]]:
        """(field position, the field's features as they occur) of each field with any: a short
        field's whole value (its one feature, tagged with the column), a chars field's n-grams
        (tagged), a text field's terms (tagged in a fields fingerprint). A value no text can be
        made of raises (ValueError, TypeError...: the row is unreadable)."""
        out = []
        for position, f in enumerate(self.fields):
            text = value_to_text(row.get(f.name))
            if text is None:
                continue
            if f.kind == "short":
                value = normalize_short(text)
                found = [f"{f.name}{WHOLE_VALUE}{value}"] if value else []
            elif f.kind == "chars":
                tag = f"{f.name}{FIELD_TAG}"
                found = [tag + g for g in ngrams(normalize_short(text), f.n or 1)]
            else:
                found = self.segmenter.terms(normalize_text(text))
                if self.by_field and found:
                    tag = f"{f.name}{FIELD_TAG}"
                    found = [tag + t for t in found]
            if found:
                out.append((position, found))
        return out

    def described(self, row: Mapping[str, object]) -> dict[str, list]:
        """feature -> [weight, field position, is a term]; empty when every field is NULL or blank.

        Features met twice add their weights (a term in both title and content is one feature;
        it keeps the field it was first met in, which only a fields fingerprint, whose terms are
        tagged with their column, makes use of). A run featurises whole batches with numpy
        (dedup.text.batch); this per-row dict serves ``features`` (explain) and is the plain
        reference the batch is tested against."""
        out: dict[str, list] = {}
        get = out.get
        counts = _TF_TABLES["log" if self.tf == "log" else "raw"]
        for position, found in self.occurrences(row):
            f = self.fields[position]
            term, w = f.kind != "short", f.weight
            for feature, tf in Counter(found).items():
                weight = (counts[tf] if tf < _TF_CACHED else self._count(tf)) * w if term else w
                entry = get(feature)
                if entry is None:
                    out[feature] = [weight, position, term]
                else:
                    entry[0] += weight
        return out

    def features(self, row: Mapping[str, object]) -> dict[str, float]:
        """feature -> weight for one row; empty when every field is NULL or blank."""
        return {feature: entry[0] for feature, entry in self.described(row).items()}

    def hashed(self, described: Sequence[dict[str, list]], rows: Sequence[Mapping[str, object]] = ()) -> HashedFeatures:
        """The rows' described features, hashed for the index, with the signatures of ``rows`` (the
        same rows' values) when the recipe keeps signatures: the plain per-row layout that
        dedup.text.batch's ``hashed_batch`` (what runs use) is tested against."""
        entries = [e for row in described for e in row.values()]
        out = HashedFeatures.flat([f for row in described for f in row],
                                  np.fromiter((e[0] for e in entries), np.float64, len(entries)),
                                  np.fromiter((e[2] for e in entries), bool, len(entries)),
                                  np.fromiter(map(len, described), np.int64, len(described)),
                                  np.fromiter((e[1] for e in entries), np.int16, len(entries)) if self.by_field else None)
        if hasattr(self.signature, "parts"):  # as dedup.runs.parallel.featurize_rows
            out.signatures, out.content, out.content_counts = self.signature.parts(rows)
            out.numbers = self.signature.numbers_of(rows)
        elif self.signature is not None:
            out.signatures = self.signature.of_rows(rows)
        return out

    def version(self) -> dict:
        fields = [[f.name, f.kind, f.weight] + ([f.n] if f.kind == "chars" else []) for f in self.fields]
        by_field = {"fingerprint": "fields"} if self.by_field else {}  # row fingerprints keep their old stamp
        return {"fields": fields, "tf": self.tf, **by_field, **self.segmenter.version()}


_TF_CACHED = 64  # term counts below this take their weight from a table (the same floats)
_TF_TABLES = {"log": [1.0 + math.log(n) if n else 0.0 for n in range(_TF_CACHED)],
              "raw": [float(n) for n in range(_TF_CACHED)]}


def ngrams(value: str, n: int) -> list[str]:
    """The overlapping n-character pieces of ``value``; a value shorter than n is one piece."""
    if len(value) <= n:
        return [value] if value else []
    return [value[i:i + n] for i in range(len(value) - n + 1)]

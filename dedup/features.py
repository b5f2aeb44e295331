"""Per-field features and weights: the paper's recipe for relational rows.

A short field (name, phone, address...) is one feature, its normalised whole value, weighted 2
by default; it is tagged with the column name so equal values in different columns stay apart.
A text field is segmented into terms, each weighted by its frequency in the row times the
field's weight (1 by default); terms from all text fields of a row add up. A chars field is cut
into character n-grams (tagged with the column), so one typo in a name or an id changes a few
features instead of the whole value. NULL and empty values contribute nothing.

Terms and n-grams can further be weighted by inverse document frequency (dedup.terms); whole
values are marked (fingerprint.WHOLE_VALUE) and keep their weight.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from .config import FieldSpec
from .fingerprint import FIELD_TAG, WHOLE_VALUE
from .normalize import normalize_short, normalize_text, value_to_text
from .segment import Segmenter

FIELD_SEPARATOR = WHOLE_VALUE  # between a short field's column name and its value
NGRAM_SEPARATOR = FIELD_TAG  # between a chars field's column name and one of its n-grams


@dataclass(frozen=True)
class Featurizer:
    fields: tuple[FieldSpec, ...]
    segmenter: Segmenter
    by_field: bool = False  # fields fingerprint: text terms are tagged with their column too
    tf: str = "log"  # how a term's count in a field counts: raw (the paper) or log, 1 + ln(count)

    def _count(self, n: int) -> float:
        return 1.0 + math.log(n) if self.tf == "log" else float(n)

    @property
    def columns(self) -> tuple[str, ...] | None:
        """The columns features are tagged with, in fingerprint order (None: row fingerprint)."""
        return tuple(f.name for f in self.fields) if self.by_field else None

    def features(self, row: Mapping[str, object]) -> dict[str, float]:
        """feature -> weight for one row; empty when every field is NULL or blank."""
        out: dict[str, float] = {}
        for f in self.fields:
            text = value_to_text(row.get(f.name))
            if text is None:
                continue
            if f.kind == "short":
                value = normalize_short(text)
                if value:
                    feat = f"{f.name}{FIELD_SEPARATOR}{value}"
                    out[feat] = out.get(feat, 0.0) + f.weight
            elif f.kind == "chars":
                value = normalize_short(text)
                for gram, tf in Counter(ngrams(value, f.n or 1)).items():
                    feat = f"{f.name}{NGRAM_SEPARATOR}{gram}"
                    out[feat] = out.get(feat, 0.0) + self._count(tf) * f.weight
            else:
                tag = f"{f.name}{FIELD_TAG}" if self.by_field else ""
                for term, tf in Counter(self.segmenter.terms(normalize_text(text))).items():
                    out[tag + term] = out.get(tag + term, 0.0) + self._count(tf) * f.weight
        return out

    def version(self) -> dict:
        fields = [[f.name, f.kind, f.weight] + ([f.n] if f.kind == "chars" else []) for f in self.fields]
        by_field = {"fingerprint": "fields"} if self.by_field else {}  # row fingerprints keep their old stamp
        return {"fields": fields, "tf": self.tf, **by_field, **self.segmenter.version()}


def ngrams(value: str, n: int) -> list[str]:
    """The overlapping n-character pieces of ``value``; a value shorter than n is one piece."""
    if len(value) <= n:
        return [value] if value else []
    return [value[i:i + n] for i in range(len(value) - n + 1)]

"""Per-field features and weights: the paper's recipe for relational rows.

A short field (name, phone, address...) is one feature, its normalised whole value, weighted 2
by default; it is tagged with the column name so equal values in different columns stay apart.
A text field is segmented into terms, each weighted by its frequency in the row times the
field's weight (1 by default); terms from all text fields of a row add up. NULL and empty
values contribute nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from .config import FieldSpec
from .normalize import normalize_short, normalize_text, value_to_text
from .segment import Segmenter

FIELD_SEPARATOR = "\x1f"  # between a short field's column name and its value


@dataclass(frozen=True)
class Featurizer:
    fields: tuple[FieldSpec, ...]
    segmenter: Segmenter

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
            else:
                for term, tf in Counter(self.segmenter.terms(normalize_text(text))).items():
                    out[term] = out.get(term, 0.0) + tf * f.weight
        return out

    def version(self) -> dict:
        return {"fields": [[f.name, f.kind, f.weight] for f in self.fields], **self.segmenter.version()}

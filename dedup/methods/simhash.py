"""The SimHash methods: the papers' recipe over a whole row, and a fields fingerprint for tables of
records (each field SimHashed into its own bits).

Both find candidates by the pigeonhole blocks of the fingerprint (dedup.index.blocks /
candidates); a row fingerprint's pairs are verified, when ``simhash.min_similarity`` is set, on
the cosine similarity its longer sketch estimates, a fields fingerprint's on the weighted
similarity of its fields (``simhash.min_field_similarity``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config.model import Config, FieldSpec, TableConfig
from ..index import fingerprint
from ..index.blocks import BlockLayout
from ..index.candidates import near_pairs
from ..index.fingerprint import HashedFeatures
from ..index.similarity import at_least, similarity, sketch_distance
from ..index.verify import FieldVerifier, SketchVerifier
from ..text.features import Featurizer
from ..text.segment import Segmenter
from .base import Method


@dataclass(frozen=True)
class RowSimHash(Method):
    """The papers' recipe: one SimHash of the whole row, k+1 pigeonhole blocks, Hamming distance."""

    fields: tuple[FieldSpec, ...]
    words: int
    layout: BlockLayout
    verifier: Any  # SketchVerifier or FieldVerifier, or None: every row sharing a block within reach is a pair
    settings: dict  # the stamp

    knob = "simhash.min_similarity"
    rule = "similarity"
    accepted = "simhash"
    scored = False
    by_field = False

    @classmethod
    def of(cls, config: Config, tcfg: TableConfig) -> RowSimHash:
        layout = BlockLayout.for_distance(config.max_distance, config.blocks)
        verifier = None if config.min_similarity is None else SketchVerifier(config.min_similarity, config.sketch_bits)
        return cls(tcfg.fields, config.sketch_bits // 64, layout, verifier, _settings(config, layout))

    @property
    def measure(self) -> str:  # type: ignore[override]  # read from the sketch width
        return f"cosine similarity estimated from {64 * self.words} SimHash bits"

    def featurizer(self, segmenter: Segmenter, tf: str) -> Featurizer:
        return Featurizer(self.fields, segmenter, by_field=self.by_field, tf=tf)

    def stamp(self) -> dict:
        return dict(self.settings)

    def sketch(self, feats: HashedFeatures, weights: np.ndarray) -> np.ndarray:
        return fingerprint.sketch(feats.hashes, weights, feats.counts, words=self.words)

    def near(self, sk, taken=None, verifying=False):
        return near_pairs(np.ascontiguousarray(sk[:, 0]), self.layout)

    def block_names(self, sk: np.ndarray) -> list[list[str]]:
        return self.layout.names_of(sk[:, 0])

    @property
    def reach(self) -> int:
        return self.layout.reach

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return similarity(sketch_distance(a[:, :self.words], b[:, :self.words]), 64 * self.words)


@dataclass(frozen=True)
class FieldSimHash(RowSimHash):
    """A fields fingerprint: field f's features SimHashed into its own bits, blocks of one field
    each; pairs verified on the weighted similarity of the fields both rows have."""

    knob = "simhash.min_field_similarity"
    accepted = "fields"
    scored = True
    by_field = True
    sweep_measure = "weighted field similarity of candidate pairs (rows sharing a field)"

    @classmethod
    def of(cls, config: Config, tcfg: TableConfig) -> FieldSimHash:
        layout = BlockLayout.for_fields(len(tcfg.fields))
        verifier = FieldVerifier(layout.block_masks, tuple(f.weight for f in tcfg.fields), config.min_field_similarity)
        settings = {**_settings(config, BlockLayout.for_distance(config.max_distance, config.blocks)),
                    "min_field_similarity": config.min_field_similarity}
        return cls(tcfg.fields, config.sketch_bits // 64, layout, verifier, settings)

    @property
    def measure(self) -> str:  # type: ignore[override]  # read from the sketch width
        return "weighted field similarity"

    @property
    def sweep_label(self) -> str:  # type: ignore[override]
        return f"fields fingerprint, min_field_similarity={self.threshold}"

    def sketch(self, feats: HashedFeatures, weights: np.ndarray) -> np.ndarray:
        return fingerprint.field_sketch(feats, weights, self.layout.block_masks, self.words)

    def scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self.verifier.scores(a[:, :self.words], b[:, :self.words])

    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def field_scores(self, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
        return self.verifier.field_scores(a[:, :self.words], b[:, :self.words]) if len(a) else None

    def field_weights(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        fields = self.verifier.field_scores(a[:, :self.words], b[:, :self.words])
        return np.where(np.isnan(fields), 0.0, np.asarray(self.verifier.weights, dtype=float))

    def sweep(self, a: np.ndarray, b: np.ndarray) -> Callable[[float], np.ndarray]:
        score = self.scores(a, b) if len(a) else np.empty(0)
        return lambda t: at_least(score, t)


def _settings(config: Config, row_layout: BlockLayout) -> dict:
    return {"max_distance": config.max_distance, "blocks": len(row_layout.widths), "sketch_bits": config.sketch_bits,
            "min_similarity": config.min_similarity}

"""A table's recipe: everything that turns its rows into fingerprints, block entries and pairs.

Derived once from the config (``Recipe.of``) and handed to every stage, so a full run, an
incremental run and `dedup eval` fingerprint, index and verify rows the same way. The version
stamp records what decides a fingerprint or a pair: rows fingerprinted under another stamp are
not comparable, and an incremental run refuses to mix them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from importlib.metadata import PackageNotFoundError, version as dist_version

import numpy as np

from ..config.model import Config, TableConfig
from ..index import fingerprint
from ..index.blocks import BlockLayout
from ..index.candidates import near_pairs
from ..index.fingerprint import HashedFeatures
from ..index.groups import Group, Pair, build_groups
from ..index.pairs import row_pairs
from ..index.verify import FieldVerifier, SketchVerifier
from ..store.model import BlockEntries
from ..text.features import Featurizer
from ..text.normalize import NORMALIZATION_VERSION
from ..text.segment import Segmenter, load_stopwords
from ..text.terms import TermModel

LEARNED = "learned"  # the part of a version stamp a full run learns from the data (IDF documents)


@dataclass(frozen=True)
class Recipe:
    table: TableConfig
    featurizer: Featurizer
    words: int  # 64-bit sketch words per row; word 0 is the fingerprint
    layout: BlockLayout
    verifier: SketchVerifier | FieldVerifier | None  # None: every candidate is a duplicate
    idf: bool
    max_distance: int
    stamp: dict  # the version stamp, without what a full run learns

    @classmethod
    def of(cls, config: Config, table: TableConfig | str | None = None) -> "Recipe":
        tcfg = table if isinstance(table, TableConfig) else config.table(table)
        segmenter = Segmenter(load_stopwords(config.text.stopwords), hmm=config.text.hmm)
        featurizer = Featurizer(tcfg.fields, segmenter, by_field=tcfg.by_field, tf=config.text.tf)
        row_layout = BlockLayout.for_distance(config.max_distance, config.blocks)
        layout = BlockLayout.for_fields(len(tcfg.fields)) if tcfg.by_field else row_layout
        if tcfg.by_field:
            verifier = FieldVerifier(layout.block_masks, tuple(f.weight for f in tcfg.fields),
                                     config.min_field_similarity)
        elif config.min_similarity is None:
            verifier = None
        else:
            verifier = SketchVerifier(config.min_similarity, config.sketch_bits)
        stamp = {
            "max_distance": config.max_distance,
            "blocks": len(row_layout.widths),
            "sketch_bits": config.sketch_bits,
            "min_similarity": config.min_similarity,
            **({"min_field_similarity": config.min_field_similarity} if tcfg.by_field else {}),
            "idf": config.text.idf,
            "hash": f"{fingerprint.HASH_NAME} (cityhash {_version('cityhash')})",
            "normalization": NORMALIZATION_VERSION,
            "max_cell_chars": tcfg.max_cell_chars,  # a longer value is cut before it is featurised
            **featurizer.version(),
        }
        stamp = json.loads(json.dumps(stamp, sort_keys=True))  # the form a store gives back
        return cls(tcfg, featurizer, config.sketch_bits // 64, layout, verifier, config.text.idf,
                   config.max_distance, stamp)

    def version(self, terms: TermModel | None = None) -> dict:
        """The stamp stored with the fingerprints; with IDF, what the weights were learned from."""
        return {**self.stamp, LEARNED: {"documents": terms.documents}} if terms is not None else dict(self.stamp)

    def sketch(self, feats: HashedFeatures, terms: TermModel | None = None) -> np.ndarray:
        """SimHash sketches, (rows, words) uint64 with the fingerprint as word 0; the features
        weighed by IDF when ``terms`` (a fields fingerprint: each field into its own bits)."""
        weights = terms.weigh(feats) if terms is not None else feats.weights
        if self.table.by_field:
            return fingerprint.field_sketch(feats, weights, self.layout.block_masks, self.words)
        return fingerprint.sketch(feats.hashes, weights, feats.counts, words=self.words)

    def candidates(self, keys: list[str], sketches: np.ndarray, layout: BlockLayout | None = None) -> list[Pair]:
        """Unverified pairs: rows sharing a block (of ``layout``, by default the recipe's own)."""
        return row_pairs(keys, sketches, partial(near_pairs, layout=layout or self.layout))

    def pairs(self, keys: list[str], sketches: np.ndarray) -> list[Pair]:
        """The duplicate pairs among these rows: candidates, verified."""
        return row_pairs(keys, sketches, partial(near_pairs, layout=self.layout), self.verifier)

    def groups(self, keys: list[str], sketches: np.ndarray) -> list[Group]:
        """The rows' duplicate groups, numbered 1.. from their lowest key."""
        return build_groups(keys, fingerprints_of(sketches, len(keys)), self.pairs(keys, sketches))

    def block_names(self, fps: np.ndarray) -> list[list[str]]:
        """Each fingerprint's block names, one per table of the layout that indexes it."""
        return self.layout.names_of(np.asarray(fps, dtype=np.uint64))

    def block_entries(self, keys: list[str], fps) -> BlockEntries:
        """The block entries of these rows, for the store to add or remove."""
        fps = np.asarray(fps, dtype=np.uint64).reshape(-1)
        return BlockEntries.of_rows(keys, fps, self.block_names(fps))


def fingerprints_of(sketches: np.ndarray, rows: int) -> np.ndarray:
    """Word 0 of each sketch: the rows' 64-bit fingerprints."""
    if not rows:
        return np.empty(0, np.uint64)
    return np.ascontiguousarray(np.asarray(sketches, dtype=np.uint64).reshape(rows, -1)[:, 0])


def extra_words(sketches: np.ndarray) -> np.ndarray | None:
    """Sketch words after the fingerprint, padded to three for the store (None: fingerprint only)."""
    if sketches.shape[1] <= 1:
        return None
    out = np.zeros((sketches.shape[0], 3), dtype=np.uint64)
    out[:, :sketches.shape[1] - 1] = sketches[:, 1:]
    return out


def _version(dist: str) -> str:
    try:
        return dist_version(dist)
    except PackageNotFoundError:
        return "unknown"

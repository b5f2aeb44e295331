"""What a full run learns from the whole table, counted from its spilled features one range at a time.

The IDF term counts (TermModel.learn) and the common content features and identity values
(ContentModel.learn) are document counts over every row; counted range by range and added up
(dedup.text.rarity.merged_counts) they are the same numbers, so the models are the ones learned
from all the features at once, while the parent holds one range's features and the distinct
values' counts (issue 26).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index.fingerprint import HashedFeatures
from ..store import Store
from ..text.rarity import IDENTITY_SALT, ContentModel, document_counts, merged_counts
from ..text.terms import TermModel
from .recipe import Recipe
from .spill import FeatureSpill
from .stored import stored_content, stored_terms

Counts = tuple[np.ndarray, np.ndarray]  # distinct hashes sorted, how many rows have each


@dataclass
class TableCounts:
    """Document counts of the whole table: its IDF terms (zero hashes kept, as TermModel.learn),
    content features and identity values (zero left out, as ContentModel.learn)."""

    rows: int
    terms: Counts | None  # None: not counted (no IDF)
    content: Counts | None  # None: not counted, or the rows have no content features
    identity: Counts | None

    def distinct(self) -> HashedFeatures:
        """The table's distinct counted values as the features of one row: what ``stored_terms``
        and ``stored_content`` look up in the store."""
        empty = np.empty(0, np.uint64)
        terms = self.terms[0] if self.terms is not None else empty
        feats = HashedFeatures(terms, np.ones(len(terms)), np.ones(len(terms), bool), np.array([len(terms)]))
        if self.content is not None and self.identity is not None:
            feats.content, feats.content_counts = self.content[0], np.array([len(self.content[0])])
            feats.signatures = np.concatenate([np.zeros(1, np.uint64), self.identity[0]])[None, :]
        return feats


def table_counts(spill: FeatureSpill, terms: bool, content: bool) -> TableCounts:
    """Count the spilled rows' ``terms`` and ``content`` features, a range at a time."""
    counted = TableCounts(0, None, None, None)
    has_content = content and len(spill) > 0
    for i in range(len(spill)):
        feats = spill.load(i)
        counted.rows += len(feats.counts)
        if terms:
            here = np.unique(feats.hashes[feats.idf], return_counts=True)
            counted.terms = merged_counts([counted.terms, here] if counted.terms is not None else [here])
        has_content = has_content and feats.content is not None
        if has_content:
            for name, values in (("content", feats.content), ("identity", feats.signatures[:, 1:])):
                here = document_counts(values)
                before = getattr(counted, name)
                setattr(counted, name, merged_counts([before, here] if before is not None else [here]))
        del feats  # before the next range is loaded: two ranges at once were the run's peak (issue 26)
    if terms and counted.terms is None:
        counted.terms = np.empty(0, np.uint64), np.empty(0, np.int64)
    if not has_content:
        counted.content = counted.identity = None
    return counted


def learned_from_spill(recipe: Recipe, spill: FeatureSpill, stored: Store | None = None
                       ) -> tuple[Recipe, TermModel | None]:
    """``learned_from_features`` of all the spilled rows at once, counted range by range."""
    counted = table_counts(spill, recipe.idf, recipe.method.learns_content)
    if stored is not None:
        return learned_from_features(recipe, counted.distinct(), stored)
    terms = TermModel(counted.rows, *counted.terms) if counted.terms is not None else None
    if counted.content is not None and counted.identity is not None:
        share, least, floor = recipe.method.common  # type: ignore[attr-defined]  # text MinHash's: it learns content
        recipe = recipe.with_content(ContentModel.of_counts(*counted.content, counted.rows, share, least, floor),
                                     ContentModel.of_counts(*counted.identity, counted.rows, share, least, floor,
                                                            IDENTITY_SALT, getattr(recipe.method, "rare_rows", 0)))
    return recipe, terms


def learned_from_features(recipe: Recipe, feats: HashedFeatures, stored: Store | None = None
                          ) -> tuple[Recipe, TermModel | None]:
    """The recipe with the table's common content features, and its IDF term counts (None
    without IDF): learned from ``feats``, or with ``stored`` read from the store."""
    terms = None
    if recipe.idf:
        terms = stored_terms(stored, recipe.table.name, feats) if stored is not None else TermModel.learn(feats)
    recipe = stored_content(stored, recipe, feats) if stored is not None else recipe.learn_content(feats)
    return recipe, terms

"""The Spark run's learning from the whole table: IDF term counts and what the table's rows share.

A text table's common content features and identity values (dedup.text.rarity) are those carried
by more than ``common`` rows of the whole table, and no key range can tell which of its own are:
a feature may be below the bar in every range and above it in the table. So each task counts its
rows' values exactly (a row's content features are distinct, so np.unique counts rows, as
ContentModel.learn does), cuts the counts by hash into slices, and a shuffle adds each slice up
in the executors; only the common ones reach the driver. The models are those ContentModel.learn
makes of all the rows at once, so the sketches, groups and store are the local run's.

Both learnings leave out the keys two ranges read (``twice``: a local read sets them aside before
it learns).
"""

from __future__ import annotations

import numpy as np

from ..index.fingerprint import HashedFeatures
from ..text.rarity import IDENTITY_SALT, SALT, ContentModel
from ..text.terms import TermModel
from .recipe import Recipe
from .spark_parts import Part, merged_terms

CONTENT, IDENTITY = 0, 1  # tags of the counted values
SALTS = {CONTENT: SALT, IDENTITY: IDENTITY_SALT}


def learned_parts(featured, recipe: Recipe, twice: set[str]) -> tuple[Recipe, TermModel | None]:
    """From an RDD of featured Parts (cached): the recipe with the table's common content features
    and identity values, and the table's IDF term counts (None without IDF)."""
    terms = None
    if recipe.idf:
        terms = merged_terms(featured.map(lambda p: TermModel.learn(features_of(p, twice))).collect())
    if recipe.method.learns_content:
        recipe = recipe.with_content(*common_models(featured, recipe, twice))
    return recipe, terms


def common_models(featured, recipe: Recipe, twice: set[str]) -> tuple[ContentModel | None, ContentModel | None]:
    """The (content, identity) models ContentModel.learn makes of all the parts' rows (None, None
    when the rows have no content features: an empty table)."""
    rows = [n for n in featured.map(lambda p: content_rows(features_of(p, twice))).collect() if n is not None]
    if not rows:
        return None, None
    share, least, floor = recipe.method.common  # type: ignore[attr-defined]  # text MinHash's
    documents = sum(rows)
    rare = getattr(recipe.method, "rare_rows", 0)  # rule content_rare_identity: identity values from more rows
    bar = ContentModel(documents, share, least, floor, np.empty(0, np.uint64), np.empty(0, np.int64), keep_rows=rare).kept_over
    slices = max(1, featured.getNumPartitions())
    found = (featured.flatMap(lambda p: sliced_counts(features_of(p, twice), slices))
             .groupByKey(slices).map(lambda kv: (kv[0][0], *added_up(list(kv[1]), bar))).collect())
    models = []
    for tag in (CONTENT, IDENTITY):
        got = [(h, c) for t, h, c in found if t == tag]
        hashes = np.concatenate([h for h, _ in got]) if got else np.empty(0, np.uint64)
        counts = np.concatenate([c for _, c in got]) if got else np.empty(0, np.int64)
        order = np.argsort(hashes, kind="stable")  # of_counts keeps each model's own (the content's: over common)
        models.append(ContentModel.of_counts(hashes[order], counts[order], documents, share, least, floor, SALTS[tag],
                                             rare if tag == IDENTITY else 0))
    return models[0], models[1]


def features_of(part: Part, twice: set[str]) -> HashedFeatures:
    """The part's features without the rows of the keys two parts read."""
    keys, feats = part.rows.keys, part.rows.features
    if not twice.intersection(keys):
        return feats
    return feats.rows(np.fromiter((k not in twice for k in keys), bool, len(keys)))


def content_rows(feats: HashedFeatures) -> int | None:
    """Rows that count toward the models (None: no content features, as in an empty part)."""
    return None if feats.content is None else len(feats.content_counts)


def sliced_counts(feats: HashedFeatures, slices: int) -> list[tuple[tuple[int, int], tuple[np.ndarray, np.ndarray]]]:
    """A task: ((tag, slice), (values, rows with each)) of its content features and identity values,
    the values cut into ``slices`` by hash (0: none, as ContentModel.learn)."""
    if feats.content is None:
        return []
    out = []
    for tag, values in ((CONTENT, feats.content), (IDENTITY, feats.signatures[:, 1:].ravel())):
        values = np.asarray(values, np.uint64)
        uniq, counts = np.unique(values[values != 0], return_counts=True)
        which = uniq % np.uint64(slices)
        for s in np.unique(which).tolist():
            at = which == s
            out.append(((tag, s), (uniq[at], counts[at].astype(np.int64))))
    return out


def added_up(pieces: list[tuple[np.ndarray, np.ndarray]], bar: float) -> tuple[np.ndarray, np.ndarray]:
    """A slice's counts from every part added up, only the values in more than ``bar`` rows kept."""
    hashes = np.concatenate([h for h, _ in pieces])
    uniq, where = np.unique(hashes, return_inverse=True)
    counts = np.bincount(where, np.concatenate([c for _, c in pieces]), len(uniq)).astype(np.int64)
    keep = counts > bar
    return uniq[keep], counts[keep]

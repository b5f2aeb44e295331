"""What the last full run left in the store, read back for the runs after it: the recipe it was
made with and what it learned, the rows' sketches, term counts and common content features."""

from __future__ import annotations

import numpy as np

from ..errors import ConfigError
from ..index.fingerprint import HashedFeatures
from ..index.keys import key_sort
from ..store import Store
from ..text.terms import TermModel
from .recipe import LEARNED, Recipe


def stored_recipe(recipe: Recipe, state) -> tuple[Recipe, dict]:
    """The recipe with what the last full run learned, and the version stamp to store; a
    ConfigError when the stored fingerprints were made with other settings (or need a full run)."""
    name = recipe.table.name
    version = recipe.version()
    stored_version = {k: v for k, v in state.version.items() if k != LEARNED} if state is not None else None
    if state is not None and stored_version != version:
        raise ConfigError(
            f"the fingerprints stored for {name!r} were made with other settings "
            f"({_differences(stored_version, version)}); run `dedup full --table {name}` to rebuild them")
    if state is not None and LEARNED in state.version:
        version[LEARNED] = state.version[LEARNED]
        recipe = recipe.using(state.version[LEARNED].get("fields"))
    if recipe.learns and recipe.learned is None:
        raise ConfigError(f"{name!r} is compared as records, by what a full run learns from the whole table: "
                          f"run `dedup full --table {name}` first")
    return recipe, version


def stored_fields(store: Store, recipe: Recipe) -> Recipe | None:
    """The recipe with the field statistics the last full run stored (a record table's keys), None
    when it stored none: a ``--keep-terms`` full run groups with the keys the incremental runs since
    then have used, not with keys learned again from more rows."""
    fields = _learned(store, recipe.table.name).get("fields")
    return recipe.using(fields) if fields is not None else None


def _differences(old: dict, new: dict) -> str:
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return ", ".join(f"{k} changed" for k in keys) or "unknown change"


def stored_sketches(store: Store, table: str, keys: list[str], fp: dict[str, int], words: int) -> np.ndarray:
    """Stored rows' sketches (fingerprint first) with ``words`` words, as a (len(keys), words)
    uint64 matrix aligned with ``keys``; missing words are 0."""
    out = np.zeros((len(keys), words), dtype=np.uint64)
    if not keys:
        return out
    out[:, 0] = np.fromiter((fp[k] for k in keys), dtype=np.uint64, count=len(keys))
    extra = store.sketches(table, keys) if words > 1 else {}
    rows = [extra.get(k, ()) for k in keys]
    full = [i for i, r in enumerate(rows) if len(r) >= words - 1]
    if full:  # one conversion for all rows that have every word (all of them, unless the store is old)
        out[np.asarray(full), 1:] = np.array([rows[i][:words - 1] for i in full], dtype=np.uint64)
    for i, r in enumerate(rows):
        if 0 < len(r) < words - 1:
            out[i, 1:1 + len(r)] = np.asarray(r, dtype=np.uint64)
    return out


class SketchLookup:
    """keys -> their sketches, (len, width): this batch's rows from memory, stored rows from the
    store, each fetched once (star clustering verifies a few (centre, row) pairs at a time)."""

    def __init__(self, store: Store, table: str, fp: dict[str, int], new: dict[str, np.ndarray], width: int):
        self.store, self.table, self.fp, self.known, self.width = store, table, fp, dict(new), width

    def __call__(self, keys: list[str]) -> np.ndarray:
        missing = sorted({k for k in keys if k not in self.known}, key=key_sort)
        if missing:
            self.known.update(zip(missing, stored_sketches(self.store, self.table, missing, self.fp, self.width)))
        return np.array([self.known[k] for k in keys], dtype=np.uint64).reshape(len(keys), self.width)


def stored_content(store: Store, recipe: Recipe, feats: HashedFeatures) -> Recipe:
    """The recipe with the common content features the last full run stored, for those in ``feats``."""
    learned = _learned(store, recipe.table.name)
    return recipe.stored_content(learned.get("content_documents"),
                                 lambda keys: store.term_counts(recipe.table.name, keys), feats)


def stored_terms(store: Store, table: str, feats: HashedFeatures) -> TermModel:
    """The term counts the last full run stored, for the terms in ``feats``."""
    learned = _learned(store, table)
    if "documents" not in learned:
        raise ConfigError(f"no term statistics stored for {table!r} (text.idf is on): "
                          f"run `dedup full --table {table}` first")
    wanted = np.unique(feats.hashes[feats.idf])
    return TermModel.from_counts(int(learned["documents"]), store.term_counts(table, wanted))


def _learned(store: Store, table: str) -> dict:
    """What the last full run learned (its version stamp's LEARNED part), empty when none."""
    state = store.state(table)
    return (state.version.get(LEARNED) if state is not None else None) or {}

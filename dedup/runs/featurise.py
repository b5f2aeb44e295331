"""The featurise-table stage every whole-table run starts with: read -> sketch -> learn.

A full run (dedup.runs.full) and `dedup eval` read the table, learn what it shares (term counts
under IDF, common content features), sketch every row and let the recipe's scheme learn from the
whole table's sketches; the Spark run does the same steps spread over key ranges and calls
``learned`` on the collected sketches. One function, so they cannot drift apart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import numpy as np

from ..db.source import Source
from ..store import Store
from ..text.terms import TermModel
from .clock import StageClock
from .heap import give_back_freed
from .learning import learned_from_spill
from .recipe import Recipe
from . import spill as spilling
from .parallel import Featurizing
from .sketching import sketch_spilled
from .spill import FeatureSpill
from .stored import stored_fields
from .stages import Progress, Rows, read_rows

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class Featurised:
    """A table read and sketched: the rows (their features freed: the sketches hold what is
    needed), the sketches, the recipe with what it learned, and the IDF term counts used."""

    rows: Rows
    sketches: np.ndarray
    recipe: Recipe
    terms: TermModel | None


def featurise_table(source: Source, recipe: Recipe, *, progress: Progress | None = None, workers: int = 1,
                    clock: StageClock | None = None, stored: Store | None = None, total: int | None = None) -> Featurised:
    """Read every row of the table, sketch it and learn from it (stages ``read+featurise`` and
    ``sketch`` of ``clock``). ``stored``: the term counts, common content features and a record
    table's field statistics are the ones the store's last full run kept, not learned from these rows.
    ``total``: the table's rows where the caller has counted them (else counted here, for the
    number of spill ranges, which decides whether the text workers write the spill and sketch it)."""
    clock = clock or StageClock()
    ranges = -(-(source.count() if total is None else total) // spilling.SPILL_ROWS)
    with FeatureSpill() as spill, Featurizing(recipe.featurizer, workers, ranges, spill) as featurizing:  # forked before the read's heap exists
        with clock.stage("read+featurise"):  # the features wait in files, not in this process (dedup.runs.spill)
            rows = read_rows(source, recipe, progress, workers=workers, spill=spill, featurizing=featurizing)
        give_back_freed()  # the read's batches: 0.6 KB a row of free heap, else held to the end (issue 26)
        with clock.stage("sketch"):
            recipe, terms = learned_from_spill(recipe, spill, stored)
            give_back_freed()  # the counting's ranges
            sketches = sketch_spilled(recipe, spill, terms, featurizing)
            kept = stored_fields(stored, recipe) if stored is not None and recipe.learns else None
            recipe = kept if kept is not None else learned(recipe, sketches)
    return Featurised(rows=replace(rows, features=None), sketches=sketches, recipe=recipe, terms=terms)


def learned(recipe: Recipe, sketches: np.ndarray) -> Recipe:
    """The recipe with what its scheme learns from the whole table's sketches; hot keys are logged."""
    recipe = recipe.learn(sketches)
    hot = recipe.scheme.hot() if hasattr(recipe.scheme, "hot") else []
    if hot:
        log.warning("%s: %d key values are each shared by more than %d rows (the largest by %d) and make no "
                    "candidate pairs", recipe.table.name, len(hot), recipe.scheme.max_bucket, hot[0][1])
    return recipe

"""Measuring detection quality: pairwise metrics (metrics), sweeps of the recipe (sweep), charts (chart, summary)."""

from ..config.model import DEFAULT_MAX_DISTANCE, DEFAULT_MIN_FIELD_SIMILARITY, DEFAULT_MIN_SIMILARITY

# The points `dedup eval` sweeps by default; the shipped defaults are among them, so the current
# setting is always marked.
DEFAULT_DISTANCES = tuple(sorted({3, 5, 7, 9, 11, 13, DEFAULT_MAX_DISTANCE}))
DEFAULT_SIMILARITIES = tuple(sorted({0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, DEFAULT_MIN_SIMILARITY,
                                     DEFAULT_MIN_FIELD_SIMILARITY}))

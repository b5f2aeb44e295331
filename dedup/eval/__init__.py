"""Measuring detection quality: pairwise metrics (metrics), sweeps of the recipe (sweep), charts (chart, summary)."""

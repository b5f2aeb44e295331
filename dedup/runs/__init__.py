"""Runs: a table's recipe, the shared stages, and the full and incremental runs built from them."""

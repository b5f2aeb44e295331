"""Benchmarks for dedup (run by hand, not part of the tests)."""

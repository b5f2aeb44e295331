"""Benchmarks for dedup (run by hand, not part of the tests; bench/README.md is the index)."""

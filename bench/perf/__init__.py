"""Timing and memory benchmarks (bench_*.py), each run by hand as ``python -m bench.perf.NAME``."""

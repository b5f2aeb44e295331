"""Held-out labelled sets: never used to choose dedup's defaults (README.md)."""

"""The record recipe's quality: its pipeline, the sweeps that chose its defaults, and its held-out score."""

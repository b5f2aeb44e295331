"""Labelled benchmark tables (synthetic rows with known duplicate clusters and hard negatives): petitions.py
and persons.py. Nothing is imported here, so that `python -m bench.datasets.labelled.petitions` runs cleanly."""

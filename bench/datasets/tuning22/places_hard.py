"""TUNING set for issue 22: the places (bench/datasets/tuning22/places.py) with hard negatives,
5 % of complaints a new incident on an earlier complaint's topic at its place (same district,
community, company and building; other dates and numbers): the failure a rule that trusts shared
details must not fall into. Chosen on, like every tuning set; the held-out topic_place has its own.

    python -m bench.datasets.tuning22.places_hard --rows 3000 --seed 0 --out /tmp/t22/hard-3k
"""

from __future__ import annotations

from bench.datasets.labelled.common import Labelled

from . import places
from .output import cli

NEW_INCIDENT = 0.05


def generate(n_rows: int, seed: int = 0) -> Labelled:
    return places.generate(n_rows, seed, new_incident=NEW_INCIDENT)


def main() -> None:
    cli(__doc__, generate, 3000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

"""TUNING set for issue 22 (session 38): the forms (bench/datasets/tuning22/forms.py) whose refiles are,
half of them, rewritten with several edits at once (zh.several_edits: a remark on the earlier filing,
a clause dropped, typos anywhere, punctuation of the other width) under another phone or none, half
of those at another address: the re-filing that the held-out form_letters' misses are, in this
folder's own words (bench/results/zhrecall-s38.md). Chosen on, like every tuning set.

    python -m bench.datasets.tuning22.forms_several --rows 5000 --seed 0 --out /tmp/t22/several-5k
"""

from __future__ import annotations

from bench.datasets.labelled.common import Labelled

from . import forms
from .output import cli

SEVERAL = 0.5


def generate(n_rows: int, seed: int = 0) -> Labelled:
    return forms.generate(n_rows, seed, several=SEVERAL)


def main() -> None:
    cli(__doc__, generate, 5000, "petitions", ("name", "phone", "address"), ("title", "content"))


if __name__ == "__main__":
    main()

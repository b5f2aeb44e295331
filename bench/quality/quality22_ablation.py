"""Issue 22's two new defaults switched off one at a time on the held-out sets (bench/datasets/heldout22):
star clustering (``groups.clustering: components`` instead) and the discount of what the table
shares (``match.common_share: 1.0``: nothing counts as common), each a whole ``run_full`` on the
config ``dedup init`` writes, pairwise quality counted on its groups.

    python -m bench.quality.quality22_ablation form_letters:5000 persons:5000 topic_place:3000 tickets:2000
    python -m bench.quality.quality22_ablation form_letters:200000

Measures what each default buys; the defaults themselves were chosen on the tuning sets
(bench/datasets/tuning22, bench/datasets/clustering, bench/datasets/records/copies.py), never on these.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from bench.quality import quality22 as q
from dedup.config import load_config
from dedup.runs.full import run_full

VARIANTS = {"default": (False, False), "components": (True, False), "no-weighting": (False, True),
            "both-off": (True, True)}


def variant_config(text: str, components: bool, unweighted: bool) -> str:
    """The starter config with the variant's settings added."""
    if unweighted:
        if re.search(r"^match:\n", text, re.M):
            text = re.sub(r"^match:\n", "match:\n  common_share: 1.0\n", text, flags=re.M)
        else:
            text += "\nmatch:\n  common_share: 1.0\n"
    if components:
        text += "\ngroups:\n  clustering: components\n"
    return text


def main(argv: list[str]) -> None:
    for name, rows in ((s, int(n)) for s, n in (a.split(":") for a in argv)):
        data = q.SETS[name][0](rows, 100)
        truth = {str(k): c for k, c in data.truth.items()}
        every_key = [str(r["id"]) for r in data.rows]
        for label, (components, unweighted) in VARIANTS.items():
            folder = Path(tempfile.mkdtemp())
            db = folder / f"{data.table}.db"
            q.write_sqlite(data, str(db))
            text = variant_config(q.starter_config(db, data.table, folder / "dedup.yaml"), components, unweighted)
            (folder / "dedup.yaml").write_text(text, encoding="utf-8")
            full = run_full(load_config(folder / "dedup.yaml"), data.table)
            f = q.group_facts([g.keys for g in full.groups], truth, every_key)
            print(f"{name} {rows} {label:13s} P {f['precision']:.3f} R {f['recall']:.3f} F1 {f['f1']:.3f} "
                  f"largest_false {f['largest_false']}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["form_letters:5000", "persons:5000", "topic_place:3000", "tickets:2000"])

"""What keeping group ids costs a full run: dedup.runs.lineage (keep_ids + describe) beside building
the same groups from their pairs (dedup.index.groups.linked_groups), measured in the same run.

    python -m bench.perf.bench_lineage [--groups 50000] [--size 4]

The stored groups are the new ones with a tenth of the groups changed: a row moved to the next
group, so the matching sees merges, splits and grown groups as well as unchanged ones.
"""

from __future__ import annotations

import argparse
import copy
import time

from dedup.index.groups import Pair, linked_groups
from dedup.runs.lineage import describe, keep_ids


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--groups", type=int, default=50_000)
    ap.add_argument("--size", type=int, default=4)
    args = ap.parse_args()
    n, size = args.groups, args.size
    keys = [str(i) for i in range(n * size)]
    pairs = [Pair(keys[g * size], keys[g * size + j], 1) for g in range(n) for j in range(1, size)]
    fp = {k: int(k) for k in keys}

    t0 = time.perf_counter()
    new = linked_groups(pairs, fp)
    t_build = time.perf_counter() - t0

    old = copy.deepcopy(new)
    for i, g in enumerate(old):
        g.id, g.created_run, g.updated_run = i + 1, 1, 1
    for i in range(0, n - 1, 10):  # every tenth stored group had its last row in the next group
        old[i + 1].keys.append(old[i].keys.pop())
        old[i + 1].distances.append(old[i].distances.pop())

    t0 = time.perf_counter()
    keep_ids(new, old, n + 1, 2)
    changes, left = describe({g.id: g for g in old}, new)
    t_lineage = time.perf_counter() - t0
    kept = sum(1 for g in new if g.id <= n)
    print(f"{n:,} groups of {size} rows: building them from pairs {t_build:.2f} s (baseline), "
          f"keeping their ids and recording the changes {t_lineage:.2f} s "
          f"({t_lineage / t_build:.2f}x); {kept:,} ids kept, {len(changes):,} changes, {left} rows left groups")


if __name__ == "__main__":
    main()

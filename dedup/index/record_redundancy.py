"""How much of a record field's agreement another field's agreement already told (dedup.index.records).

Columns that co-vary (the address columns and the phone of a household) are not independent
evidence; counted as such they make a family look like one person entered twice. The full run
counts agreeing row pairs among rows whose reference field (the best key field, an id number)
differs even in its first MinHash value, so that they are almost all different people:

- ``redundancy[f, g]``: how much likelier than chance two different people agreeing on g agree on
  f too, (P(f | g) - P(f)) / (1 - P(f)), clipped to [0, 1];
- ``joint[(g, h)][f]`` (``ref_triples``, issue 22): the same given agreement on g *and* h. One
  column alone rarely tells a household (many unrelated people live on a street of that name, in
  a suburb of that name), two together do (the street *in* that suburb): on the tuning persons
  with families the street number given street name alone is 0.07 redundant, given street name
  and suburb far more. Counted for the pairs of the ``JOINT_FIELDS`` most distinct fields.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from .minhash import combine
from .record_keys import counts

JOINT_FIELDS = 10  # conjunctions of two fields among this many (the most distinct): 45 pairs x the rest
MIXED = 0.25      # two fields tell households only when their agreeing rows differ on another this clearly
APART = 2          # two different people: their reference values differ in this many MinHash values


def _agree(z: np.ndarray) -> int:
    """Ordered row pairs agreeing on the non-zero values of ``z``."""
    n, _, s, _, _ = counts(z, 1 << 62)
    return s - n


def _apart(z: np.ndarray, rs: np.ndarray) -> int:
    """Ordered row pairs agreeing on ``z`` whose reference values differ in every column of ``rs``
    (inclusion-exclusion over the columns: pairs agreeing on z, less those also agreeing on one of
    them, plus those agreeing on two, ...)."""
    total = 0
    for n in range(rs.shape[1] + 1):
        for cols in combinations(range(rs.shape[1]), n):
            key = z
            for c in cols:
                key = combine(key, rs[:, c], 77 + c)
            total += (-1) ** n * _agree(key)
    return total


def agreements(h: np.ndarray, r: np.ndarray, ref: int, stat: list[int], top: list[int] | None) -> dict:
    """Among rows with the reference field ``ref`` filled (``h``: their value hashes, ``r``: the
    reference field's first ``APART`` MinHash values): per field and per pair of ``stat`` fields,
    the ordered row pairs agreeing on it, and those also agreeing on ``r``'s first column; per
    pair of ``top`` fields (None: none), alone and with a third of them, the pairs agreeing on it
    whose reference values differ in every column of ``r``."""
    first = r[:, 0]
    fields = [[_agree(h[:, f]), _agree(combine(h[:, f], first, 77))] for f in range(h.shape[1])]
    pairs, both, triples = [], [], []
    joint = top is not None
    top = top or []
    for a, b in combinations(stat, 2):
        z = combine(h[:, a], h[:, b], a * 1000 + b)
        pairs.append([a, b, _agree(z), _agree(combine(z, first, 77))])
        if a in top and b in top and ref not in (a, b):  # the same reference value never differs
            both.append([a, b, _apart(z, r)])
            triples += [[a, b, f, _apart(combine(z, h[:, f], 31 + f), r)] for f in top if f not in (a, b, ref)]
    out = {"ref": ref, "ref_rows": int(len(h)), "ref_fields": fields, "ref_pairs": pairs}
    if joint:
        out.update({"ref_both": both, "ref_triples": triples})
    return out


def _lift(p_f: float, p_fg: float) -> float:
    return (p_fg - p_f) / (1 - p_f) if 0 < p_f < p_fg else 0.0


def redundancy(lr: dict, fields: int) -> np.ndarray:
    """(fields, fields): [f, g] as the module doc says; 0 where not learned, and for the reference
    field itself."""
    red = np.zeros((fields, fields))
    if "ref" not in lr:
        return red
    ref, rows = lr["ref"], lr["ref_rows"]
    other = [a - ah for a, ah in lr["ref_fields"]]  # agreeing pairs of different reference values
    for a, b, ab, abh in lr["ref_pairs"]:
        for f, g in ((a, b), (b, a)):
            if ref in (f, g) or other[g] <= 0 or ab - abh <= 0:
                continue
            red[f, g] = _lift(other[f] / (rows * (rows - 1.0)), min(1.0, (ab - abh) / other[g]))
    return np.clip(red, 0.0, 1.0)


def joint(lr: dict, fields: int) -> dict[tuple[int, int], np.ndarray]:
    """(g, h) -> per field f how much likelier than chance two different people agreeing on g and
    h agree on f too; here different people are pairs whose reference values differ in all of
    their first ``APART`` MinHash values (agreeing on two fields selects copies, and a copy with a
    typo in its id number differs in one MinHash value often, in two rarely)."""
    if "ref_triples" not in lr:
        return {}
    rows = lr["ref_rows"]
    other = [a - ah for a, ah in lr["ref_fields"]]
    both = {(a, b): n for a, b, n in lr["ref_both"]}
    out: dict[tuple[int, int], np.ndarray] = {}
    for a, b, f, abf in lr["ref_triples"]:
        n = both.get((a, b), 0)
        if n > 0:
            row = out.setdefault((a, b), np.full(fields, np.nan))
            row[f] = _lift(other[f] / (rows * (rows - 1.0)), min(1.0, abf / n)) if abf > 0 else 0.0
    # rows agreeing on g and h that agree on every other field too are copies (whose id changed), not a household
    return {gh: np.nan_to_num(row) for gh, row in out.items() if np.nanmin(row) <= MIXED}

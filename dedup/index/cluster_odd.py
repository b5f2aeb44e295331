"""Star clustering's group check for record tables (issue 22, session 46): a row whose
one link into a group is a single pair, and that is unlike every other row the group would hold on
a distinctive field where those rows agree (dedup.index.record_odd), does not join through it.

The held-out false groups of 6 rows are a person's five copies and a family member placed first:
a damaged copy links to the family member (its only link there) and to the person's earlier
copies; it joins the family member's group, the first in key order, and brings the copies in.
Asked as a row is placed or gathered, from the rows before it, as every other rule of the
clustering, so a full run and a full then incremental one decide alike.
"""

from __future__ import annotations

from collections.abc import Callable

Odd = Callable[[str, list[str], int], bool]  # (row, the rows it would be grouped with, way) -> unlike all
Check = Callable[[list[tuple[str, str]]], list[bool]]  # as dedup.index.clusters'
LINK, JOINING, GATHERED = 1, 2, 4  # the ways (RecordScheme.odd_ways)
STRIPPED = 8  # the lone link's pair itself: a row stripped of its distinctive fields (RecordScheme.strip, s47)
WIDE = 9  # the group's rows read: its first this many, as widening reads (dedup.index.clusters)


def lone_link(u: str, c: str, held: list[str], partners: list[str], centre_of: dict[str, str],
              members: dict[str, list[str]], odd: Odd, check: Check) -> bool:
    """Row ``u`` would join ``c``'s group matching only ``held`` (head rows): when that is one row
    ``m``, its only partner there, whether ``m`` is unlike ``u`` and all of ``u``'s partners
    elsewhere and matches none of those (LINK), or ``u`` is unlike all the group's other rows and
    matches none of them (JOINING). A copy with one damaged field still matches its other copies."""
    inside = {v for v in partners if centre_of[v] == c} | set(held)
    if len(inside) != 1:
        return False
    (m,) = inside
    if odd(u, [m], STRIPPED):
        return True
    rest = [v for v in partners if centre_of[v] != c]
    if rest and odd(m, [u, *rest], LINK) and not any(check([(r, m) for r in rest])):
        return True
    return _odd_in(u, members[c], m, JOINING, odd, check)


def lone_gathered(v: str, u: str, held: list[str], group: list[str], odd: Odd, check: Check) -> bool:
    """Row ``v`` left alone would be gathered into ``group`` by ``u`` matching only ``held`` of its
    head: when ``u`` is its one link there, whether ``v`` is unlike all the group's other rows and
    matches none of them (GATHERED), or the pair ``v``-``u`` is a stripped row's (STRIPPED)."""
    if set(held) - {u}:
        return False
    if odd(v, [u], STRIPPED):
        return True
    return _odd_in(v, group, u, GATHERED, odd, check)


def _odd_in(row: str, group: list[str], link: str, way: int, odd: Odd, check: Check) -> bool:
    """Whether ``row`` is unlike all of the group's first WIDE rows but ``link`` (two at least) and
    matches none of them."""
    others = [k for k in group[:WIDE] if k != link]
    return len(others) >= 2 and odd(row, others, way) and not any(check([(k, row) for k in others]))

"""How the record recipe chooses its keys from what the full run learned (dedup.index.records):
value counts, a key's expected partners, and the choice of keys under a cap with a floor."""

from __future__ import annotations

import math

import numpy as np

MAX_HOT = 64        # hot key values learned (and switched off) at most


def counts(z: np.ndarray, cap: int) -> list[int]:
    """[non-empty, distinct, sum of squared value counts] of the non-zero values of ``z``, then
    [rows, sum of squared counts] of its values in more than ``cap`` rows, which will be switched
    off (0, 0 when there are more than MAX_HOT of them: then they count)."""
    live = z[z != 0]
    _, c = np.unique(live, return_counts=True)
    c = c.astype(np.int64)
    big = c[c > cap]
    if len(big) > MAX_HOT:
        big = big[:0]
    return [int(len(live)), int(len(c)), int((c ** 2).sum()), int(big.sum()), int((big ** 2).sum())]


def partners(filled: int, squares: int, hot_filled: int = 0, hot_squares: int = 0) -> float:
    """Expected other rows in a row's bucket, (sum count^2 - filled) / filled, leaving out the
    values switched off when they are exceptions (at most half the rows: a city column whose
    every value is in hundreds of rows is judged whole); inf when nothing is filled."""
    if 2 * hot_filled > filled:
        hot_filled = hot_squares = 0
    n = filled - hot_filled
    return (squares - hot_squares - n) / n if n > 0 else math.inf


def choose(partners: dict, cap: float, floor: int = 0, budget: float = 0.0, each: float = math.inf,
           share: int = 0, spread: float = math.inf) -> list:
    """The keys of ``partners`` (key -> expected partners) to use, best first: those under
    ``cap`` by partners; with a ``floor``, up to ``floor`` keys more first, each of at most
    ``each`` partners, as long as their expected partners together stay within ``budget`` (so
    candidates per row stay bounded as the table grows: a key whose buckets fill up by chance
    gives way to cheaper ones, and no single one takes the budget), pair keys (field tuples)
    that share no field with a chosen one before the others, so one damaged field cannot take
    out the whole floor (given name + surname, then street + suburb, ...); ``share`` > 0: no field
    in more than that many floor pair keys (a typo in a given name held by ten of them took them
    all out, and copies that kept their street number and postcode were never candidates); once
    ``share`` has turned a key away, the keys taken in its place (the spread) may expect at most
    ``spread`` partners each (s46: address 2 + state came in at 2.28 for a name pair of 1.21)."""
    ranked = sorted(partners, key=lambda k: (partners[k], k))
    apart: list = []
    used: set = set()
    for k in ranked:
        fields = set(k) if isinstance(k, tuple) else set()
        if not used & fields:
            apart.append(k)
            used |= fields
    floor_keys: list = []
    spent = 0.0
    held: dict = {}  # field -> floor pair keys holding it
    cap_each = each
    for k in apart + [k for k in ranked if k not in apart]:
        pair = k if isinstance(k, tuple) else ()
        if share and any(held.get(f, 0) >= share for f in pair):
            cap_each = min(each, spread) if len(floor_keys) < floor else cap_each
            continue
        if len(floor_keys) < floor and partners[k] <= cap_each and spent + partners[k] <= budget:
            floor_keys.append(k)
            spent += partners[k]
            held.update({f: held.get(f, 0) + 1 for f in pair})
    return floor_keys + [k for k in ranked if partners[k] <= cap and k not in floor_keys]


def within_share(chosen: list, more: list, share: int) -> list:
    """The keys of ``more`` that keep every field in at most ``share`` pair keys, counting ``chosen``
    (s46: the capped keys that filled the floor's room put the given name back in five of them)."""
    held: dict = {}
    for k in chosen:
        held.update({f: held.get(f, 0) + 1 for f in k})
    out = []
    for k in more:
        if all(held.get(f, 0) < share for f in k):
            out.append(k)
            held.update({f: held.get(f, 0) + 1 for f in k})
    return out

"""A group's links as paths: what `dedup explain` shows for two rows of one group that are no pair
themselves (moved out of dedup.index.clusters, which keeps the clustering alone)."""

from __future__ import annotations

from collections.abc import Iterable

from .groups import Pair
from .keys import key_sort


def link_path(pairs: Iterable[Pair], a: str, b: str) -> list[str] | None:
    """The shortest chain of rows from ``a`` to ``b`` along ``pairs`` (a group's links), both ends
    included; None when the links do not join them. What `dedup explain` shows for two rows of one
    group that are no pair themselves."""
    nxt: dict[str, list[str]] = {}
    for p in pairs:
        nxt.setdefault(p.a, []).append(p.b)
        nxt.setdefault(p.b, []).append(p.a)
    came: dict[str, str | None] = {a: None}
    todo = [a]
    for here in todo:  # breadth first: todo grows as it is read
        if here == b:
            path = [b]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])
            return path[::-1]
        for there in sorted(nxt.get(here, ()), key=key_sort):
            if there not in came:
                came[there] = here
                todo.append(there)
    return None

"""The workbench's actions, through the library that the CLI uses (dedup.runs.actions): each one a
decision recorded with the reviewer's name and applied at once under the table's lock.

Until that library is merged, same / different, take out, split and merge are written here as
the pair decisions of dedup.runs.decide (source ``web``); note and undo need the library.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..index.decisions import DIFFERENT, SAME, Decision
from ..runs.decide import decide, now
from ..store import open_store

try:
    from ..runs import actions as library
except ImportError:  # pragma: no cover - the actions library not merged yet
    library = None

SOURCE = "web"


def available(name: str) -> bool:
    """Whether action ``name`` can be offered."""
    return library is not None or name in ("mark", "take_out", "split", "merge")


def mark(config, table: str, a: str, b: str, verdict: str, *, reviewer: str, note: str | None = None):
    if library is not None:
        return library.mark(config, table, a, b, verdict, reviewer=reviewer, note=note)
    return decide(config, table, [Decision(a, b, verdict, now(), SOURCE)], check_keys=True)


def take_out(config, table: str, key: str, *, reviewer: str, note: str | None = None):
    if library is not None:
        return library.take_out(config, table, key, reviewer=reviewer, note=note)
    others = [k for k in _members(config, table, key) if k != key]
    return decide(config, table, [Decision(key, k, DIFFERENT, now(), SOURCE) for k in others])


def split(config, table: str, parts: list[list[str]], *, reviewer: str, note: str | None = None):
    if library is not None:
        return library.split(config, table, parts, reviewer=reviewer, note=note)
    at = now()
    found = [Decision(x, y, DIFFERENT, at, SOURCE) for n, p in enumerate(parts) for q in parts[n + 1:]
             for x in p for y in q]
    found += [Decision(p[i], p[i + 1], SAME, at, SOURCE) for p in parts for i in range(len(p) - 1)]
    return decide(config, table, found)


def merge(config, table: str, group_a: int, group_b: int, *, reviewer: str, note: str | None = None):
    if library is not None:
        return library.merge(config, table, group_a, group_b, reviewer=reviewer, note=note)
    store = open_store(config.store_url)
    try:
        firsts = [g.keys[0] for g in store.groups(table, [group_a, group_b])]
    finally:
        store.close()
    if len(firsts) != 2:
        raise ConfigError(f"no group {group_b if len(firsts) == 1 else group_a} in {table!r}")
    return decide(config, table, [Decision(firsts[0], firsts[1], SAME, now(), SOURCE)])


def note_group(config, table: str, group_id: int, text: str, *, reviewer: str):
    _need("note_group")
    return library.note_group(config, table, group_id, text, reviewer=reviewer)


def group_notes(config, table: str, group_id: int) -> list:
    return library.group_notes(config, table, group_id) if library is not None else []


def undo_last(config, table: str, *, reviewer: str | None = None):
    _need("undo_last")
    return library.undo_last(config, table, reviewer=reviewer)


def history(config, table: str, *, limit: int = 50) -> list:
    return library.history(config, table, limit=limit) if library is not None else []


def _members(config, table: str, key: str) -> list[str]:
    store = open_store(config.store_url)
    try:
        gid = store.group_ids_of(table, [key]).get(key)
        return store.groups(table, [gid])[0].keys if gid is not None else []
    finally:
        store.close()


def _need(name: str) -> None:
    if library is None:
        raise ConfigError(f"{name} needs the actions library (dedup.runs.actions)")

"""Checks shared by the config's sections: each adds its problem (``problems.add(path, message)``)
and returns a usable default, so that every problem of a config is reported at once."""

from __future__ import annotations

from typing import Any


def unknown_keys(raw: Any, allowed: set[str], path: str, problems) -> None:
    """Each key of ``raw`` not in ``allowed``, as a problem at its path."""
    if isinstance(raw, dict):
        for k in raw:
            if k not in allowed:
                where = f"{path}.{k}" if path else str(k)
                problems.add(where, f"unknown key (allowed: {', '.join(sorted(allowed))})")


def integer(raw: dict, key: str, path: str, problems, default: int, minimum: int) -> int:
    """``raw[key]`` as a whole number of at least ``minimum`` (``default`` when absent or wrong)."""
    value = raw.get(key, default) if isinstance(raw, dict) else default
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(f"{path}.{key}", "must be a whole number")
        return default
    if value < minimum:
        problems.add(f"{path}.{key}", f"must be at least {minimum}")
        return default
    return value

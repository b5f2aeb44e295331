"""Applying and checking the MongoDB store's versioned steps (``migrations/mongo/steps.py``)."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import StoreError

META = "dedup_meta"
_SCHEMA_ID = "schema"
STEPS_MODULE = "dedup._migrations.mongo.steps"  # migrations/mongo/steps.py, installed inside the package


def steps_module() -> ModuleType:
    try:
        return importlib.import_module(STEPS_MODULE)
    except ImportError as e:
        raise StoreError(f"the MongoDB store's migration steps are missing ({e}): reinstall dedup") from None


def steps() -> list:
    return sorted(steps_module().STEPS, key=lambda s: s[0])


def head_version() -> int:
    return steps()[-1][0]


def current_version(db) -> int | None:
    doc = db[META].find_one({"_id": _SCHEMA_ID})
    return None if doc is None else int(doc["version"])


def upgrade(db) -> tuple[int | None, int]:
    """Apply the steps newer than the database's version, recording each; returns (before, after)."""
    before = current_version(db)
    head = head_version()
    if before is not None and before > head:
        raise StoreError(f"the store's schema (version {before}) is newer than this dedup knows: upgrade dedup")
    for version, _what, step in steps():
        if before is None or version > before:
            step(db)
            db[META].update_one({"_id": _SCHEMA_ID}, {"$set": {"version": version}}, upsert=True)
    return before, head


def ensure_schema(db) -> None:
    """Set up an empty database; refuse one at another version than this dedup's."""
    current, head = current_version(db), head_version()
    if current == head:
        return
    if current is None:
        upgrade(db)
    elif current < head:
        raise StoreError(f"the store's schema is at version {current}, this dedup needs {head}: run `dedup migrate`")
    else:
        raise StoreError(f"the store's schema (version {current}) is newer than this dedup knows: upgrade dedup")

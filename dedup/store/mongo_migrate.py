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
            # $max: a second first use at once, still at an early step, never lowers the version
            db[META].update_one({"_id": _SCHEMA_ID}, {"$max": {"version": version}}, upsert=True)
    return before, head


def ensure_schema(db) -> None:
    """Set up an empty database (or finish one whose first use is under way in another process, or
    was killed); refuse one that holds anything at another version than this dedup's."""
    current, head = current_version(db), head_version()
    unused = current is None
    if current is not None and current < head:
        # read before the version again: a first use under way records every step before it stores anything
        unused = _unused(db)
        current = current_version(db)
    if current == head:
        return
    if unused:
        upgrade(db)
    elif current < head:
        raise StoreError(f"the store's schema is at version {current}, this dedup needs {head}: run `dedup migrate`")
    else:
        raise StoreError(f"the store's schema (version {current}) is newer than this dedup knows: upgrade dedup")


def _unused(db) -> bool:
    """Nothing stored but the schema version: a first use killed part way, or one still under way in
    another process, which this first use may finish (every step is idempotent); a store holding
    anything waits for `dedup migrate`."""
    for name in db.list_collection_names():
        if db[name].find_one({"_id": {"$ne": _SCHEMA_ID}} if name == META else {}, {"_id": 1}) is not None:
            return False
    return True

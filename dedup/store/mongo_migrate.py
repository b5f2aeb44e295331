"""Applying and checking the MongoDB store's versioned steps (``migrations/mongo/steps.py``)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from ..errors import StoreError
from .sql_migrate import migrations_dir

META = "dedup_meta"
_SCHEMA_ID = "schema"
_steps_module: ModuleType | None = None


def steps_module() -> ModuleType:
    """The steps, loaded by path: ``migrations/`` is not a package in a checkout."""
    global _steps_module
    if _steps_module is None:
        path = migrations_dir() / "mongo" / "steps.py"
        if not path.is_file():
            raise StoreError(f"the MongoDB store's migration steps are missing ({path}): reinstall dedup")
        spec = importlib.util.spec_from_file_location("dedup_mongo_steps", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _steps_module = module
    return _steps_module


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

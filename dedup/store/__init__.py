"""Stores of fingerprints, blocks and groups, chosen by URL."""

from __future__ import annotations

from ..errors import ConfigError
from ..masking import mask_secrets
from .base import Store
from .model import RunRecord, Skipped, TableSnapshot, TableState

__all__ = ["open_store", "Store", "RunRecord", "Skipped", "TableSnapshot", "TableState"]


def open_store(url: str, migrate: bool = True) -> Store:
    """The store for a URL: ``mongodb://`` / ``mongodb+srv://`` or any SQLAlchemy URL."""
    if url.startswith(("mongodb://", "mongodb+srv://")):
        raise ConfigError(f"store.url: {mask_secrets(url)}: the MongoDB store is not available yet; "
                          "use a SQLAlchemy URL such as sqlite:///dedup-store.db")
    from .sql import SqlStore

    return SqlStore(url, migrate=migrate)


def migrate_store(url: str) -> str:
    """Apply the store's migrations; returns a one-line account of what was done."""
    if url.startswith(("mongodb://", "mongodb+srv://")):
        open_store(url)  # raises with the reason
    from ..errors import StoreError
    from ..source import first_line
    from .sql import SqlStore
    from .sql_migrate import upgrade

    store = SqlStore(url, migrate=False)
    try:
        before, after = upgrade(store.engine)
    except Exception as e:  # driver errors of any kind
        raise StoreError(f"migrating {mask_secrets(url)} failed: {first_line(e)}") from None
    finally:
        store.close()
    if before == after:
        return f"store {mask_secrets(url)} is up to date (revision {after})"
    return f"store {mask_secrets(url)} migrated from {before or 'empty'} to revision {after}"

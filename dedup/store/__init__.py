"""Stores of fingerprints, blocks and groups, chosen by URL."""

from __future__ import annotations

from ..db.masking import mask_secrets, remember_secrets
from .base import Store
from .model import BlockEntries, GroupChange, RunRecord, iso_utc, Skipped, TableChanges, TableSnapshot, TableState, TermCounts

__all__ = ["open_store", "Store", "iso_utc", "BlockEntries", "GroupChange", "RunRecord", "Skipped", "TableChanges", "TableSnapshot", "TableState",
           "TermCounts"]


def open_store(url: str, migrate: bool = True, bucket_size: int = 50_000, read_only: bool = False) -> Store:
    """The store for a URL: ``mongodb://`` / ``mongodb+srv://`` or any SQLAlchemy URL; ``with
    open_store(url) as store:`` closes it.

    ``read_only`` (for reports): a SQL store is opened without creating, migrating or writing
    anything (a SQLite file read-only); one whose schema needs migrating is refused with that advice.
    """
    remember_secrets(url)
    if _is_mongo(url):
        from .mongo import MongoStore

        return MongoStore(url, migrate=migrate, bucket_size=bucket_size)
    from .sql import SqlStore

    return SqlStore(url, migrate=migrate, read_only=read_only)


def migrate_store(url: str) -> str:
    """Apply the store's migrations; returns a one-line account of what was done."""
    remember_secrets(url)
    if _is_mongo(url):
        return _migrate_mongo(url)
    from ..errors import DedupError, StoreError
    from .sql import SqlStore
    from .sql_migrate import upgrade

    with SqlStore(url, migrate=False) as store:
        try:
            before, after = upgrade(store.engine)
        except DedupError:
            raise
        except Exception as e:  # driver errors of any kind
            raise StoreError(f"migrating {mask_secrets(url)} failed: {store.why(e)}") from None
    if before == after:
        return f"store {mask_secrets(url)} is up to date (revision {after})"
    return f"store {mask_secrets(url)} migrated from {before or 'empty'} to revision {after}"


def _is_mongo(url: str) -> bool:
    return url.startswith(("mongodb://", "mongodb+srv://"))


def _migrate_mongo(url: str) -> str:
    from .mongo import MongoStore

    with MongoStore(url, migrate=False) as store:
        before, after = store.migrate()
    if before == after:
        return f"store {mask_secrets(url)} is up to date (version {after})"
    return f"store {mask_secrets(url)} migrated from {before or 'empty'} to version {after}"

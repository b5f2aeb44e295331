"""The MongoDB store's table lock: one document per table in ``tables`` holds its owner and expiry,
taken with one atomic find_one_and_update (an upsert that fails on a document someone else holds).
A new holder first finishes the changes a cut-short run left (dedup.store.mongo_journal); a renewal
of the lease (dedup.runs.lease) only extends it."""

from __future__ import annotations

from datetime import timedelta

from pymongo.errors import DuplicateKeyError

from ..db.masking import mask_secrets
from ..errors import LockedError, StoreError
from ..clock import now
from .mongo_docs import guarded as _guarded


class MongoLock:
    """Mixed into MongoStore (``db``, ``url``, ``_roll_forward``)."""

    @_guarded
    def acquire_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None = None) -> None:
        """One atomic find_one_and_update; its upsert fails on a document locked by someone else.
        The new holder first finishes the changes a cut-short run left (dedup.store.mongo_journal)."""
        self._take_lock(table, owner, ttl_seconds, steal_from)
        try:
            self._roll_forward(table)
        except BaseException:
            try:
                self.release_lock(table, owner)
            except StoreError:  # the server gone: the lock is left for a takeover, the first error told
                pass
            raise

    def renew_lock(self, table: str, owner: str, ttl_seconds: float) -> None:
        self._take_lock(table, owner, ttl_seconds, None)

    def _take_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None) -> None:
        holders = [owner] if steal_from is None else [owner, steal_from]
        for _attempt in range(3):  # a lock released between the update and the read is tried again
            at = now()
            try:
                self.db.tables.find_one_and_update(
                    {"_id": table, "$or": [{"lock_owner": None}, {"lock_expires": {"$lte": at}},
                                           {"lock_owner": {"$in": holders}}]},
                    {"$set": {"lock_owner": owner, "lock_expires": at + timedelta(seconds=ttl_seconds)}},
                    upsert=True)
                return
            except DuplicateKeyError:
                held = self.db.tables.find_one({"_id": table}) or {}
            holder, expires = held.get("lock_owner"), held.get("lock_expires")
            if holder is not None and (expires is None or expires > at):
                until = f" until {expires:%Y-%m-%d %H:%M:%S} UTC" if expires else ""
                raise LockedError(f"table {table!r} is locked by another run ({holder}){until}; try again later",
                                  owner=holder)
        raise StoreError(f"store {mask_secrets(self.url)}: could not take the lock of table {table!r}")

    @_guarded
    def lock_holder(self, table: str):
        doc = self.db.tables.find_one({"_id": table}, {"lock_owner": 1, "lock_expires": 1})
        if doc is None or doc.get("lock_owner") is None:
            return None
        expires = doc.get("lock_expires")
        return doc["lock_owner"], expires.replace(tzinfo=None) if expires is not None else None

    @_guarded
    def release_lock(self, table: str, owner: str) -> None:
        self.db.tables.update_one({"_id": table, "lock_owner": owner},
                                  {"$set": {"lock_owner": None, "lock_expires": None}})

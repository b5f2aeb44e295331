"""The MongoDB store's staging area: a full run's rows written by many processes, swapped in after.

Executors insert their block documents into ``tmp.<run>.blocks.<table>`` (the collection a local
full run builds aside too) and their fingerprint and skipped documents under the run's staging
name (model.staging_name) in the shared collections. The driver then renames the block
collection over the live one and re-labels the staged documents with the table's name
(update_many: the server does it, nothing passes through the driver) before it writes groups,
history, terms and state, the state last. MongoDB has no transaction across collections: a run
that fails before the swap leaves the previous results whole; one that fails during it is
repaired by running it again, as with replace_table. Mixed into MongoStore.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pymongo import InsertOne
from pymongo.errors import PyMongoError

from ..errors import StoreError
from .model import BlockEntries, Skipped, TableSnapshot, sketch_blobs, staging_name, to_signed
from .mongo_docs import KEYS_CHUNK, blocks_name, chunks, fingerprint_docs, guarded, skipped_doc


def staged_blocks_name(table: str, run_id: int) -> str:
    """The collection run ``run_id`` builds the table's block documents in."""
    return f"tmp.{int(run_id)}.{blocks_name(table)}"


class MongoStaging:
    whole_blocks = True  # a block's entries live in its documents: one task stages all of them

    @guarded
    def begin_staging(self, table: str, run_id: int) -> None:
        ids = [d["_id"] for d in self.db.runs.find(
            {"table": table, "kind": "full", "$or": [{"status": {"$ne": "ok"}}, {"_id": int(run_id)}]}, {"_id": 1})]
        for chunk in chunks([staging_name(table, i) for i in ids], KEYS_CHUNK):
            for coll in (self.db.fingerprints, self.db.skipped):
                coll.delete_many({"table": {"$in": chunk}})
        self._drop_staged_blocks(table)
        self._fresh_blocks(table, run_id)

    @guarded
    def _stage_rows(self, table: str, run_id: int, keys: list[str], fingerprints: np.ndarray, sketches,
                    row_watermarks: list[str | None] | None, skipped: Sequence[Skipped], again: bool) -> None:
        name = staging_name(table, run_id)
        fps = [to_signed(v) for v in fingerprints.tolist()]
        sigs = sketch_blobs(sketches, len(keys))
        if again:  # a retried task: its documents go first, then come again
            for coll, ks in ((self.db.fingerprints, keys), (self.db.skipped, [s.key for s in skipped])):
                for chunk in chunks(list(ks), KEYS_CHUNK):
                    coll.delete_many({"table": name, "key": {"$in": chunk}})
        self._bulk(self.db.fingerprints, ((InsertOne(doc), n) for doc, n in fingerprint_docs(
            name, keys, fps, sigs, row_watermarks)), load=True)
        self._bulk(self.db.skipped, ((InsertOne(skipped_doc(name, s, s.watermark)), 256) for s in skipped))

    @guarded
    def stage_blocks(self, table: str, run_id: int, entries: BlockEntries, again: bool = False) -> None:
        """``entries`` must hold every entry of each block it names (whole_blocks)."""
        tmp = self.db[staged_blocks_name(table, run_id)]
        if again:
            for chunk in chunks(list(dict.fromkeys(entries.names)), KEYS_CHUNK):
                tmp.delete_many({"blockName": {"$in": chunk}})
        self._bulk(tmp, self._block_docs(entries), load=True)

    @guarded
    def _replace_table_staged(self, snap: TableSnapshot) -> None:
        t = snap.table
        name = staging_name(t, snap.run_id)
        if staged_blocks_name(t, snap.run_id) not in self.db.list_collection_names():
            raise StoreError(f"table {t!r}: run {snap.run_id} staged no block collection; nothing was written")
        self._swap_blocks(t, snap.run_id)

        def rows() -> None:
            for coll in (self.db.fingerprints, self.db.skipped):
                coll.delete_many({"table": t})
                coll.update_many({"table": name}, {"$set": {"table": t}})
        self._replace_rest(snap, rows)

    def _fresh_blocks(self, table: str, run_id: int) -> str:
        """An empty collection, sharded like the live one, that run ``run_id`` builds the table's
        block documents in (one of a crashed attempt of the run is dropped first)."""
        tmp = staged_blocks_name(table, run_id)
        self.db.drop_collection(tmp)
        self.db.create_collection(tmp)  # renamed even when no document goes in
        self._shard_like(blocks_name(table), tmp)
        return tmp

    def _shard_like(self, live: str, tmp: str) -> None:
        """A sharded live block collection (its key in ``config.collections``, as a mongos shows
        it): the collection built aside is sharded on the same key before it is filled, so the
        rename over the live one leaves the blocks sharded (migrations/mongo/SHARDING.md)."""
        try:
            info = self.db.client["config"]["collections"].find_one({"_id": f"{self.db.name}.{live}"})
        except PyMongoError:  # no config database to read: not a sharded cluster
            return
        if info and info.get("key") and not info.get("dropped"):
            self.db.client.admin.command("shardCollection", f"{self.db.name}.{tmp}", key=dict(info["key"]))

    def _drop_staged_blocks(self, table: str) -> None:
        """Drop the block collections runs built aside for the table and never swapped in."""
        live = blocks_name(table)
        for name in self.db.list_collection_names():
            if name.startswith("tmp.") and name.split(".", 2)[-1] == live:
                self.db.drop_collection(name)

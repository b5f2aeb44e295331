"""The MongoDB store: the paper's block documents, one collection per table, beside the rest.

``blocks.<table>`` holds ``{blockName, seq, count, bytes, info: [{hashcode, textname}]}``; a hot
block overflows into continuation documents (seq 1, 2, ...) so none nears BSON's 16 MB.
``fingerprints`` holds ``{table, key, fp, sig?}`` (sig: the sketch words as little-endian uint64
bytes, any number; documents written before schema version 3 may hold ``sketch: [w1, w2, w3]``
instead, which is read as well) and ``terms`` a full run's
``{table, h, n}`` (term hash, document count); 64-bit values are Int64 with the same bits. There
is no transaction across collections, so every write is idempotent instead: an interrupted full
run is repaired by running it again; an incremental run's changes are journalled before they are
applied, and the next holder of the table's lock applies them again (dedup.store.mongo_journal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from bson.int64 import Int64
from pymongo import InsertOne, MongoClient, ReplaceOne, ReturnDocument
from pymongo.errors import ConfigurationError, DuplicateKeyError

from ..clock import now
from ..db.masking import mask_secrets
from ..errors import ConfigError, StoreError
from ..index.groups import Group
from . import mongo_migrate
from .base import StoreBase
from .gathered import GatheredRows
from .model import (GroupChange, RunRecord, Skipped, TableChanges, TableSnapshot, TableState, checked_sketches, checked_terms,
                    signed_hashes, sketch_blobs, to_signed, to_unsigned, unique)
from .mongo_blocks import NAMES_CHUNK, BlockDocuments
from .mongo_actions import MongoActions
from .mongo_decisions import MongoDecisions
from .mongo_journal import MongoJournal
from .mongo_lock import MongoLock
from .mongo_staging import MongoStaging, staged_blocks_name
from .mongo_docs import (KEYS_CHUNK, blocks_name, change_doc, chunks, client_options, database_name, describe, fingerprint_docs,
                         group_doc, guarded as _guarded,
                         group_of, plain, sketch_of, skipped_doc, utc)

TERMS_CHUNK = 1000  # term hashes per find({"h": {"$in": ...}})


class MongoStore(BlockDocuments, MongoActions, MongoDecisions, MongoJournal, MongoLock, MongoStaging, StoreBase):
    def __init__(self, url: str, migrate: bool = True, bucket_size: int = 50_000, client=None):
        self.url = url
        if int(bucket_size) < 1:
            raise ConfigError("store.bucket_size: must be 1 or more")
        self.bucket_size = int(bucket_size)
        name = database_name(url)
        self._owns_client = client is None
        if client is None:
            try:
                client = MongoClient(url, **client_options(url))
            except (ConfigurationError, ValueError, TypeError) as e:
                raise ConfigError(f"store.url: cannot use {mask_secrets(url)}: {describe(e)}") from None
        self.client = client
        self.db = client[name]
        self._indexed: set[str] = set()
        try:
            self._open(migrate)
        except BaseException:
            self.close()
            raise

    @_guarded
    def _open(self, migrate: bool) -> None:
        self.db.command("ping")  # fail now, not half way through a run
        if migrate:
            mongo_migrate.ensure_schema(self.db)

    @_guarded
    def migrate(self) -> tuple[int | None, int]:
        """Apply the steps this database lacks; returns (version before, version after)."""
        return mongo_migrate.upgrade(self.db)

    def close(self) -> None:
        if self._owns_client:
            self.client.close()

    # -- runs and locks ------------------------------------------------------------------------
    @_guarded
    def start_run(self, run: RunRecord) -> int:
        run.id = self._next_run_id()
        self.db.runs.insert_one({
            "_id": run.id, "table": run.table, "kind": run.kind, "started_at": utc(run.started_at),
            "finished_at": utc(run.finished_at), "status": run.status, "summary": plain(run.summary)})
        return run.id

    def _next_run_id(self) -> int:
        """The run-id counter's next value; two first runs at once both upsert it: the one that lost
        gets DuplicateKeyError (MongoDB before 4.2) or no document (SecantusDB), and tries again."""
        for _ in range(5):
            try:
                counter = self.db[mongo_migrate.META].find_one_and_update(
                    {"_id": "run_id"}, {"$inc": {"value": 1}}, upsert=True, return_document=ReturnDocument.AFTER)
            except DuplicateKeyError:
                continue
            if counter is not None:
                return int(counter["value"])
        raise StoreError("could not number a new run: the run-id counter kept changing under concurrent runs")

    @_guarded
    def finish_run(self, run_id: int, status: str, summary: dict) -> None:
        self.db.runs.update_one({"_id": int(run_id)}, {"$set": {
            "finished_at": now(), "status": status, "summary": plain(summary)}})

    @_guarded
    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        docs = self.db.runs.find({"table": table}).sort("_id", -1).limit(int(limit))
        return [RunRecord(table, d["kind"], d["started_at"], d.get("finished_at"), d["status"],
                          d.get("summary") or {}, int(d["_id"])) for d in docs]

    # -- reads ---------------------------------------------------------------------------------
    @_guarded
    def state(self, table: str) -> TableState | None:
        doc = self.db.tables.find_one({"_id": table})
        if doc is None or doc.get("version") is None:
            return None
        return TableState(table, doc["version"], doc.get("watermark"), doc.get("updated_at"))

    @_guarded
    def fingerprints(self, table: str, keys: list[str] | None = None) -> dict[str, int]:
        projection = {"_id": 0, "key": 1, "fp": 1}
        if keys is None:
            docs = self.db.fingerprints.find({"table": table}, projection)
            return {d["key"]: to_unsigned(d["fp"]) for d in docs}
        out: dict[str, int] = {}
        for chunk in chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            for d in self.db.fingerprints.find({"table": table, "key": {"$in": chunk}}, projection):
                out[d["key"]] = to_unsigned(d["fp"])
        return out

    @_guarded
    def row_watermarks(self, table: str, keys: list[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        wanted = list(dict.fromkeys(keys))
        for coll in (self.db.skipped, self.db.fingerprints):  # a key in both (never, but) counts as fingerprinted
            for chunk in chunks(wanted, KEYS_CHUNK):
                for d in coll.find({"table": table, "key": {"$in": chunk}}, {"_id": 0, "key": 1, "wm": 1}):
                    out[d["key"]] = d.get("wm")
        return out

    @_guarded
    def keys(self, table: str) -> set[str]:
        out: set[str] = set()
        for coll in (self.db.fingerprints, self.db.skipped):
            out.update(d["key"] for d in coll.find({"table": table}, {"_id": 0, "key": 1}))
        return out

    @_guarded
    def count_keys(self, table: str) -> int:
        return sum(coll.count_documents({"table": table}) for coll in (self.db.fingerprints, self.db.skipped))

    @_guarded
    def sketches(self, table: str, keys: list[str]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for chunk in chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            # rows without a sketch are told apart here: an $or of $exists beside the $in made
            # SecantusDB scan the whole collection instead of the (table, key) index
            for d in self.db.fingerprints.find({"table": table, "key": {"$in": chunk}},
                                               {"_id": 0, "key": 1, "sig": 1, "sketch": 1}):
                words = sketch_of(d)
                if words is not None:
                    out[d["key"]] = words
        return out

    @_guarded
    def term_counts(self, table: str, hashes: Sequence[int] | np.ndarray) -> dict[int, int]:
        out: dict[int, int] = {}
        for chunk in chunks(signed_hashes(hashes), TERMS_CHUNK):
            for d in self.db.terms.find({"table": table, "h": {"$in": [Int64(h) for h in chunk]}},
                                        {"_id": 0, "h": 1, "n": 1}):
                out[to_unsigned(d["h"])] = int(d["n"])
        return out

    @_guarded
    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        blocks = self.db[blocks_name(table)]
        names = list(dict.fromkeys(block_names))
        version = self._blocks_version(table)  # before the documents: see BlockDocuments._read_blocks
        docs: list[dict] = []
        for chunk in chunks(names, NAMES_CHUNK):
            docs.extend(blocks.find({"blockName": {"$in": chunk}},
                                    {"blockName": 1, "seq": 1, "count": 1, "bytes": 1, "info": 1}))
        self._remember_blocks(table, version, names, docs)
        out: dict[str, list[tuple[int, str]]] = {}
        for d in sorted(docs, key=lambda d: (d["blockName"], d["seq"])):
            if d["info"]:
                out.setdefault(d["blockName"], []).extend(
                    (to_unsigned(e["hashcode"]), e["textname"]) for e in d["info"])
        return out

    @_guarded
    def groups(self, table: str, ids: list[int] | None = None) -> list[Group]:
        if ids is None:
            docs = list(self.db.groups.find({"table": table}))
        else:
            docs = []
            for chunk in chunks(sorted({int(i) for i in ids}), KEYS_CHUNK):
                docs.extend(self.db.groups.find({"table": table, "group_id": {"$in": chunk}}))
        return [group_of(d) for d in sorted(docs, key=lambda d: d["group_id"])]

    @_guarded
    def group_ids_of(self, table: str, keys: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for chunk in chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            wanted = set(chunk)
            for d in self.db.groups.find({"table": table, "members.key": {"$in": chunk}},
                                         {"_id": 0, "group_id": 1, "members.key": 1}):
                out.update((m["key"], int(d["group_id"])) for m in d["members"] if m["key"] in wanted)
        return out

    @_guarded
    def _group_id_tops(self, table: str) -> tuple[int | None, int | None]:
        doc = self.db.tables.find_one({"_id": table}, {"max_group_id": 1}) or {}
        top = self.db.groups.find_one({"table": table}, {"group_id": 1}, sort=[("group_id", -1)]) or {}
        return doc.get("max_group_id"), top.get("group_id")

    @_guarded
    def run_changes(self, table: str, run_id: int) -> list[GroupChange]:
        docs = self.db.run_changes.find({"table": table, "run": int(run_id)}, {"_id": 0}).sort("group", 1)
        return [GroupChange.of(d["group"], d["kinds"], d) for d in docs]

    @_guarded
    def _skipped_rows(self, table: str) -> list[Skipped]:
        docs = self.db.skipped.find({"table": table}, {"_id": 0, "key": 1, "reason": 1, "detail": 1})
        return [Skipped(d["key"], d["reason"], d.get("detail") or "") for d in docs]

    # -- writes --------------------------------------------------------------------------------
    @_guarded
    def _replace_table(self, snap: TableSnapshot, sketches: np.ndarray | GatheredRows | None, later=None) -> None:
        """New blocks are built aside and renamed over the live collection; the rest is replaced after.
        ``later`` is asked at once: with no transaction, the groups are checked before any write."""
        if later is not None:
            snap = replace(snap, **later())
            unique(snap.table, "group id", [g.id for g in snap.groups])
        t, keys = snap.table, list(snap.keys)
        fps = np.asarray(snap.fingerprints, dtype=np.uint64)
        tmp = self._fresh_blocks(t, snap.run_id)
        # whole block documents, loaded with no index but _id's; the indexes are built once, after
        # the rename (which, on a server that copies a renamed collection, need not move them)
        self._bulk(self.db[tmp], self._block_docs(snap.blocks), load=True)
        self._swap_blocks(t, snap.run_id)

        def rows() -> None:
            self.db.fingerprints.delete_many({"table": t})
            self._bulk(self.db.fingerprints, ((InsertOne(doc), n) for doc, n in fingerprint_docs(
                t, keys, fps.view(np.int64).tolist(), sketch_blobs(sketches, len(keys)), snap.row_watermarks)), load=True)
            self.db.skipped.delete_many({"table": t})
        self._replace_rest(snap, rows)

    def _swap_blocks(self, table: str, run_id: int) -> None:
        """The run's block collection renamed over the live one, indexed, and those of crashed
        attempts of other runs dropped."""
        live = blocks_name(table)
        self._new_blocks_version(table)  # before the live blocks change (dedup.store.mongo_blocks)
        self.db[staged_blocks_name(table, run_id)].rename(live, dropTarget=True)
        self._indexed.discard(live)
        self._blocks(table)
        self._drop_staged_blocks(table)  # crashed attempts of other runs

    def _replace_rest(self, snap: TableSnapshot, rows) -> None:
        """After the blocks: the rows (``rows()``: the fingerprints in place, the old skipped rows
        gone), groups, the run's history, the snapshot's skipped rows, terms, and the state last."""
        t = snap.table
        term_hashes, term_counts = checked_terms(t, snap.terms)
        rows()
        # groups by id, and only then the ids that are no more: a store interrupted here still holds
        # every group by its id for the next full run to match (dedup.runs.lineage)
        before = set(self.db.groups.distinct("group_id", {"table": t}))
        self._bulk(self.db.groups, (
            (ReplaceOne({"table": t, "group_id": int(g.id)}, group_doc(t, g, snap.run_id), upsert=True), 64 * g.size)
            for g in snap.groups if int(g.id) in before))
        self._bulk(self.db.groups, ((group_doc(t, g, snap.run_id), 64 * g.size) for g in snap.groups
                                    if int(g.id) not in before), replace_on=("table", "group_id"))
        stale = sorted(before - {int(g.id) for g in snap.groups})
        for chunk in chunks(stale, KEYS_CHUNK):
            self.db.groups.delete_many({"table": t, "group_id": {"$in": chunk}})
        self._add_changes(t, snap.run_id, snap.changes)
        self._bulk(self.db.skipped, ((InsertOne(skipped_doc(t, s, s.watermark)), 256) for s in snap.skipped))
        self.db.terms.delete_many({"table": t})
        self._bulk(self.db.terms, (
            (InsertOne({"table": t, "h": Int64(h), "n": n}), 48)
            for h, n in zip(term_hashes.view(np.int64).tolist(), term_counts.tolist())))
        self._set_state(t, snap.version, snap.watermark, snap.groups)

    @_guarded
    def _apply_changes(self, ch: TableChanges, _sketches) -> None:
        """The steps of TableChanges in order, each safe to repeat, kept in the journal until all are done."""
        t = ch.table
        self._roll_forward(t)  # a cut-short run's changes (none: its lock's taker finished them)
        self._journal(ch)
        self._apply(ch)
        self._close_journal(t, ch.run_id)

    def _apply(self, ch: TableChanges) -> None:
        t = ch.table
        fps = [int(v) for v in ch.add_fingerprints]
        sigs = sketch_blobs(checked_sketches(t, len(fps), ch.add_sketches), len(fps))
        blocks = self._blocks(t)
        # 1. removed rows (and rows about to be added or skipped, so that a repeat never doubles them)
        gone = list(dict.fromkeys([*ch.remove_keys, *ch.add_keys, *(s.key for s in ch.skipped)]))
        for chunk in chunks(gone, KEYS_CHUNK):
            self.db.fingerprints.delete_many({"table": t, "key": {"$in": chunk}})
            self.db.skipped.delete_many({"table": t, "key": {"$in": chunk}})
        # the old entries go, and the new ones too, should a repeat find them already there
        added = ch.add_blocks.by_name()  # block name -> [(key, signed fp)]
        pull: dict[str, set[str]] = {}
        for name, key in [*zip(ch.remove_blocks.names, ch.remove_blocks.keys), *zip(ch.add_blocks.names, ch.add_blocks.keys)]:
            pull.setdefault(name, set()).add(key)
        pulls, pushes = self._block_writes(blocks, t, pull, added)
        self._new_blocks_version(t)  # before the first write to the blocks
        self._bulk(blocks, iter(pulls))
        # 2. added entries; the added rows' documents are written with their watermarks, below
        self._bulk(blocks, iter(pushes))
        # 4. groups (3., the skipped rows, below too)
        for chunk in chunks(sorted({int(i) for i in ch.delete_groups}), KEYS_CHUNK):
            self.db.groups.delete_many({"table": t, "group_id": {"$in": chunk}})
        self._bulk(self.db.groups, ((group_doc(t, g, ch.run_id), 64 * g.size) for g in ch.upsert_groups),
                   replace_on=("table", "group_id"))
        # 5. the run's history
        self._add_changes(t, ch.run_id, ch.changes)
        # 2. and 3.: the added and skipped rows' documents, whole (a row added again without a sketch
        # keeps no old one), each written once with the row's watermark, after its groups: a
        # cut-short run's rows have no document, or an old one, so they look changed to the next run
        self._bulk(self.db.fingerprints, fingerprint_docs(t, ch.add_keys, [to_signed(fp) for fp in fps], sigs,
                                                          ch.add_row_watermarks), replace_on=("table", "key"))
        self._bulk(self.db.skipped, ((skipped_doc(t, s, s.watermark), 256) for s in ch.skipped),
                   replace_on=("table", "key"))
        # 6. state, last
        self._set_state(t, ch.version, ch.watermark, ch.upsert_groups)

    # -- helpers -------------------------------------------------------------------------------
    def _add_changes(self, table: str, run_id: int, changes: list[GroupChange]) -> None:
        """The run's history, a document per (run, group id), each replaced if written before."""
        self._bulk(self.db.run_changes, (
            (change_doc(table, run_id, c), 128 + 16 * (len(c.added) + len(c.removed))) for c in changes),
            replace_on=("table", "run", "group"))

    def _blocks(self, table: str):
        name = blocks_name(table)
        if name not in self._indexed:
            mongo_migrate.steps_module().block_indexes(self.db[name])
            self._indexed.add(name)
        return self.db[name]

    def _set_state(self, table: str, version: dict, watermark: dict | None, groups: list[Group]) -> None:
        """Version, watermark and the largest group id; the lock fields are left alone."""
        top = max((int(g.id) for g in groups), default=0)
        self.db.tables.update_one({"_id": table}, {
            "$set": {"version": plain(version), "watermark": plain(watermark), "updated_at": now()},
            "$max": {"max_group_id": top}}, upsert=True)


"""The MongoDB store: the paper's block documents, one collection per table, beside the rest.

``blocks.<table>`` holds ``{blockName, seq, count, bytes, info: [{hashcode, textname}]}``; a hot
block overflows into continuation documents (seq 1, 2, ...) so none nears BSON's 16 MB.
``fingerprints`` holds ``{table, key, fp, sketch?: [w1, w2, w3]}`` and ``terms`` a full run's
``{table, h, n}`` (term hash, document count); 64-bit values are Int64 with the same bits. There
is no transaction across collections, so every write is idempotent instead: an interrupted full
run is repaired by running it again, an interrupted incremental one by applying its changes again.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import re
from collections import defaultdict
from collections.abc import Sequence
from urllib.parse import unquote, urlsplit

import numpy as np
from bson.errors import BSONError
from bson.int64 import Int64
from pymongo import DeleteOne, InsertOne, MongoClient, ReplaceOne, ReturnDocument, UpdateOne
from pymongo.errors import ConfigurationError, DuplicateKeyError, PyMongoError

from ..blocks import BlockLayout, layout_of
from ..errors import ConfigError, LockedError, StoreError
from ..fingerprint import to_signed, to_unsigned
from ..groups import Group, Pair
from ..masking import mask_secrets
from ..normalize import key_sort
from . import mongo_migrate
from .model import (RunRecord, Skipped, TableChanges, TableSnapshot, TableState, checked_sketches, checked_terms,
                    signed_hashes)

NAMES_CHUNK = 1000  # block names per find({"blockName": {"$in": ...}})
KEYS_CHUNK = 5000  # row keys or group ids per $in
TERMS_CHUNK = 5000  # term hashes per find({"h": {"$in": ...}})
OPS_CHUNK = 1000  # operations per bulk_write
MAX_BUCKET_BYTES = 8 << 20  # a block document is full at this size whatever bucket_size says
_BULK_BYTES = 32 << 20  # estimated bytes of pending operations that trigger a bulk_write
_ENTRY_BYTES = 48  # BSON size of one info entry besides its key's UTF-8 bytes
DEFAULT_TIMEOUT_MS = 5000


def _guarded(fn):
    """Driver errors become one-line StoreErrors with the URL's password masked."""
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except (PyMongoError, BSONError, OverflowError) as e:
            raise StoreError(f"store {mask_secrets(self.url)}: {describe(e)}") from None
    return wrapper


class MongoStore:
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
        counter = self.db[mongo_migrate.META].find_one_and_update(
            {"_id": "run_id"}, {"$inc": {"value": 1}}, upsert=True, return_document=ReturnDocument.AFTER)
        run.id = int(counter["value"])
        self.db.runs.insert_one({
            "_id": run.id, "table": run.table, "kind": run.kind, "started_at": _utc(run.started_at),
            "finished_at": _utc(run.finished_at), "status": run.status, "summary": _plain(run.summary)})
        return run.id

    @_guarded
    def finish_run(self, run_id: int, status: str, summary: dict) -> None:
        self.db.runs.update_one({"_id": int(run_id)}, {"$set": {
            "finished_at": _now(), "status": status, "summary": _plain(summary)}})

    @_guarded
    def runs(self, table: str, limit: int = 20) -> list[RunRecord]:
        docs = self.db.runs.find({"table": table}).sort("_id", -1).limit(int(limit))
        return [RunRecord(table, d["kind"], d["started_at"], d.get("finished_at"), d["status"],
                          d.get("summary") or {}, int(d["_id"])) for d in docs]

    @_guarded
    def acquire_lock(self, table: str, owner: str, ttl_seconds: float, steal_from: str | None = None) -> None:
        """One atomic find_one_and_update; its upsert fails on a document locked by someone else."""
        holders = [owner] if steal_from is None else [owner, steal_from]
        for _attempt in range(3):  # a lock released between the update and the read is tried again
            now = _now()
            try:
                self.db.tables.find_one_and_update(
                    {"_id": table, "$or": [{"lock_owner": None}, {"lock_expires": {"$lte": now}},
                                           {"lock_owner": {"$in": holders}}]},
                    {"$set": {"lock_owner": owner, "lock_expires": now + _dt.timedelta(seconds=ttl_seconds)}},
                    upsert=True)
                return
            except DuplicateKeyError:
                held = self.db.tables.find_one({"_id": table}) or {}
            holder, expires = held.get("lock_owner"), held.get("lock_expires")
            if holder is not None and (expires is None or expires > now):
                until = f" until {expires:%Y-%m-%d %H:%M:%S} UTC" if expires else ""
                raise LockedError(f"table {table!r} is locked by another run ({holder}){until}; try again later",
                                  owner=holder)
        raise StoreError(f"store {mask_secrets(self.url)}: could not take the lock of table {table!r}")

    @_guarded
    def release_lock(self, table: str, owner: str) -> None:
        self.db.tables.update_one({"_id": table, "lock_owner": owner},
                                  {"$set": {"lock_owner": None, "lock_expires": None}})

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
        for chunk in _chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            for d in self.db.fingerprints.find({"table": table, "key": {"$in": chunk}}, projection):
                out[d["key"]] = to_unsigned(d["fp"])
        return out

    @_guarded
    def sketches(self, table: str, keys: list[str]) -> dict[str, tuple[int, int, int]]:
        out: dict[str, tuple[int, int, int]] = {}
        for chunk in _chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            for d in self.db.fingerprints.find({"table": table, "key": {"$in": chunk}, "sketch": {"$exists": True}},
                                               {"_id": 0, "key": 1, "sketch": 1}):
                if d.get("sketch"):
                    a, b, c = d["sketch"]
                    out[d["key"]] = (to_unsigned(a), to_unsigned(b), to_unsigned(c))
        return out

    @_guarded
    def term_counts(self, table: str, hashes: Sequence[int] | np.ndarray) -> dict[int, int]:
        out: dict[int, int] = {}
        for chunk in _chunks(signed_hashes(hashes), TERMS_CHUNK):
            for d in self.db.terms.find({"table": table, "h": {"$in": [Int64(h) for h in chunk]}},
                                        {"_id": 0, "h": 1, "n": 1}):
                out[to_unsigned(d["h"])] = int(d["n"])
        return out

    @_guarded
    def block_entries(self, table: str, block_names: list[str]) -> dict[str, list[tuple[int, str]]]:
        blocks = self.db[_blocks_name(table)]
        docs: list[dict] = []
        for chunk in _chunks(list(dict.fromkeys(block_names)), NAMES_CHUNK):
            docs.extend(blocks.find({"blockName": {"$in": chunk}}, {"_id": 0, "blockName": 1, "seq": 1, "info": 1}))
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
            for chunk in _chunks(sorted({int(i) for i in ids}), KEYS_CHUNK):
                docs.extend(self.db.groups.find({"table": table, "group_id": {"$in": chunk}}))
        return [_group_of(d) for d in sorted(docs, key=lambda d: d["group_id"])]

    @_guarded
    def group_ids_of(self, table: str, keys: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for chunk in _chunks(list(dict.fromkeys(keys)), KEYS_CHUNK):
            wanted = set(chunk)
            for d in self.db.groups.find({"table": table, "members.key": {"$in": chunk}},
                                         {"_id": 0, "group_id": 1, "members.key": 1}):
                out.update((m["key"], int(d["group_id"])) for m in d["members"] if m["key"] in wanted)
        return out

    @_guarded
    def max_group_id(self, table: str) -> int:
        doc = self.db.tables.find_one({"_id": table}, {"max_group_id": 1}) or {}
        top = self.db.groups.find_one({"table": table}, {"group_id": 1}, sort=[("group_id", -1)]) or {}
        return max(int(doc.get("max_group_id") or 0), int(top.get("group_id") or 0))

    @_guarded
    def skipped(self, table: str) -> list[Skipped]:
        docs = self.db.skipped.find({"table": table}, {"_id": 0, "key": 1, "reason": 1, "detail": 1})
        return sorted((Skipped(d["key"], d["reason"], d.get("detail") or "") for d in docs),
                      key=lambda s: key_sort(s.key))

    # -- writes --------------------------------------------------------------------------------
    @_guarded
    def replace_table(self, snap: TableSnapshot) -> None:
        """New blocks are built aside and renamed over the live collection; the rest is replaced after."""
        t, keys = snap.table, list(snap.keys)
        fps = np.asarray(snap.fingerprints, dtype=np.uint64)
        if len(keys) != len(fps):
            raise StoreError(f"table {t!r}: {len(keys)} keys but {len(fps)} fingerprints")
        _unique(t, "row key", keys)
        _unique(t, "skipped row key", [s.key for s in snap.skipped])
        _unique(t, "group id", [g.id for g in snap.groups])
        sketches = checked_sketches(t, len(keys), snap.sketches)
        term_hashes, term_counts = checked_terms(t, snap.terms)
        layout = layout_of(snap.version)
        live = _blocks_name(t)
        tmp = f"tmp.{snap.run_id}.{live}"
        self.db.drop_collection(tmp)  # a crashed attempt of this run
        mongo_migrate.steps_module().block_indexes(self.db[tmp])
        self._bulk(self.db[tmp], self._block_docs(layout, keys, fps))
        self.db[tmp].rename(live, dropTarget=True)
        self._indexed.add(live)
        for name in self.db.list_collection_names():  # crashed attempts of other runs
            if name.startswith("tmp.") and name.split(".", 2)[-1] == live:
                self.db.drop_collection(name)

        signed = fps.view(np.int64).tolist()
        words = sketches.view(np.int64).tolist() if sketches is not None else [None] * len(keys)
        self.db.fingerprints.delete_many({"table": t})
        self._bulk(self.db.fingerprints, (
            (InsertOne(_fingerprint_doc(t, k, s, w)), 96) for k, s, w in zip(keys, signed, words)))
        self.db.groups.delete_many({"table": t})
        self._bulk(self.db.groups, ((InsertOne(_group_doc(t, g, snap.run_id)), 64 * g.size) for g in snap.groups))
        self.db.skipped.delete_many({"table": t})
        self._bulk(self.db.skipped, ((InsertOne(_skipped_doc(t, s)), 256) for s in snap.skipped))
        self.db.terms.delete_many({"table": t})
        self._bulk(self.db.terms, (
            (InsertOne({"table": t, "h": Int64(h), "n": n}), 48)
            for h, n in zip(term_hashes.view(np.int64).tolist(), term_counts.tolist())))
        self._set_state(t, snap.version, snap.watermark, snap.groups)

    @_guarded
    def apply_changes(self, ch: TableChanges) -> None:
        """The steps of TableChanges in order, each safe to repeat."""
        t = ch.table
        fps = [int(v) for v in ch.add_fingerprints]
        if len(ch.add_keys) != len(fps):
            raise StoreError(f"table {t!r}: {len(ch.add_keys)} keys but {len(fps)} fingerprints to add")
        _unique(t, "added row key", ch.add_keys)
        sketches = checked_sketches(t, len(fps), ch.add_sketches)
        words = sketches.view(np.int64).tolist() if sketches is not None else [None] * len(fps)
        layout = layout_of(ch.version)
        blocks = self._blocks(t)
        # 1. removed rows (and rows about to be added or skipped, so that a repeat never doubles them)
        gone = list(dict.fromkeys([*ch.remove_keys, *ch.add_keys, *(s.key for s in ch.skipped)]))
        for chunk in _chunks(gone, KEYS_CHUNK):
            self.db.fingerprints.delete_many({"table": t, "key": {"$in": chunk}})
            self.db.skipped.delete_many({"table": t, "key": {"$in": chunk}})
        added: dict[str, list[tuple[str, int]]] = defaultdict(list)  # block name -> [(key, signed fp)]
        for k, fp, names in zip(ch.add_keys, fps, layout.names_of(np.asarray(fps, dtype=np.uint64))):
            for name in names:
                added[name].append((k, to_signed(fp)))
        # a row's old entries are in remove_block_names; an added row's entries only in its new blocks
        base = set(ch.remove_keys) | {s.key for s in ch.skipped}
        pull = {name: base for name in ch.remove_block_names}
        for name, entries in added.items():
            pull[name] = base | {k for k, _ in entries}
        self._pull(blocks, pull)
        # 2. added rows (whole documents: a row added again without a sketch keeps no old one)
        self._bulk(self.db.fingerprints, (
            (ReplaceOne({"table": t, "key": k}, _fingerprint_doc(t, k, to_signed(fp), w), upsert=True), 96)
            for k, fp, w in zip(ch.add_keys, fps, words)))
        self._push(blocks, added)
        # 3. skipped rows
        self._bulk(self.db.skipped, (
            (ReplaceOne({"table": t, "key": s.key}, _skipped_doc(t, s), upsert=True), 256) for s in ch.skipped))
        # 4. groups
        for chunk in _chunks(sorted({int(i) for i in ch.delete_groups}), KEYS_CHUNK):
            self.db.groups.delete_many({"table": t, "group_id": {"$in": chunk}})
        self._bulk(self.db.groups, (
            (ReplaceOne({"table": t, "group_id": int(g.id)}, _group_doc(t, g, ch.run_id), upsert=True), 64 * g.size)
            for g in ch.upsert_groups))
        # 5. state, last
        self._set_state(t, ch.version, ch.watermark, ch.upsert_groups)

    # -- helpers -------------------------------------------------------------------------------
    def _blocks(self, table: str):
        name = _blocks_name(table)
        if name not in self._indexed:
            mongo_migrate.steps_module().block_indexes(self.db[name])
            self._indexed.add(name)
        return self.db[name]

    def _set_state(self, table: str, version: dict, watermark: dict | None, groups: list[Group]) -> None:
        """Version, watermark and the largest group id; the lock fields are left alone."""
        top = max((int(g.id) for g in groups), default=0)
        self.db.tables.update_one({"_id": table}, {
            "$set": {"version": _plain(version), "watermark": _plain(watermark), "updated_at": _now()},
            "$max": {"max_group_id": top}}, upsert=True)

    def _bulk(self, coll, ops) -> None:
        """bulk_write ``(operation, estimated bytes)`` pairs, unordered, in bounded chunks."""
        pending: list = []
        size = 0
        for op, nbytes in ops:
            pending.append(op)
            size += nbytes
            if len(pending) >= OPS_CHUNK or size >= _BULK_BYTES:
                coll.bulk_write(pending, ordered=False)
                pending, size = [], 0
        if pending:
            coll.bulk_write(pending, ordered=False)

    def _bucket_docs(self, name: str, seq: int, entries: list[tuple[dict, int]]):
        """Insert operations holding ``entries`` in documents seq, seq+1, ... none over the caps."""
        start = 0
        while start < len(entries):
            end, nbytes = start, 0
            while end < len(entries) and end - start < self.bucket_size and (
                    end == start or nbytes + entries[end][1] <= MAX_BUCKET_BYTES):
                nbytes += entries[end][1]
                end += 1
            doc = {"blockName": name, "seq": seq, "count": end - start, "bytes": nbytes,
                   "info": [e for e, _ in entries[start:end]]}
            yield InsertOne(doc), nbytes
            seq, start = seq + 1, end

    def _block_docs(self, layout: BlockLayout, keys: list[str], fps: np.ndarray):
        """Every block of a full run, built by sorting block values (no per-row queries)."""
        signed = fps.view(np.int64).tolist()
        values = layout.values(fps)
        sizes = [_ENTRY_BYTES + len(k.encode("utf-8")) for k in keys]
        for t in range(len(layout.tables)):
            col = values[:, t]
            order = np.argsort(col, kind="stable")
            ordered = col[order]
            bounds = np.flatnonzero(np.diff(ordered)) + 1
            starts, ends = np.concatenate(([0], bounds)), np.concatenate((bounds, [len(ordered)]))
            for s, e in zip(starts.tolist(), ends.tolist()):
                if s == e or not layout.indexed(int(ordered[s])):
                    continue
                name = layout.table_name(t, int(ordered[s]))
                rows = order[s:e].tolist()
                yield from self._bucket_docs(name, 0, [
                    ({"hashcode": Int64(signed[i]), "textname": keys[i]}, sizes[i]) for i in rows])

    def _pull(self, blocks, pull: dict[str, set[str]]) -> None:
        """Take the keys out of the named blocks, keeping each document's count and bytes exact."""
        names = list(pull)
        for chunk in _chunks(names, NAMES_CHUNK):
            keys = sorted(set().union(*(pull[n] for n in chunk)))
            if not keys:
                continue
            ops = []
            for doc in blocks.find({"blockName": {"$in": chunk}, "info.textname": {"$in": keys}},
                                   {"blockName": 1, "info.textname": 1}):
                wanted = pull[doc["blockName"]]
                drop = [e["textname"] for e in doc["info"] if e["textname"] in wanted]
                if not drop:
                    continue
                if len(drop) == len(doc["info"]):
                    ops.append((DeleteOne({"_id": doc["_id"]}), 0))
                else:
                    freed = sum(_ENTRY_BYTES + len(k.encode("utf-8")) for k in drop)
                    ops.append((UpdateOne({"_id": doc["_id"]}, {
                        "$pull": {"info": {"textname": {"$in": sorted(set(drop))}}},
                        "$inc": {"count": -len(drop), "bytes": -freed}}), 0))
            self._bulk(blocks, ops)

    def _push(self, blocks, added: dict[str, list[tuple[str, int]]]) -> None:
        """Append entries to the last document of each block while it has room, then new documents."""
        for chunk in _chunks(list(added), NAMES_CHUNK):
            last: dict[str, dict] = {}
            for doc in blocks.find({"blockName": {"$in": chunk}}, {"blockName": 1, "seq": 1, "count": 1, "bytes": 1}):
                if doc["blockName"] not in last or doc["seq"] > last[doc["blockName"]]["seq"]:
                    last[doc["blockName"]] = doc
            ops = []
            for name in chunk:
                entries = [({"hashcode": Int64(s), "textname": k}, _ENTRY_BYTES + len(k.encode("utf-8")))
                           for k, s in added[name]]
                doc, seq = last.get(name), 0
                if doc is not None:
                    seq = doc["seq"] + 1
                    count, nbytes, n = doc.get("count", 0), doc.get("bytes", 0), 0
                    while n < len(entries) and count + n < self.bucket_size and (
                            nbytes + entries[n][1] <= MAX_BUCKET_BYTES):
                        nbytes += entries[n][1]
                        n += 1
                    if n:
                        ops.append((UpdateOne({"_id": doc["_id"]}, {
                            "$push": {"info": {"$each": [e for e, _ in entries[:n]]}},
                            "$inc": {"count": n, "bytes": nbytes - doc.get("bytes", 0)}}), nbytes))
                        entries = entries[n:]
                ops.extend(self._bucket_docs(name, seq, entries))
            self._bulk(blocks, ops)


def database_name(url: str) -> str:
    try:
        path = unquote(urlsplit(url).path.lstrip("/"))
    except ValueError as e:
        raise ConfigError(f"store.url: cannot use {mask_secrets(url)}: {e}") from None
    if not path:
        raise StoreError(f"store {mask_secrets(url)}: name a database in the URL, e.g. mongodb://host:27017/dedup")
    return path


def client_options(url: str) -> dict:
    """A short server-selection timeout, so a server that is down fails the run at once."""
    if re.search(r"[?&]serverSelectionTimeoutMS=", url, re.IGNORECASE):
        return {"appname": "dedup"}
    return {"appname": "dedup", "serverSelectionTimeoutMS": DEFAULT_TIMEOUT_MS}


def describe(e: BaseException) -> str:
    """The driver's message on one line, without the topology dump, secrets masked."""
    text = " ".join(str(e).split()) or type(e).__name__
    for cut in (", Timeout: ", ", full error: ", " (configured timeouts"):
        text = text.split(cut)[0]
    return mask_secrets(text[:500])


def _blocks_name(table: str) -> str:
    if not table or "$" in table or "\x00" in table:
        raise StoreError(f"table name {table!r} cannot name a MongoDB collection")
    return f"blocks.{table}"


def _chunks(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _unique(table: str, what: str, items) -> None:
    seen: set = set()
    for item in items:
        if item in seen:
            raise StoreError(f"table {table!r}: {what} {item!r} given twice; nothing was written")
        seen.add(item)


def _fingerprint_doc(table: str, key: str, signed_fp: int, sketch: list[int] | None) -> dict:
    doc = {"table": table, "key": key, "fp": Int64(signed_fp)}
    if sketch is not None:
        doc["sketch"] = [Int64(w) for w in sketch]
    return doc


def _group_doc(table: str, g: Group, run_id: int) -> dict:
    return {"table": table, "group_id": int(g.id), "size": g.size,
            "members": [{"key": k, "distance": int(d)} for k, d in zip(g.keys, g.distances)],
            "pairs": [{"a": p.a, "b": p.b, "distance": int(p.distance)} for p in g.pairs],
            "created_run": int(g.created_run if g.created_run is not None else run_id),
            "updated_run": int(g.updated_run if g.updated_run is not None else run_id),
            "merged_from": [int(i) for i in g.merged_from]}


def _group_of(d: dict) -> Group:
    members = sorted(d["members"], key=lambda m: key_sort(m["key"]))
    pairs = sorted((Pair(p["a"], p["b"], p["distance"]) for p in d["pairs"]), key=lambda p: (key_sort(p.a), key_sort(p.b)))
    return Group(int(d["group_id"]), [m["key"] for m in members], [m["distance"] for m in members], pairs,
                 d.get("created_run"), d.get("updated_run"), list(d.get("merged_from") or []))


def _skipped_doc(table: str, s: Skipped) -> dict:
    return {"table": table, "key": s.key, "reason": s.reason, "detail": (s.detail or "")[:2000]}


def _plain(value):
    """JSON-shaped copy (as the SQL store keeps it), so only BSON-safe values reach a document."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as e:
        raise StoreError(f"cannot store {value!r}: {e}") from None


def _utc(when: _dt.datetime | None) -> _dt.datetime | None:
    """Naive UTC at BSON's millisecond precision, so what is read back equals what was stored."""
    if when is None:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return when.replace(microsecond=when.microsecond // 1000 * 1000)


def _now() -> _dt.datetime:
    return _utc(_dt.datetime.now(_dt.timezone.utc))

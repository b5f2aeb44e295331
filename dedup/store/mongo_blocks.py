"""The MongoDB store's block documents: the paper's ``{blockName, info[]}`` with overflow buckets.

A block's entries fill documents seq 0, 1, 2, ... each of at most ``bucket_size`` entries and
MAX_BUCKET_BYTES, so a hot block never nears BSON's 16 MB. Mixed into MongoStore; every write
goes through ``_bulk`` (unordered bulk_write in bounded chunks).
"""

from __future__ import annotations

from bson.int64 import Int64
from pymongo import DeleteOne, InsertOne, UpdateOne

from .model import BlockEntries
from .mongo_docs import chunks

# block names per find({"blockName": {"$in": ...}}): a server may test each document found against
# every value of the list (SecantusDB does, in Python), so a long list costs more than the round
# trips it saves
NAMES_CHUNK = 250
OPS_CHUNK = 1000  # operations per bulk_write
LOAD_CHUNK = 20_000  # insertions per bulk_write when a full run loads whole documents
MAX_BUCKET_BYTES = 8 << 20  # a block document is full at this size whatever bucket_size says
_BULK_BYTES = 32 << 20  # estimated bytes of pending operations that trigger a bulk_write
ENTRY_BYTES = 48  # BSON size of one info entry besides its key's UTF-8 bytes


def entry_bytes(key: str) -> int:
    return ENTRY_BYTES + len(key.encode("utf-8"))


class BlockDocuments:
    bucket_size: int

    def _bulk(self, coll, ops, load: bool = False) -> None:
        """bulk_write ``(operation, estimated bytes)`` pairs, unordered, in chunks of at most
        OPS_CHUNK operations (LOAD_CHUNK insertions with ``load``) and _BULK_BYTES."""
        chunk = LOAD_CHUNK if load else OPS_CHUNK
        pending: list = []
        size = 0
        for op, nbytes in ops:
            pending.append(op)
            size += nbytes
            if len(pending) >= chunk or size >= _BULK_BYTES:
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

    def _block_docs(self, entries: BlockEntries):
        """Every block of a full run, each block's entries in the order given (no per-row queries)."""
        for name, members in entries.by_name().items():
            yield from self._bucket_docs(name, 0, [
                ({"hashcode": Int64(fp), "textname": key}, entry_bytes(key)) for key, fp in members])

    def _pull(self, blocks, pull: dict[str, set[str]]) -> None:
        """Take the keys out of the named blocks, keeping each document's count and bytes exact."""
        names = [n for n in pull if pull[n]]
        for chunk in chunks(names, NAMES_CHUNK):
            ops = []
            # found by name only: the entries' keys are matched here, not by a second $in per entry
            for doc in blocks.find({"blockName": {"$in": chunk}}, {"blockName": 1, "info.textname": 1}):
                wanted = pull[doc["blockName"]]
                drop = [e["textname"] for e in doc["info"] if e["textname"] in wanted]
                if not drop:
                    continue
                at = {"blockName": doc["blockName"], "_id": doc["_id"]}  # the shard key: routed to one shard
                if len(drop) == len(doc["info"]):
                    ops.append((DeleteOne(at), 0))
                else:
                    freed = sum(entry_bytes(k) for k in drop)
                    ops.append((UpdateOne(at, {
                        "$pull": {"info": {"textname": {"$in": sorted(set(drop))}}},
                        "$inc": {"count": -len(drop), "bytes": -freed}}), 0))
            self._bulk(blocks, ops)

    def _push(self, blocks, added: dict[str, list[tuple[str, int]]]) -> None:
        """Append entries to the last document of each block while it has room, then new documents."""
        for chunk in chunks(list(added), NAMES_CHUNK):
            last: dict[str, dict] = {}
            for doc in blocks.find({"blockName": {"$in": chunk}}, {"blockName": 1, "seq": 1, "count": 1, "bytes": 1}):
                if doc["blockName"] not in last or doc["seq"] > last[doc["blockName"]]["seq"]:
                    last[doc["blockName"]] = doc
            ops = []
            for name in chunk:
                entries = [({"hashcode": Int64(s), "textname": k}, entry_bytes(k))
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
                        ops.append((UpdateOne({"blockName": name, "_id": doc["_id"]}, {
                            "$push": {"info": {"$each": [e for e, _ in entries[:n]]}},
                            "$inc": {"count": n, "bytes": nbytes - doc.get("bytes", 0)}}), nbytes))
                        entries = entries[n:]
                ops.extend(self._bucket_docs(name, seq, entries))
            self._bulk(blocks, ops)



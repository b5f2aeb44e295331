"""The MongoDB store's block documents: the paper's ``{blockName, info[]}`` with overflow buckets.

A block's entries fill documents seq 0, 1, 2, ... each of at most ``bucket_size`` entries and
MAX_BUCKET_BYTES, so a hot block never nears BSON's 16 MB. Mixed into MongoStore; every write
goes through ``_bulk`` (unordered bulk_write in bounded chunks).
"""

from __future__ import annotations

from bson.int64 import Int64
from pymongo import DeleteOne, InsertOne, ReplaceOne, UpdateOne
from pymongo.errors import BulkWriteError

from .entries import PackedEntries, packed
from .model import BlockEntries
from .mongo_docs import chunks

# block names per find({"blockName": {"$in": ...}}): a server may test each document found against
# every value of the list (SecantusDB does, in Python), so a long list costs more than the round
# trips it saves. Server CPU per document found on SecantusDB 0.7.0b3 (4,000 documents, one
# unique index): 625 us with lists of 1, 137 of 10, 127 of 50, 318 of 250
NAMES_CHUNK = 50
OPS_CHUNK = 1000  # operations per bulk_write
LOAD_CHUNK = 20_000  # insertions per bulk_write when a full run loads whole documents
MAX_BUCKET_BYTES = 8 << 20  # a block document is full at this size whatever bucket_size says
_BULK_BYTES = 32 << 20  # estimated bytes of pending operations that trigger a bulk_write
ENTRY_BYTES = 48  # BSON size of one info entry besides its key's UTF-8 bytes


def entry_bytes(key: str) -> int:
    return ENTRY_BYTES + len(key.encode("utf-8"))


class BlockDocuments:
    """Mixed into MongoStore (``db``, ``bucket_size``)."""

    bucket_size: int
    # (table, blocks version, block name -> its documents) as the last block_entries read them
    _seen: tuple[str, int, dict[str, list[dict]]] | None = None

    def _blocks_version(self, table: str) -> int:
        """A counter of the table's block writes: every writer moves it on before it writes."""
        doc = self.db.tables.find_one({"_id": table}, {"blocks_version": 1}) or {}
        return int(doc.get("blocks_version") or 0)

    def _new_blocks_version(self, table: str) -> None:
        self._seen = None
        self.db.tables.update_one({"_id": table}, {"$inc": {"blocks_version": 1}}, upsert=True)

    def _remember_blocks(self, table: str, version: int, names: list[str], docs: list[dict]) -> None:
        """Keep what block_entries read (an incremental run reads the blocks of its new rows, then
        writes to most of them), so that apply_changes need not find the same documents again."""
        by_name: dict[str, list[dict]] = {name: [] for name in names}
        for doc in docs:
            by_name[doc["blockName"]].append(doc)
        self._seen = (table, version, by_name)

    def _read_blocks(self, blocks, table: str, names: list[str]) -> dict[str, list[dict]]:
        """Block name -> its documents (_id, seq, count, bytes, info's keys), for the named blocks
        that exist. Those block_entries read are taken from there while the table's blocks version
        is the one read before them (no store wrote to the blocks since: a writer moves it first)."""
        seen, self._seen = self._seen, None
        known: dict[str, list[dict]] = {}
        if seen is not None and seen[0] == table and seen[1] == self._blocks_version(table):
            known = seen[2]
        docs = {name: known[name] for name in names if known.get(name)}
        missing = [name for name in names if name not in known]
        for chunk in chunks(missing, NAMES_CHUNK):
            # found by name only: the entries' keys are matched here, not by a second $in per entry
            for doc in blocks.find({"blockName": {"$in": chunk}},
                                   {"blockName": 1, "seq": 1, "count": 1, "bytes": 1, "info.textname": 1}):
                docs.setdefault(doc["blockName"], []).append(doc)
        return docs

    def _bulk(self, coll, ops, load: bool = False, replace_on: tuple[str, ...] = ()) -> None:
        """bulk_write ``(operation, estimated bytes)`` pairs, unordered, in chunks of at most
        OPS_CHUNK operations (LOAD_CHUNK insertions with ``load``) and _BULK_BYTES.

        With ``replace_on`` the pairs are ``(document, estimated bytes)``, inserted; one whose
        values of those fields (a unique index) are taken replaces the document holding them
        instead. A server pays less for an insertion than for an upsert, which looks for the
        document first (SecantusDB 0.7.0b3: 270 against 730 us of CPU a document), and most of
        what a run writes is new, so this is an upsert that costs less when nothing is there."""
        chunk = LOAD_CHUNK if load else OPS_CHUNK
        pending: list = []
        size = 0
        for op, nbytes in ops:
            pending.append(op)
            size += nbytes
            if len(pending) >= chunk or size >= _BULK_BYTES:
                _write(coll, pending, replace_on)
                pending, size = [], 0
        if pending:
            _write(coll, pending, replace_on)

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

    def _block_docs(self, entries: BlockEntries | PackedEntries):
        """Every block of a full run, each block's entries in the order given (no per-row queries),
        made a slice of entries at a time (dedup.store.entries)."""
        for name, members in packed(entries).by_block():
            yield from self._bucket_docs(name, 0, [
                ({"hashcode": Int64(fp), "textname": key}, entry_bytes(key)) for key, fp in members])

    def _block_writes(self, blocks, table: str, pull: dict[str, set[str]], added: dict[str, list[tuple[str, int]]]
                      ) -> tuple[list, list]:
        """The operations that take the keys of ``pull`` out of their blocks, and those that then
        append ``added`` (to the last document of a block while it has room, then in new ones),
        from one read of the blocks' documents (_read_blocks): a server pays per document found,
        so reading them once for both instead of once each halves that. Each document's count and
        bytes stay exact."""
        docs = self._read_blocks(blocks, table, list(dict.fromkeys([*(n for n in pull if pull[n]), *added])))
        pulls: list = []
        for name, found in docs.items():
            wanted = pull.get(name)
            if wanted:
                docs[name] = [doc for doc in found if not self._pull_from(doc, wanted, pulls)]
        pushes = []
        for name, entries in added.items():
            last = max(docs.get(name, ()), key=lambda d: d["seq"], default=None)
            pushes.extend(self._push_to(name, last, entries))
        return pulls, pushes

    @staticmethod
    def _pull_from(doc: dict, wanted: set[str], ops: list) -> bool:
        """Add the operation taking ``wanted`` out of ``doc`` (if it holds any) to ``ops``, and
        update the doc's count and bytes as the server will; True when the whole document goes."""
        drop = [e["textname"] for e in doc.get("info") or () if e["textname"] in wanted]
        if not drop:
            return False
        at = {"blockName": doc["blockName"], "_id": doc["_id"]}  # the shard key: routed to one shard
        if len(drop) == len(doc["info"]):
            ops.append((DeleteOne(at), 0))
            return True
        freed = sum(entry_bytes(k) for k in drop)
        ops.append((UpdateOne(at, {"$pull": {"info": {"textname": {"$in": sorted(set(drop))}}},
                                   "$inc": {"count": -len(drop), "bytes": -freed}}), 0))
        doc["count"], doc["bytes"] = doc.get("count", 0) - len(drop), doc.get("bytes", 0) - freed
        return False

    def _push_to(self, name: str, last: dict | None, added: list[tuple[str, int]]):
        """Operations appending ``added`` to a block whose last document is ``last`` (None: no document)."""
        entries = [({"hashcode": Int64(s), "textname": k}, entry_bytes(k)) for k, s in added]
        seq = 0
        if last is not None:
            seq = last["seq"] + 1
            count, nbytes, n = last.get("count", 0), last.get("bytes", 0), 0
            while n < len(entries) and count + n < self.bucket_size and (
                    nbytes + entries[n][1] <= MAX_BUCKET_BYTES):
                nbytes += entries[n][1]
                n += 1
            if n:
                yield UpdateOne({"blockName": name, "_id": last["_id"]}, {
                    "$push": {"info": {"$each": [e for e, _ in entries[:n]]}},
                    "$inc": {"count": n, "bytes": nbytes - last.get("bytes", 0)}}), nbytes
                entries = entries[n:]
        yield from self._bucket_docs(name, seq, entries)


def _write(coll, pending: list, replace_on: tuple[str, ...]) -> None:
    """One bulk_write of ``pending``: operations, or with ``replace_on`` documents to insert or,
    where their unique key is taken (duplicate key, code 11000), to replace the holder with."""
    if not replace_on:
        coll.bulk_write(pending, ordered=False)
        return
    try:
        coll.bulk_write([InsertOne(doc) for doc in pending], ordered=False)
    except BulkWriteError as e:
        errors = e.details.get("writeErrors") or []
        if not errors or e.details.get("writeConcernErrors") or any(err.get("code") != 11000 for err in errors):
            raise
        again = []
        for err in errors:
            doc = {k: v for k, v in pending[err["index"]].items() if k != "_id"}  # the _id the insert gave it
            again.append(ReplaceOne({f: doc[f] for f in replace_on}, doc, upsert=True))
        coll.bulk_write(again, ordered=False)

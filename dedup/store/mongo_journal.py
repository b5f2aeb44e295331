"""The MongoDB store's run journal: an incremental run's changes, kept whole before the first write.

MongoDB has no transaction across collections, and the store could not rebuild a cut-short
change from what it holds: the deleted rows' fingerprints, gone first, were the only trace that
they still sat in groups and blocks. So ``apply_changes`` writes the whole TableChanges first
(zlib-compressed JSON in ``journal`` documents of at most PART_BYTES, then a ``journal: {run,
parts}`` field on the table's ``tables`` document, in one write, which makes it count), applies
it, and only then removes it. Whoever next takes the table's lock (or applies changes) finds a
journal still there and applies it again before anything else: every step of ``apply_changes``
is idempotent for the same changes, so a run killed at any write, or a server killed and
restarted on its data, ends as the run would have, with the same group ids. Journal documents
without the field (a run killed while writing them) are dropped unapplied: nothing else was
written yet. Mixed into MongoStore.
"""

from __future__ import annotations

import json
import logging
import zlib

import numpy as np
from bson.binary import Binary

from ..index.groups import Group, Pair
from .model import BlockEntries, GroupChange, Skipped, TableChanges

log = logging.getLogger(__name__)
JOURNAL = "journal"
PART_BYTES = 4 << 20  # compressed bytes per journal document, well under BSON's 16 MB


def encode(ch: TableChanges) -> bytes:
    """The changes as compressed JSON (decode gives them back equal)."""
    def entries(e: BlockEntries) -> dict:
        return {"names": list(e.names), "keys": list(e.keys), "fps": e.fingerprints.tolist()}

    doc = {
        "table": ch.table, "run_id": int(ch.run_id), "remove_keys": list(ch.remove_keys),
        "remove_blocks": entries(ch.remove_blocks), "add_keys": list(ch.add_keys),
        "add_fingerprints": [int(v) for v in ch.add_fingerprints],
        "add_sketches": None if ch.add_sketches is None else np.asarray(ch.add_sketches, dtype=np.uint64).tolist(),
        "add_blocks": entries(ch.add_blocks),
        "skipped": [[s.key, s.reason, s.detail, s.watermark] for s in ch.skipped],
        "delete_groups": [int(i) for i in ch.delete_groups],
        "upsert_groups": [[int(g.id), list(g.keys), [int(d) for d in g.distances],
                           [[p.a, p.b, int(p.distance)] for p in g.pairs], g.created_run, g.updated_run,
                           [int(i) for i in g.merged_from]] for g in ch.upsert_groups],
        "version": ch.version, "watermark": ch.watermark,
        "changes": [[c.group, list(c.kinds), c.detail()] for c in ch.changes],
        "add_row_watermarks": ch.add_row_watermarks,
    }
    return zlib.compress(json.dumps(doc, separators=(",", ":")).encode("utf-8"), 1)


def decode(data: bytes) -> TableChanges:
    doc = json.loads(zlib.decompress(data).decode("utf-8"))

    def entries(e: dict) -> BlockEntries:
        return BlockEntries(e["names"], e["keys"], np.array(e["fps"], dtype=np.uint64))

    sketches = doc["add_sketches"]
    return TableChanges(
        table=doc["table"], run_id=doc["run_id"], remove_keys=doc["remove_keys"],
        remove_blocks=entries(doc["remove_blocks"]), add_keys=doc["add_keys"],
        add_fingerprints=np.array(doc["add_fingerprints"], dtype=np.uint64),
        skipped=[Skipped(k, r, d, w) for k, r, d, w in doc["skipped"]], delete_groups=doc["delete_groups"],
        upsert_groups=[Group(i, keys, dist, [Pair(a, b, d) for a, b, d in pairs], created, updated, merged)
                       for i, keys, dist, pairs, created, updated, merged in doc["upsert_groups"]],
        version=doc["version"], watermark=doc["watermark"],
        add_sketches=None if sketches is None else _sketches(sketches),
        add_blocks=entries(doc["add_blocks"]),
        changes=[GroupChange.of(g, kinds, detail) for g, kinds, detail in doc["changes"]],
        add_row_watermarks=doc["add_row_watermarks"])


def _sketches(rows: list) -> np.ndarray:
    """The added rows' sketch words; none added (a decision's changes) is (0, 0), which stores
    nothing, as the empty list cannot say how wide its rows were."""
    return np.array(rows, dtype=np.uint64).reshape(len(rows), -1) if rows else np.empty((0, 0), np.uint64)


class MongoJournal:
    """Mixed into MongoStore (``db``, ``_apply``: the idempotent steps of apply_changes)."""

    def _journal(self, ch: TableChanges) -> None:
        """The changes kept whole; they count once the table's document names them."""
        t, data = ch.table, encode(ch)
        self.db[JOURNAL].delete_many({"table": t})  # parts of a journal that never counted
        parts = [data[at:at + PART_BYTES] for at in range(0, len(data), PART_BYTES)]
        for seq, part in enumerate(parts):
            self.db[JOURNAL].insert_one({"table": t, "run": int(ch.run_id), "seq": seq, "data": Binary(part)})
        self.db.tables.update_one({"_id": t}, {"$set": {JOURNAL: {"run": int(ch.run_id), "parts": len(parts)}}},
                                  upsert=True)

    def _close_journal(self, table: str, run_id: int) -> None:
        """The journal of run ``run_id`` done with: it stops counting, then its parts go."""
        self.db.tables.update_one({"_id": table, f"{JOURNAL}.run": int(run_id)}, {"$unset": {JOURNAL: ""}})
        self.db[JOURNAL].delete_many({"table": table})

    def _roll_forward(self, table: str) -> int | None:
        """Apply the changes a cut-short run left in the journal, if any; returns that run's id."""
        doc = self.db.tables.find_one({"_id": table}, {JOURNAL: 1, "version": 1}) or {}
        head = doc.get(JOURNAL)
        if not head:
            return None
        run_id, n = int(head["run"]), int(head["parts"])
        docs = sorted(self.db[JOURNAL].find({"table": table, "run": run_id}), key=lambda d: d["seq"])
        if [d["seq"] for d in docs] != list(range(n)):  # lost with a server's data: only a full run repairs it
            log.error("%s: the journal of run %d is incomplete (%d of %d parts)", table, run_id, len(docs), n)
            # a stamp no run's settings match: incremental runs refuse and ask for a full run, which replaces it
            stamp = {**(doc.get("version") or {}), JOURNAL: f"run {run_id}: incomplete"}
            self.db.tables.update_one({"_id": table}, {"$set": {"version": stamp}})
            self._close_journal(table, run_id)
            return None
        log.warning("%s: finishing the changes of run %d, which was cut short", table, run_id)
        self._apply(decode(b"".join(bytes(d["data"]) for d in docs)))
        self._close_journal(table, run_id)
        return run_id

"""The MongoDB store's decisions (collection ``decisions``: ``{table, a, b, verdict, at, source,
similarity, applied_run, reviewer, note, action}``, unique on table, a, b): a mixin of MongoStore, kept apart for size."""

from __future__ import annotations

from pymongo import ReplaceOne, UpdateOne

from ..index.decisions import Decision
from .mongo_docs import chunks, guarded, utc

_CHUNK = 1000


def _decision_of(d: dict) -> Decision:
    return Decision(d["a"], d["b"], d["verdict"], d.get("at"), d.get("source") or "decide", d.get("similarity"),
                    d.get("applied_run"), d.get("reviewer"), d.get("note"), d.get("action"))


class MongoDecisions:
    @guarded
    def _read_decisions(self, table: str, keys: list[str] | None, pending: bool) -> list[Decision]:
        base: dict = {"table": table, **({"applied_run": None} if pending else {})}
        if keys is None:
            docs = list(self.db.decisions.find(base))
        else:
            docs = []
            for chunk in chunks(list(dict.fromkeys(keys)), _CHUNK):
                docs.extend(self.db.decisions.find({**base, "$or": [{"a": {"$in": chunk}}, {"b": {"$in": chunk}}]}))
        return [_decision_of(d) for d in docs]

    @guarded
    def _put_decisions(self, table: str, decisions: list[Decision]) -> None:
        ops = [ReplaceOne({"table": table, "a": x.a, "b": x.b}, {
            "table": table, "a": x.a, "b": x.b, "verdict": x.verdict, "at": utc(x.decided_at), "source": x.source,
            "similarity": x.similarity, "applied_run": x.applied_run, "reviewer": x.reviewer, "note": x.note,
            "action": x.action}, upsert=True) for x in decisions]
        for chunk in chunks(ops, _CHUNK):
            self.db.decisions.bulk_write(chunk, ordered=False)

    @guarded
    def _mark_applied(self, table: str, pairs: list[tuple[str, str]], run_id: int) -> None:
        ops = [UpdateOne({"table": table, "a": a, "b": b}, {"$set": {"applied_run": run_id}}) for a, b in pairs]
        for chunk in chunks(ops, _CHUNK):
            self.db.decisions.bulk_write(chunk, ordered=False)

    @guarded
    def _delete_decisions(self, table: str, pairs: list[tuple[str, str]]) -> None:
        for a, b in pairs:
            self.db.decisions.delete_one({"table": table, "a": a, "b": b})

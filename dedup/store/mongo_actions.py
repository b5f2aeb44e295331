"""The MongoDB store's reviewers' actions (collection ``actions``: ``{table, id, kind, reviewer, at,
note, detail, undone_at, undone_by}``, unique on table, id) and notes on groups (``group_notes``:
``{table, group, text, reviewer, at}``): a mixin of MongoStore, kept apart for size."""

from __future__ import annotations

import datetime as _dt

from pymongo import ASCENDING, DESCENDING

from ..index.decisions import Action, GroupNote
from .action_docs import action_detail, action_of
from .mongo_docs import guarded, utc


class MongoActions:
    @guarded
    def put_action(self, table: str, action: Action) -> None:
        self.db.actions.insert_one({
            "table": table, "id": action.id, "kind": action.kind, "reviewer": action.reviewer, "at": utc(action.at),
            "note": action.note, "detail": action_detail(action), "undone_at": utc(action.undone_at),
            "undone_by": action.undone_by})

    @guarded
    def actions(self, table: str, limit: int = 50, reviewer: str | None = None, undone: bool = True) -> list[Action]:
        query: dict = {"table": table}
        if reviewer is not None:
            query["reviewer"] = reviewer
        if not undone:
            query["undone_at"] = None
        docs = self.db.actions.find(query).sort("id", DESCENDING).limit(limit)
        return [action_of(d["id"], d["kind"], d["at"], d.get("reviewer"), d.get("note"), d.get("detail") or {},
                          d.get("undone_at"), d.get("undone_by")) for d in docs]

    @guarded
    def mark_action_undone(self, table: str, action_id: str, at: _dt.datetime, by: str | None) -> None:
        self.db.actions.update_one({"table": table, "id": action_id}, {"$set": {"undone_at": utc(at), "undone_by": by}})

    @guarded
    def put_group_note(self, table: str, note: GroupNote) -> None:
        self.db.group_notes.insert_one({"table": table, "group": int(note.group), "text": note.text,
                                        "reviewer": note.reviewer, "at": utc(note.at)})

    @guarded
    def group_notes(self, table: str, group_id: int | None = None) -> list[GroupNote]:
        query: dict = {"table": table, **({} if group_id is None else {"group": int(group_id)})}
        docs = self.db.group_notes.find(query).sort([("at", ASCENDING), ("_id", ASCENDING)])
        return [GroupNote(d["group"], d["text"], d.get("reviewer"), d["at"]) for d in docs]

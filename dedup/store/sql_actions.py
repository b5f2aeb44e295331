"""The SQL store's reviewers' actions (``dedup_actions``) and notes on groups (``dedup_group_notes``):
a mixin of SqlStore, kept apart for size."""

from __future__ import annotations

import datetime as _dt
import json

import sqlalchemy as sa

from ..index.decisions import Action, GroupNote
from . import sql_schema as S
from .action_docs import action_detail, action_of


class SqlActions:
    def put_action(self, table: str, action: Action) -> None:
        row = {"table_name": table, "action_id": action.id, "kind": action.kind, "reviewer": action.reviewer,
               "at": action.at, "note": action.note, "detail": json.dumps(action_detail(action), ensure_ascii=False),
               "undone_at": action.undone_at, "undone_by": action.undone_by}
        self._guard(self._run_statements, [S.actions.insert().values(**row)])

    def actions(self, table: str, limit: int = 50, reviewer: str | None = None, undone: bool = True) -> list[Action]:
        """The table's actions, newest first (only ``reviewer``'s; without the undone ones unless ``undone``)."""
        if self.empty:
            return []
        c = S.actions.c
        query = sa.select(c.action_id, c.kind, c.at, c.reviewer, c.note, c.detail, c.undone_at, c.undone_by).where(
            c.table_name == table)
        if reviewer is not None:
            query = query.where(c.reviewer == reviewer)
        if not undone:
            query = query.where(c.undone_at.is_(None))
        query = query.order_by(c.action_id.desc()).limit(limit)

        def read():
            with self.engine.connect() as conn:
                return [action_of(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7]) for r in conn.execute(query)]
        return self._guard(read)

    def mark_action_undone(self, table: str, action_id: str, at: _dt.datetime, by: str | None) -> None:
        c = S.actions.c
        self._guard(self._run_statements, [S.actions.update().where(c.table_name == table, c.action_id == action_id).values(
            undone_at=at, undone_by=by)])

    def put_group_note(self, table: str, note: GroupNote) -> None:
        self._guard(self._run_statements, [S.group_notes.insert().values(
            table_name=table, group_id=int(note.group), text=note.text, reviewer=note.reviewer, at=note.at)])

    def group_notes(self, table: str, group_id: int | None = None) -> list[GroupNote]:
        """Notes on the group ``group_id`` (every group's when None), oldest first."""
        if self.empty:
            return []
        c = S.group_notes.c
        query = sa.select(c.group_id, c.text, c.reviewer, c.at).where(c.table_name == table)
        if group_id is not None:
            query = query.where(c.group_id == int(group_id))

        def read():
            with self.engine.connect() as conn:
                return [GroupNote(*r) for r in conn.execute(query.order_by(c.id))]
        return self._guard(read)

    def _run_statements(self, statements) -> None:
        with self.engine.begin() as conn:
            for stmt in statements:
                conn.execute(stmt)

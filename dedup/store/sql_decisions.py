"""The SQL store's decisions (``dedup_decisions``): a mixin of SqlStore, kept apart for size."""

from __future__ import annotations

import sqlalchemy as sa

from ..index.decisions import Decision
from . import sql_schema as S

_CHUNK = 500  # pairs per statement


class SqlDecisions:
    def _read_decisions(self, table: str, keys: list[str] | None, pending: bool) -> list[Decision]:
        """The table's decisions, in no order (StoreBase.decisions sorts them)."""
        if self.empty:
            return []
        d = S.decisions.c

        def read():
            query = sa.select(d.key_a, d.key_b, d.verdict, d.decided_at, d.source, d.similarity, d.applied_run,
                              d.reviewer, d.note, d.action_id).where(d.table_name == table)
            if pending:
                query = query.where(d.applied_run.is_(None))
            if keys is None:
                rows = self._select_in(query, d.key_a, None)
            else:
                rows = self._select_in(query, d.key_a, keys) + self._select_in(query, d.key_b, keys)
            return [Decision(*r) for r in rows]
        return self._guard(read)

    def _put_decisions(self, table: str, items: list[Decision]) -> None:
        """One decision a pair, each replacing any earlier one on the same pair."""
        d = S.decisions.c

        def write():
            with self.engine.begin() as conn:
                for start in range(0, len(items), _CHUNK):
                    chunk = items[start:start + _CHUNK]
                    conn.execute(S.decisions.delete().where(d.table_name == table, sa.tuple_(d.key_a, d.key_b).in_(
                        [x.pair for x in chunk])))
                    conn.execute(S.decisions.insert(), [
                        {"table_name": table, "key_a": x.a, "key_b": x.b, "verdict": x.verdict,
                         "decided_at": x.decided_at, "source": x.source, "similarity": x.similarity,
                         "applied_run": x.applied_run, "reviewer": x.reviewer, "note": x.note,
                         "action_id": x.action} for x in chunk])
        self._guard(write)

    def _mark_applied(self, table: str, pairs: list[tuple[str, str]], run_id: int) -> None:
        self._update_pairs(table, pairs, lambda q: q.values(applied_run=run_id))

    def _delete_decisions(self, table: str, pairs: list[tuple[str, str]]) -> None:
        self._update_pairs(table, pairs, None)

    def _update_pairs(self, table: str, pairs: list[tuple[str, str]], update) -> None:
        """Pairs given once each (StoreBase): updated, or deleted when ``update`` is None."""
        d = S.decisions.c

        def write():
            with self.engine.begin() as conn:
                for start in range(0, len(pairs), _CHUNK):
                    where = (d.table_name == table, sa.tuple_(d.key_a, d.key_b).in_(pairs[start:start + _CHUNK]))
                    stmt = S.decisions.delete() if update is None else update(S.decisions.update())
                    conn.execute(stmt.where(*where))
        self._guard(write)

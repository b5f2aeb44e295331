"""The SQL store's staging area: a full run's rows written by many processes, swapped in at once.

Spark executors write their rows and block entries into the store's own tables under the run's
staging name (model.staging_name) instead of the table's, each task in a transaction of its own;
the driver then, in one transaction (SqlStore._replace), deletes the table's results and renames
the staged rows to the table (an UPDATE of ``table_name``, done by the database: nothing passes
through the driver) beside the groups, history, terms and state it writes itself. A run that
fails before that commit leaves the previous results as they were; ``begin_staging`` of the next
run deletes what it staged. Mixed into SqlStore.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from ..errors import StoreError
from . import sql_schema as S
from . import sql_write as W
from .model import BlockEntries, Skipped, TableSnapshot, staging_name
from .sql_bulk import CHUNK

STAGED = (S.fingerprints, S.skipped, S.blocks)  # the tables a run stages rows in


class SqlStaging:
    whole_blocks = False  # a block entry is a row: any task may stage any entry

    def begin_staging(self, table: str, run_id: int) -> None:
        def write():
            r = S.runs.c
            with self.engine.begin() as conn:
                # runs that may have staged and never swapped: their staging goes (a run that
                # swapped has nothing left staged, so deleting again costs one index probe)
                ids = conn.execute(sa.select(r.id).where(
                    r.table_name == table, r.kind == "full", sa.or_(r.status != "ok", r.id == int(run_id)))).scalars().all()
                names = [staging_name(table, i) for i in ids]
                for start in range(0, len(names), CHUNK):
                    for tbl in STAGED:
                        conn.execute(tbl.delete().where(tbl.c.table_name.in_(names[start:start + CHUNK])))
        _fits(table, run_id)
        self._guard(write)

    def _stage_rows(self, table: str, run_id: int, keys: list[str], fingerprints, sketches,
                    row_watermarks: list[str | None] | None, skipped: Sequence[Skipped], again: bool) -> None:
        name = staging_name(table, run_id)

        def write():
            with self.engine.begin() as conn:
                if again:  # a retried task: its rows go first, then come again
                    for tbl, ks in ((S.fingerprints, keys), (S.skipped, [s.key for s in skipped])):
                        for start in range(0, len(ks), CHUNK):
                            conn.execute(tbl.delete().where(tbl.c.table_name == name,
                                                            tbl.c.row_key.in_(ks[start:start + CHUNK])))
                W.add_rows(conn, name, keys, [int(v) for v in fingerprints], sketches, row_watermarks)
                W.add_skipped(conn, name, list(skipped))
        self._guard(write)

    def stage_blocks(self, table: str, run_id: int, entries: BlockEntries, again: bool = False) -> None:
        name = staging_name(table, run_id)

        def write():
            with self.engine.begin() as conn:
                if again:
                    W.remove_blocks(conn, name, entries)
                W.add_blocks(conn, name, entries)
        self._guard(write)

    def _replace_table_staged(self, snap: TableSnapshot) -> None:
        name = staging_name(snap.table, snap.run_id)

        def rows(conn) -> None:
            for tbl in STAGED:
                conn.execute(tbl.update().where(tbl.c.table_name == name).values(table_name=snap.table))
        self._guard(self._replace, snap, rows)


def _fits(table: str, run_id: int) -> None:
    """A staging name longer than the table_name column is refused before anything is staged."""
    if len(staging_name(table, run_id)) > S.NAME.length:
        raise StoreError(f"table {table!r}: its name is too long to stage a run under "
                         f"({S.NAME.length - len(staging_name('', run_id))} characters at most)")

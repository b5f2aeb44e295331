"""Schema operations that do only what is still missing (or still there, going down).

MySQL/MariaDB commit every DDL statement on its own, so a revision killed half-way there leaves
some of its tables or columns made and the revision not recorded; the next `dedup migrate` runs
the revision again, and each operation here skips what that earlier try already did. (SQLite and
PostgreSQL run the whole upgrade in one transaction: dedup.store.sql_schema_lock.)
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op


def _inspect() -> sa.Inspector:
    return sa.inspect(op.get_bind())  # a fresh inspector each time: it caches what it read


def has_table(name: str) -> bool:
    return _inspect().has_table(name)


def column_names(table: str) -> set[str]:
    return {c["name"] for c in _inspect().get_columns(table)}


def create_table(name: str, *columns) -> None:
    if not has_table(name):
        op.create_table(name, *columns)


def drop_table(name: str) -> None:
    if has_table(name):
        op.drop_table(name)


def create_index(name: str, table: str, columns: list[str]) -> None:
    if name not in {i["name"] for i in _inspect().get_indexes(table)}:
        op.create_index(name, table, columns)


def add_columns(table: str, *columns: sa.Column) -> None:
    have = column_names(table)
    missing = [c for c in columns if c.name not in have]
    if missing:
        with op.batch_alter_table(table) as batch:
            for column in missing:
                batch.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    have = column_names(table)
    present = [n for n in names if n in have]
    if present:
        with op.batch_alter_table(table) as batch:
            for name in present:
                batch.drop_column(name)

"""On SQLite, block entries in one B-tree: ``dedup_blocks`` becomes a WITHOUT ROWID table.

A rowid table keeps every entry twice: in the table by rowid and in the primary key's index by
(table, block name, row key). Block entries are small and only ever looked up or deleted by that
key, so SQLite's advice applies: clustered on the key, a full run's 2.6 million entries of
200,000 rows took 234 MB instead of 359 MB and one B-tree insert each instead of two. The table
is rebuilt with its rows; other databases are unchanged (PostgreSQL has no such choice, InnoDB
already clusters a table on its primary key). Downgrading rebuilds it as a rowid table.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMNS = ("table_name VARCHAR(128) NOT NULL, block_name VARCHAR(32) NOT NULL, textname VARCHAR(255) NOT NULL, "
           "hashcode BIGINT NOT NULL, PRIMARY KEY (table_name, block_name, textname)")


def _layout(conn, name: str) -> str | None:
    return conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).scalar()


def _rebuild(options: str) -> None:
    """Rebuild dedup_blocks with ``options``; one transaction (dedup.store.sql_schema_lock), and
    a rebuild a dedup before it left half done (its copy made, or the old table dropped) is finished."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    if _layout(conn, "dedup_blocks") is None and _layout(conn, "dedup_blocks_rebuilt") is not None:
        op.execute("ALTER TABLE dedup_blocks_rebuilt RENAME TO dedup_blocks")  # killed between drop and rename
    op.execute("DROP TABLE IF EXISTS dedup_blocks_rebuilt")  # an unfinished copy
    if ("WITHOUT ROWID" in _layout(conn, "dedup_blocks").upper()) == bool(options):
        return
    op.execute(f"CREATE TABLE dedup_blocks_rebuilt ({COLUMNS}){options}")
    op.execute("INSERT INTO dedup_blocks_rebuilt (table_name, block_name, textname, hashcode) "
               "SELECT table_name, block_name, textname, hashcode FROM dedup_blocks ORDER BY table_name, block_name, textname")
    op.execute("DROP TABLE dedup_blocks")
    op.execute("ALTER TABLE dedup_blocks_rebuilt RENAME TO dedup_blocks")


def upgrade() -> None:
    _rebuild(" WITHOUT ROWID")


def downgrade() -> None:
    _rebuild("")

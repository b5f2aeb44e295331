"""The SQL store's first schema: block entries, fingerprints, pairs, groups, skipped rows, runs, tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""
import sqlalchemy as sa

from dedup._migrations.sql import idempotent as ddl

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

NAME = sa.String(128)
KEY = sa.String(255)


def upgrade() -> None:
    ddl.create_table(
        "dedup_blocks",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("block_name", sa.String(32), primary_key=True),
        sa.Column("textname", KEY, primary_key=True),
        sa.Column("hashcode", sa.BigInteger, nullable=False),
    )
    ddl.create_table(
        "dedup_fingerprints",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("row_key", KEY, primary_key=True),
        sa.Column("fingerprint", sa.BigInteger, nullable=False),
    )
    ddl.create_table(
        "dedup_pairs",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("key_a", KEY, primary_key=True),
        sa.Column("key_b", KEY, primary_key=True),
        sa.Column("distance", sa.SmallInteger, nullable=False),
    )
    ddl.create_table(
        "dedup_groups",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("group_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("created_run", sa.Integer, nullable=True),
        sa.Column("updated_run", sa.Integer, nullable=True),
    )
    ddl.create_table(
        "dedup_group_members",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("row_key", KEY, primary_key=True),
        sa.Column("group_id", sa.Integer, nullable=False),
        sa.Column("distance", sa.SmallInteger, nullable=False),
    )
    ddl.create_index("ix_dedup_group_members_group", "dedup_group_members", ["table_name", "group_id"])
    ddl.create_table(
        "dedup_skipped",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("row_key", KEY, primary_key=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text, nullable=True),
    )
    ddl.create_table(
        "dedup_runs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_name", NAME, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("summary", sa.Text, nullable=True),
    )
    ddl.create_index("ix_dedup_runs_table", "dedup_runs", ["table_name", "id"])
    ddl.create_table(
        "dedup_tables",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("version", sa.Text, nullable=False),
        sa.Column("watermark", sa.Text, nullable=True),
        sa.Column("updated_at", sa.DateTime, nullable=True),
        sa.Column("lock_owner", sa.String(128), nullable=True),
        sa.Column("lock_expires", sa.DateTime, nullable=True),
    )


def downgrade() -> None:
    for name in ("dedup_tables", "dedup_runs", "dedup_skipped", "dedup_group_members",
                 "dedup_groups", "dedup_pairs", "dedup_fingerprints", "dedup_blocks"):
        ddl.drop_table(name)

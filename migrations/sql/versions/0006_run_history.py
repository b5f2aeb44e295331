"""The run history: what each run did to each group id, kept across full runs.

``dedup_run_changes`` holds one row per (table, run, group id) a run changed: ``kinds`` (new,
grown, merged, split, shrunk, gone, comma-separated) and ``detail`` (JSON: rows added and
removed, merged_from/merged_into, split_into/split_from, size after the run). Runs before this
revision have no rows here; `dedup report --run N` falls back to the groups such a run last
updated. Downgrading drops the history.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from sqlalchemy.dialects.mysql import LONGTEXT

from dedup._migrations.sql import idempotent as ddl

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ddl.create_table(
        "dedup_run_changes",
        sa.Column("table_name", sa.String(128), primary_key=True),
        sa.Column("run_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("group_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kinds", sa.String(64), nullable=False),
        sa.Column("detail", sa.Text().with_variant(LONGTEXT(), "mysql", "mariadb"), nullable=False),
    )


def downgrade() -> None:
    ddl.drop_table("dedup_run_changes")

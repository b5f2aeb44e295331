"""Stable group ids and locks before a first run: groups remember merges, tables their largest group id.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
import sqlalchemy as sa
from alembic import op

from dedup._migrations.sql import idempotent as ddl

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ddl.add_columns("dedup_groups", sa.Column("merged_from", sa.Text, nullable=True))
    ddl.add_columns("dedup_tables", sa.Column("max_group_id", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("dedup_tables") as batch:  # the same again when repeated
        batch.alter_column("version", existing_type=sa.Text, nullable=True)  # a lock can precede any run


def downgrade() -> None:
    with op.batch_alter_table("dedup_tables") as batch:
        batch.alter_column("version", existing_type=sa.Text, nullable=False)
    ddl.drop_columns("dedup_tables", "max_group_id")
    ddl.drop_columns("dedup_groups", "merged_from")

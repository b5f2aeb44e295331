"""Stable group ids and locks before a first run: groups remember merges, tables their largest group id.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dedup_groups") as batch:
        batch.add_column(sa.Column("merged_from", sa.Text, nullable=True))
    with op.batch_alter_table("dedup_tables") as batch:
        batch.add_column(sa.Column("max_group_id", sa.Integer, nullable=False, server_default="0"))
        batch.alter_column("version", existing_type=sa.Text, nullable=True)  # a lock can precede any run


def downgrade() -> None:
    with op.batch_alter_table("dedup_tables") as batch:
        batch.alter_column("version", existing_type=sa.Text, nullable=False)
        batch.drop_column("max_group_id")
    with op.batch_alter_table("dedup_groups") as batch:
        batch.drop_column("merged_from")

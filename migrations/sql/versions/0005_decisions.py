"""Reviewers' decisions on pairs of rows (`dedup decide`, `dedup review`): kept across full runs.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""
import sqlalchemy as sa

from dedup._migrations.sql import idempotent as ddl

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ddl.create_table(
        "dedup_decisions",
        sa.Column("table_name", sa.String(128), primary_key=True),
        sa.Column("key_a", sa.String(255), primary_key=True),
        sa.Column("key_b", sa.String(255), primary_key=True),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("decided_at", sa.DateTime, nullable=True),
        sa.Column("source", sa.String(16), nullable=True),
        sa.Column("similarity", sa.Float, nullable=True),
        sa.Column("applied_run", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    ddl.drop_table("dedup_decisions")

"""Reviewers' actions: each decision keeps its reviewer, note and action; the actions (for history
and undo) and notes on groups get tables of their own. Decisions recorded before read with None.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from sqlalchemy.dialects.mysql import LONGTEXT

from dedup._migrations.sql import idempotent as ddl

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ddl.add_columns("dedup_decisions", sa.Column("reviewer", sa.String(128), nullable=True),
                    sa.Column("note", sa.Text, nullable=True), sa.Column("action_id", sa.String(64), nullable=True))
    ddl.create_table(
        "dedup_actions",
        sa.Column("table_name", sa.String(128), primary_key=True),
        sa.Column("action_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reviewer", sa.String(128), nullable=True),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("detail", sa.Text().with_variant(LONGTEXT(), "mysql", "mariadb"), nullable=False),
        sa.Column("undone_at", sa.DateTime, nullable=True),
        sa.Column("undone_by", sa.String(128), nullable=True),
    )
    ddl.create_table(
        "dedup_group_notes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_name", sa.String(128), nullable=False),
        sa.Column("group_id", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("reviewer", sa.String(128), nullable=True),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    ddl.create_index("ix_dedup_group_notes_group", "dedup_group_notes", ["table_name", "group_id"])


def downgrade() -> None:
    ddl.drop_table("dedup_group_notes")
    ddl.drop_table("dedup_actions")
    ddl.drop_columns("dedup_decisions", "reviewer", "note", "action_id")

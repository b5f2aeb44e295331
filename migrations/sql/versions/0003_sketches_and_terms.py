"""Sketches and term counts: three more SimHash words per fingerprint row, document counts per term.

A sketch is three nullable BIGINT columns (the signed integers with the same 64 bits, as the
fingerprint); rows stored before this revision have none. Term counts are a full run's document
count of each term hash (IDF weights), looked up by incremental runs.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""
import sqlalchemy as sa

from dedup._migrations.sql import idempotent as ddl

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NAME = sa.String(128)


def upgrade() -> None:
    ddl.add_columns("dedup_fingerprints", *(sa.Column(f"sketch{i}", sa.BigInteger, nullable=True) for i in (1, 2, 3)))
    ddl.create_table(
        "dedup_term_counts",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("term_hash", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("doc_count", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    ddl.drop_table("dedup_term_counts")
    ddl.drop_columns("dedup_fingerprints", "sketch3", "sketch2", "sketch1")

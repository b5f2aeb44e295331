"""Sketches and term counts: three more SimHash words per fingerprint row, document counts per term.

A sketch is three nullable BIGINT columns (the signed integers with the same 64 bits, as the
fingerprint); rows stored before this revision have none. Term counts are a full run's document
count of each term hash (IDF weights), looked up by incremental runs.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NAME = sa.String(128)


def upgrade() -> None:
    with op.batch_alter_table("dedup_fingerprints") as batch:
        batch.add_column(sa.Column("sketch1", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("sketch2", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("sketch3", sa.BigInteger, nullable=True))
    op.create_table(
        "dedup_term_counts",
        sa.Column("table_name", NAME, primary_key=True),
        sa.Column("term_hash", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("doc_count", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dedup_term_counts")
    with op.batch_alter_table("dedup_fingerprints") as batch:
        batch.drop_column("sketch3")
        batch.drop_column("sketch2")
        batch.drop_column("sketch1")

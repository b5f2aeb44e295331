"""Each row's watermark beside its fingerprint: ``dedup_fingerprints.watermark`` (and
``dedup_skipped.watermark`` for a skipped row that was read whole).

The text of the row's watermark when it was fingerprinted (dedup.db.watermark.row_watermark_text),
so that an incremental run re-reading its lookback window processes only the rows whose watermark
is no longer the one they were fingerprinted at (late rows, edits whose watermark went back). Rows
stored before this revision have none (NULL): the first incremental run after the upgrade
processes those of its lookback window once. Downgrading drops the column.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""
import sqlalchemy as sa

from dedup._migrations.sql import idempotent as ddl

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("dedup_fingerprints", "dedup_skipped"):
        ddl.add_columns(table, sa.Column("watermark", sa.String(255), nullable=True))


def downgrade() -> None:
    for table in ("dedup_skipped", "dedup_fingerprints"):
        ddl.drop_columns(table, "watermark")

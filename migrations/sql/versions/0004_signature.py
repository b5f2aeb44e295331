"""Sketches of any width: one ``signature`` column holding a row's sketch words as bytes.

``signature`` is the row's sketch words after the fingerprint, any number of them, as
little-endian unsigned 64-bit integers (8 bytes a word; BLOB on SQLite and MySQL/MariaDB, bytea on
PostgreSQL). New writes put every word there and leave sketch1..3 NULL; rows stored before this
revision keep their three words in sketch1..3, which are read when ``signature`` is NULL, so
nothing is converted. Downgrading drops ``signature``: rows written after this revision lose their
sketches (a row without a sketch is allowed), those written before keep theirs.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import sqlalchemy as sa

from dedup._migrations.sql import idempotent as ddl

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ddl.add_columns("dedup_fingerprints", sa.Column("signature", sa.LargeBinary, nullable=True))


def downgrade() -> None:
    ddl.drop_columns("dedup_fingerprints", "signature")

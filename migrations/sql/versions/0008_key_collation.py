"""Row keys compared byte for byte on MySQL/MariaDB: a binary, no-pad collation for key columns.

Under a MySQL/MariaDB database's usual collation (utf8mb4_unicode_ci, utf8mb4_general_ci) the
store's unique indexes compared keys without case, accents or trailing spaces, so the source
keys 'a' and 'A' (or 'e' and 'é', 'x' and 'x ') were one entry and a full run stopped with
"Duplicate entry". The key columns get utf8mb4_nopad_bin (MariaDB), else utf8mb4_0900_bin
(MySQL 8), else utf8mb4_bin. Other databases already compare text exactly: nothing changes
there. Downgrading gives the columns utf8mb4's default collation back; it fails while keys
that only it would merge are stored.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

KEY_COLUMNS = {
    "dedup_blocks": ["textname"],
    "dedup_fingerprints": ["row_key"],
    "dedup_pairs": ["key_a", "key_b"],
    "dedup_group_members": ["row_key"],
    "dedup_skipped": ["row_key"],
    "dedup_decisions": ["key_a", "key_b"],
}
BINARY = ("utf8mb4_nopad_bin", "utf8mb4_0900_bin", "utf8mb4_bin")


def _mysql() -> bool:
    return op.get_bind().dialect.name in ("mysql", "mariadb")


def _alter(collation: str | None) -> None:
    spec = "VARCHAR(255) CHARACTER SET utf8mb4" + (f" COLLATE {collation}" if collation else "")
    for table, columns in KEY_COLUMNS.items():
        op.execute(f"ALTER TABLE {table} " + ", ".join(f"MODIFY {c} {spec} NOT NULL" for c in columns))


def upgrade() -> None:
    if not _mysql():
        return
    have = {row[0] for row in op.get_bind().execute(sa.text("SHOW COLLATION WHERE Charset = 'utf8mb4'"))}
    _alter(next(c for c in BINARY if c in have))


def downgrade() -> None:
    if _mysql():
        _alter(None)

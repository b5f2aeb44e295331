"""The SQL store's tables (the live schema; migrations/sql/versions/ creates and evolves it).

Block entries follow the paper's relational layout (one row per block, fingerprint and row key);
fingerprints are BIGINT holding the signed integer with the same 64 bits, and so are term hashes.
A row's sketch words (any number) are ``signature``, little-endian uint64 bytes; sketch1..3 are
the three words of stores written before revision 0004, read when ``signature`` is NULL (new
writes leave them NULL). All NULL: a row without a sketch.
"""

import sqlalchemy as sa
from sqlalchemy.dialects.mysql import LONGTEXT

metadata = sa.MetaData()
NAME = sa.String(128)  # a source table's name
KEY = sa.String(255)  # a row key as text (on MySQL/MariaDB a binary no-pad collation: revision 0008)

blocks = sa.Table(
    "dedup_blocks", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("block_name", sa.String(32), primary_key=True),
    sa.Column("textname", KEY, primary_key=True),
    sa.Column("hashcode", sa.BigInteger, nullable=False),
    sqlite_with_rowid=False,  # one B-tree on SQLite (revision 0009)
)

fingerprints = sa.Table(
    "dedup_fingerprints", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("row_key", KEY, primary_key=True),
    sa.Column("fingerprint", sa.BigInteger, nullable=False),
    sa.Column("sketch1", sa.BigInteger, nullable=True),
    sa.Column("sketch2", sa.BigInteger, nullable=True),
    sa.Column("sketch3", sa.BigInteger, nullable=True),
    sa.Column("signature", sa.LargeBinary, nullable=True),
    sa.Column("watermark", sa.String(255), nullable=True),  # the row's watermark text when fingerprinted (0007)
)

term_counts = sa.Table(
    "dedup_term_counts", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("term_hash", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("doc_count", sa.Integer, nullable=False),
)

pairs = sa.Table(
    "dedup_pairs", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("key_a", KEY, primary_key=True),
    sa.Column("key_b", KEY, primary_key=True),
    sa.Column("distance", sa.SmallInteger, nullable=False),
)

groups = sa.Table(
    "dedup_groups", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("group_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("created_run", sa.Integer, nullable=True),
    sa.Column("updated_run", sa.Integer, nullable=True),
    sa.Column("merged_from", sa.Text, nullable=True),  # JSON list of group ids
)

members = sa.Table(
    "dedup_group_members", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("row_key", KEY, primary_key=True),
    sa.Column("group_id", sa.Integer, nullable=False),
    sa.Column("distance", sa.SmallInteger, nullable=False),
    sa.Index("ix_dedup_group_members_group", "table_name", "group_id"),
)

skipped = sa.Table(
    "dedup_skipped", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("row_key", KEY, primary_key=True),
    sa.Column("reason", sa.String(32), nullable=False),
    sa.Column("detail", sa.Text, nullable=True),
    sa.Column("watermark", sa.String(255), nullable=True),  # the row's watermark text when read (0007)
)

runs = sa.Table(
    "dedup_runs", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_name", NAME, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("started_at", sa.DateTime, nullable=False),
    sa.Column("finished_at", sa.DateTime, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("summary", sa.Text, nullable=True),
    sa.Index("ix_dedup_runs_table", "table_name", "id"),
)

# what each run did to each group id (dedup.store.model.GroupChange): the run history, kept across
# full runs; ``detail`` is JSON (rows added and removed, merges, splits), LONGTEXT on MySQL
run_changes = sa.Table(
    "dedup_run_changes", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("run_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("group_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kinds", sa.String(64), nullable=False),  # comma-separated, CHANGE_KINDS order
    sa.Column("detail", sa.Text().with_variant(LONGTEXT(), "mysql", "mariadb"), nullable=False),
)

tables = sa.Table(
    "dedup_tables", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("version", sa.Text, nullable=True),  # NULL until a run finishes (a lock can come first)
    sa.Column("watermark", sa.Text, nullable=True),
    sa.Column("updated_at", sa.DateTime, nullable=True),
    sa.Column("lock_owner", sa.String(128), nullable=True),
    sa.Column("lock_expires", sa.DateTime, nullable=True),
    sa.Column("max_group_id", sa.Integer, nullable=False, server_default="0"),
)

decisions = sa.Table(
    "dedup_decisions", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("key_a", KEY, primary_key=True),  # the lower key (dedup.index.keys order)
    sa.Column("key_b", KEY, primary_key=True),
    sa.Column("verdict", sa.String(16), nullable=False),  # same, different
    sa.Column("decided_at", sa.DateTime, nullable=True),
    sa.Column("source", sa.String(16), nullable=True),  # decide, review, calibrate, import
    sa.Column("similarity", sa.Float, nullable=True),
    sa.Column("applied_run", sa.Integer, nullable=True),  # NULL: the stored groups do not reflect it yet
    sa.Column("reviewer", sa.String(128), nullable=True),  # revision 0010: who, a note, the action
    sa.Column("note", sa.Text, nullable=True),
    sa.Column("action_id", sa.String(64), nullable=True),
)

# reviewers' actions (dedup.index.decisions.Action; revision 0010): ``detail`` is JSON (keys,
# groups, the decisions replaced); ids sort in time order
actions = sa.Table(
    "dedup_actions", metadata,
    sa.Column("table_name", NAME, primary_key=True),
    sa.Column("action_id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("reviewer", sa.String(128), nullable=True),
    sa.Column("at", sa.DateTime, nullable=False),
    sa.Column("note", sa.Text, nullable=True),
    sa.Column("detail", sa.Text().with_variant(LONGTEXT(), "mysql", "mariadb"), nullable=False),
    sa.Column("undone_at", sa.DateTime, nullable=True),
    sa.Column("undone_by", sa.String(128), nullable=True),
)

# reviewers' notes on groups, by group id (revision 0010)
group_notes = sa.Table(
    "dedup_group_notes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_name", NAME, nullable=False),
    sa.Column("group_id", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("reviewer", sa.String(128), nullable=True),
    sa.Column("at", sa.DateTime, nullable=False),
    sa.Index("ix_dedup_group_notes_group", "table_name", "group_id"),
)

# a full run replaces these; decisions outlive it (they are a person's work, not a run's result)
PER_TABLE = (blocks, fingerprints, pairs, groups, members, skipped, term_counts)

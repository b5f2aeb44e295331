"""Versioned index and layout steps of the MongoDB store, applied in order by `dedup migrate`.

The applied version is the ``dedup_meta`` document ``{_id: "schema", version: N}``. A step must
be idempotent (creating an index that exists is a no-op), because a step interrupted part way is
run again. Never change a released step: add a new one. Block collections are per table
(``blocks.<table>``), so a step that changes their layout loops over ``block_collections(db)``.
"""

from pymongo import ASCENDING, DESCENDING

BLOCK_PREFIX = "blocks."


def block_collections(db) -> list[str]:
    return sorted(n for n in db.list_collection_names() if n.startswith(BLOCK_PREFIX))


def block_indexes(coll) -> None:
    """The indexes of one block collection in the newest layout (used for new tables too)."""
    coll.create_index([("blockName", ASCENDING), ("seq", ASCENDING)], unique=True, name="blockName_seq")


def _v1_indexes(db) -> None:
    db.fingerprints.create_index([("table", ASCENDING), ("key", ASCENDING)], unique=True, name="table_key")
    db.groups.create_index([("table", ASCENDING), ("group_id", ASCENDING)], unique=True, name="table_group")
    db.groups.create_index([("table", ASCENDING), ("members.key", ASCENDING)], name="table_member")
    db.skipped.create_index([("table", ASCENDING), ("key", ASCENDING)], unique=True, name="table_key")
    db.runs.create_index([("table", ASCENDING), ("_id", DESCENDING)], name="table_run")
    for name in block_collections(db):
        block_indexes(db[name])


def _v2_terms(db) -> None:
    """Term document counts of full runs, ``{table, h, n}``; fingerprint documents may now carry a
    ``sketch`` (documents written before have none, which is allowed: nothing to convert)."""
    db.terms.create_index([("table", ASCENDING), ("h", ASCENDING)], unique=True, name="table_h")


def _v3_signatures(_db) -> None:
    """No-op data step: fingerprint documents now keep their sketch words, any number, as ``sig``
    (BinData, little-endian uint64 bytes) instead of the ``sketch`` list of three Int64. Documents
    written before stay readable as they are (the store reads ``sketch`` where there is no
    ``sig``), so nothing is converted; the version moves so that an older dedup, which would not
    see the ``sig`` of newer documents, refuses the store instead of reading it without sketches."""


def _v4_decisions(db) -> None:
    """Reviewers' decisions on pairs of rows, ``{table, a, b, verdict, at, source, similarity,
    applied_run}``: one per pair (a the lower key), found by either key."""
    db.decisions.create_index([("table", ASCENDING), ("a", ASCENDING), ("b", ASCENDING)], unique=True,
                              name="table_a_b")
    db.decisions.create_index([("table", ASCENDING), ("b", ASCENDING)], name="table_b")


def _v5_run_history(db) -> None:
    """The run history: ``run_changes`` holds what each run did to each group id,
    ``{table, run, group, kinds, size, added, removed, merged_from, merged_into, split_into,
    split_from}``, one document per (table, run, group); runs before this step have none."""
    db.run_changes.create_index([("table", ASCENDING), ("run", ASCENDING), ("group", ASCENDING)], unique=True,
                                name="table_run_group")


def _v6_row_watermarks(_db) -> None:
    """No-op data step: fingerprint documents (and skipped-row documents of rows read whole) now
    carry ``wm``, the row's watermark text when it was fingerprinted, which incremental runs compare in their lookback window. Documents written
    before have none and count as changed there, so the first incremental run after the upgrade
    processes the rows of its lookback window once; nothing is converted. The version moves so
    that an older dedup, which would write documents without ``wm``, refuses the store."""


def _v7_no_textname_index(db) -> None:
    """Drop the multikey index on ``info.textname`` of every block collection: each query that
    names entries by row key also names their blocks (``blockName $in``), which blockName_seq
    finds, and the index cost an entry per block entry on every write (a server keeping index
    entries in Python, as SecantusDB does, spends most of a full run's block load on them)."""
    for name in block_collections(db):
        if "info_textname" in db[name].index_information():
            db[name].drop_index("info_textname")


def _v8_reviewers_actions(db) -> None:
    """Reviewers' actions (``actions``: ``{table, id, kind, reviewer, at, note, detail, undone_at,
    undone_by}``, ids in time order) and notes on groups (``group_notes``: ``{table, group, text,
    reviewer, at}``); decision documents may now carry ``reviewer``, ``note`` and ``action`` (those
    written before have none and read as None: nothing to convert)."""
    db.actions.create_index([("table", ASCENDING), ("id", ASCENDING)], unique=True, name="table_id")
    db.group_notes.create_index([("table", ASCENDING), ("group", ASCENDING)], name="table_group")


# (version, what it does, function(db)), oldest first
STEPS = [
    (1, "indexes of blocks, fingerprints, groups, skipped rows and runs", _v1_indexes),
    (2, "unique index of term document counts (table, term hash)", _v2_terms),
    (3, "sketches of any width in fingerprint documents (sig); nothing to convert", _v3_signatures),
    (4, "decisions on pairs of rows (table, a, b), kept across full runs", _v4_decisions),
    (5, "run history: what each run did to each group (run_changes)", _v5_run_history),
    (6, "each row's watermark in its fingerprint document (wm); nothing to convert", _v6_row_watermarks),
    (7, "no index on block entries' row keys (info.textname)", _v7_no_textname_index),
    (8, "reviewers' actions and notes on groups; reviewer, note and action in decisions", _v8_reviewers_actions),
]

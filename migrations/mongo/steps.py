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


def _v4_no_textname_index(db) -> None:
    """Drop the multikey index on ``info.textname`` of every block collection: each query that
    names entries by row key also names their blocks (``blockName $in``), which blockName_seq
    finds, and the index cost an entry per block entry on every write (a server keeping index
    entries in Python, as SecantusDB does, spends most of a full run's block load on them)."""
    for name in block_collections(db):
        if "info_textname" in db[name].index_information():
            db[name].drop_index("info_textname")


# (version, what it does, function(db)), oldest first
STEPS = [
    (1, "indexes of blocks, fingerprints, groups, skipped rows and runs", _v1_indexes),
    (2, "unique index of term document counts (table, term hash)", _v2_terms),
    (3, "sketches of any width in fingerprint documents (sig); nothing to convert", _v3_signatures),
    (4, "no index on block entries' row keys (info.textname)", _v4_no_textname_index),
]

"""The SQL store's Alembic revisions: an older store is refused until `dedup migrate` upgrades it."""

import datetime as dt

import numpy as np
import pytest
import sqlalchemy as sa
from alembic import command

from dedup.errors import StoreError
from dedup.store import BlockEntries, RunRecord, TableChanges, TableSnapshot, TermCounts, migrate_store, open_store
from dedup.store.sql_migrate import _alembic_config, head_revision


def _refused_then_migrated(db_url, revision: str) -> None:
    """A store at ``revision`` is refused until `dedup migrate` brings it to the head."""
    assert head_revision() > revision
    with pytest.raises(StoreError, match=f"at revision {revision}, this dedup needs .*: run `dedup migrate`"):
        open_store(db_url)
    assert migrate_store(db_url).endswith(f"migrated from {revision} to revision {head_revision()}")


def test_older_store_is_refused_then_migrated_keeping_its_data(db_url):
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), "0001")
        conn.execute(sa.text("INSERT INTO dedup_fingerprints (table_name, row_key, fingerprint) VALUES ('t', '1', -5)"))
    engine.dispose()
    _refused_then_migrated(db_url, "0001")
    store = open_store(db_url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5}
        assert store.max_group_id("t") == 0
    finally:
        store.close()


def _store_at(db_url, revision):
    """A store whose schema an older dedup made, with a table's fingerprints, a group and its state."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), revision)
        conn.execute(sa.text("INSERT INTO dedup_fingerprints (table_name, row_key, fingerprint) "
                             "VALUES ('t', '1', -5), ('t', '2', 7)"))
        conn.execute(sa.text("INSERT INTO dedup_groups (table_name, group_id, size, created_run, updated_run) "
                             "VALUES ('t', 3, 2, 1, 1)"))
        conn.execute(sa.text("INSERT INTO dedup_group_members (table_name, row_key, group_id, distance) "
                             "VALUES ('t', '1', 3, 0), ('t', '2', 3, 2)"))
        conn.execute(sa.text("INSERT INTO dedup_tables (table_name, version, max_group_id) "
                             "VALUES ('t', '{\"max_distance\": 3}', 3)"))
    return engine


def test_a_0002_store_gets_sketches_and_term_counts_keeping_its_data(db_url):
    _store_at(db_url, "0002").dispose()
    _refused_then_migrated(db_url, "0002")
    store = open_store(db_url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
        assert [(g.id, g.keys) for g in store.groups("t")] == [(3, ["1", "2"])] and store.max_group_id("t") == 3
        assert store.state("t").version == {"max_distance": 3}
        assert store.sketches("t", ["1", "2"]) == {} and store.term_counts("t", [1, 2**64 - 1]) == {}
        run_id = store.start_run(RunRecord("t", "full", dt.datetime(2026, 1, 1)))
        store.replace_table(TableSnapshot(
            "t", run_id, ["1"], np.array([2**64 - 5], dtype=np.uint64), [], [], {"max_distance": 3}, None,
            np.array([[2**64 - 1, 2**63, 1]], dtype=np.uint64),
            TermCounts(np.array([2**64 - 1, 5], dtype=np.uint64), np.array([3, 1]))))
        assert store.sketches("t", ["1", "2"]) == {"1": (2**64 - 1, 2**63, 1)}
        assert store.term_counts("t", [5, 2**64 - 1, 6]) == {5: 1, 2**64 - 1: 3}
    finally:
        store.close()


def test_0003_downgrades_to_0002_and_back(db_url):
    engine = _store_at(db_url, "0003")
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE dedup_fingerprints SET sketch1 = -1, sketch2 = 0, sketch3 = 1 "
                                 "WHERE row_key = '1'"))
            conn.execute(sa.text("INSERT INTO dedup_term_counts (table_name, term_hash, doc_count) VALUES ('t', -1, 2)"))
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "0002")
        insp = sa.inspect(engine)
        assert "dedup_term_counts" not in insp.get_table_names()
        assert {c["name"] for c in insp.get_columns("dedup_fingerprints")} == {"table_name", "row_key", "fingerprint"}
    finally:
        engine.dispose()
    assert migrate_store(db_url).endswith(f"migrated from 0002 to revision {head_revision()}")
    store = open_store(db_url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
        assert store.sketches("t", ["1", "2"]) == {} and store.term_counts("t", [2**64 - 1]) == {}
    finally:
        store.close()


def _add_row(store, key: str, fp: int, sketch) -> None:
    """An incremental run adding one row of table t with this sketch (any width)."""
    run_id = store.start_run(RunRecord("t", "incremental", dt.datetime(2026, 1, 1)))
    store.apply_changes(TableChanges("t", run_id, [], BlockEntries(), [key], np.array([fp], dtype=np.uint64), [], [],
                                     [], {"max_distance": 3}, None, np.array([sketch], dtype=np.uint64)))


def test_a_0003_store_with_sketches_migrates_and_reads_them_beside_wider_ones(db_url):
    engine = _store_at(db_url, "0003")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE dedup_fingerprints SET sketch1 = -1, sketch2 = -9223372036854775808, sketch3 = 1 "
                             "WHERE row_key = '1'"))
    engine.dispose()
    _refused_then_migrated(db_url, "0003")
    store = open_store(db_url)
    try:
        assert store.sketches("t", ["1", "2"]) == {"1": (2**64 - 1, 2**63, 1)}
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
        wide = np.arange(36, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        _add_row(store, "3", 9, wide)
        assert store.sketches("t", ["1", "2", "3"]) == {"1": (2**64 - 1, 2**63, 1), "3": tuple(map(int, wide))}
    finally:
        store.close()


def _downgraded(db_url, revision: str):
    """Downgrade the store to ``revision``; returns an inspector of what is left (read at once)."""
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), revision)
        insp = sa.inspect(engine)
        insp.get_table_names(), insp.get_columns("dedup_fingerprints")  # cached before the engine goes
        return insp
    finally:
        engine.dispose()


def test_0004_downgrades_to_0003_and_back(db_url):
    _store_at(db_url, "0003").dispose()
    migrate_store(db_url)
    store = open_store(db_url)
    try:
        _add_row(store, "3", 9, [1, 2, 3, 4])
    finally:
        store.close()
    insp = _downgraded(db_url, "0003")
    assert "signature" not in {c["name"] for c in insp.get_columns("dedup_fingerprints")}
    assert migrate_store(db_url).endswith(f"migrated from 0003 to revision {head_revision()}")
    store = open_store(db_url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5, "2": 7, "3": 9}
        assert store.sketches("t", ["1", "2", "3"]) == {}
    finally:
        store.close()


def test_a_0004_store_gains_a_run_history_and_downgrades_to_0004_and_back(db_url):
    from dedup.store import GroupChange

    _store_at(db_url, "0004").dispose()
    _refused_then_migrated(db_url, "0004")
    store = open_store(db_url)
    big = [str(i) for i in range(20_000)]  # a mass petition's rows: more than TEXT's 64 KB on MySQL
    try:
        assert store.run_changes("t", 1) == []
        run_id = store.start_run(RunRecord("t", "incremental", dt.datetime(2026, 1, 1)))
        change = GroupChange(3, ["grown", "merged"], 20_002, big, ["9"], merged_from=[4])
        store.apply_changes(TableChanges("t", run_id, [], BlockEntries(), [], np.zeros(0, dtype=np.uint64), [], [], [],
                                         {"max_distance": 3}, None, changes=[change]))
        assert store.run_changes("t", run_id) == [change]
    finally:
        store.close()
    assert "dedup_run_changes" not in _downgraded(db_url, "0004").get_table_names()
    assert migrate_store(db_url).endswith(f"migrated from 0004 to revision {head_revision()}")
    store = open_store(db_url)
    try:
        assert store.run_changes("t", run_id) == [] and store.fingerprints("t") == {"1": 2**64 - 5, "2": 7}
    finally:
        store.close()


def test_0008_keeps_keys_that_differ_in_case_apart_and_downgrades(db_url):
    """On MariaDB the store before 0008 takes 'a' and 'A' for one key; at 0008 they are two rows, and
    the other databases (which always compared exactly) are unchanged."""
    engine = sa.create_engine(db_url)
    insert = sa.text("INSERT INTO dedup_fingerprints (table_name, row_key, fingerprint) VALUES ('t', :k, 1)")
    try:
        with engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "0007")
            conn.execute(insert, {"k": "a"})
        mysql = engine.dialect.name in ("mysql", "mariadb")
        if mysql:
            with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
                conn.execute(insert, {"k": "A"})
        assert migrate_store(db_url).endswith(f"migrated from 0007 to revision {head_revision()}")
        with engine.begin() as conn:
            conn.execute(insert, {"k": "A"})
            conn.execute(insert, {"k": "a "})
            keys = conn.execute(sa.text("SELECT row_key FROM dedup_fingerprints WHERE row_key = 'a'")).scalars().all()
        assert keys == ["a"]
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM dedup_fingerprints WHERE row_key <> 'a'"))
            command.downgrade(_alembic_config(conn), "0007")
        assert migrate_store(db_url).endswith(f"migrated from 0007 to revision {head_revision()}")
    finally:
        engine.dispose()


def test_0009_keeps_block_entries_in_one_btree_on_sqlite_and_downgrades(db_url):
    """0009 rebuilds SQLite's block table WITHOUT ROWID with its entries, which the store then
    reads and replaces as before; downgrading and upgrading again keeps them too. Other databases
    are left as they were."""
    engine = _store_at(db_url, "0008")
    insert = sa.text("INSERT INTO dedup_blocks (table_name, block_name, textname, hashcode) VALUES ('t', :n, :k, :h)")
    entries = [("b0:00ff", "2", 7), ("b0:00ff", "1", -5), ("i0:0a", "1", -5)]
    sqlite = engine.dialect.name == "sqlite"

    def layout() -> str:
        with engine.connect() as conn:
            return conn.execute(sa.text("SELECT sql FROM sqlite_master WHERE name = 'dedup_blocks'")).scalar_one()

    try:
        with engine.begin() as conn:
            conn.execute(insert, [{"n": n, "k": k, "h": h} for n, k, h in entries])
        _refused_then_migrated(db_url, "0008")
        if sqlite:
            assert "WITHOUT ROWID" in layout()
        store = open_store(db_url)
        try:
            got = store.block_entries("t", ["b0:00ff", "i0:0a"])
            assert {n: sorted(e) for n, e in got.items()} == {
                "b0:00ff": [(7, "2"), ((1 << 64) - 5, "1")], "i0:0a": [((1 << 64) - 5, "1")]}
        finally:
            store.close()
        _downgraded(db_url, "0008")
        if sqlite:
            assert "WITHOUT ROWID" not in layout()
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT COUNT(*) FROM dedup_blocks")).scalar_one() == 3
        assert migrate_store(db_url).endswith(f"migrated from 0008 to revision {head_revision()}")
    finally:
        engine.dispose()

"""One contract, every store: the SQL store on SQLite, PostgreSQL and MariaDB."""

import datetime as dt

import numpy as np
import pytest
import sqlalchemy as sa

from dedup.blocks import BlockLayout
from dedup.errors import StoreError
from dedup.groups import Group, Pair
from dedup.store import RunRecord, Skipped, TableSnapshot, open_store

EDGE_FPS = [0, 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 5, (1 << 64) - 1]  # across the signed boundary
VERSION = {"max_distance": 3, "hash": "CityHash64", "fields": [["content", "text", 1.0]]}


@pytest.fixture
def store_url(db_url):
    return db_url


@pytest.fixture
def store(store_url):
    s = open_store(store_url)
    yield s
    s.close()


def snapshot(table="petitions", keys=None, fps=None, groups=None, skipped=None, watermark=None):
    keys = keys if keys is not None else [str(i) for i in range(1, len(EDGE_FPS) + 1)]
    fps = np.array(fps if fps is not None else EDGE_FPS, dtype=np.uint64)
    groups = groups if groups is not None else [
        Group(1, ["1", "2"], [0, 1], [Pair("1", "2", 1)]),
        Group(2, ["4", "5", "6"], [0, 2, 62], [Pair("4", "5", 2), Pair("5", "6", 3)]),
    ]
    run = RunRecord(table, "full", dt.datetime(2026, 1, 1), dt.datetime(2026, 1, 1, 0, 1), "ok", {"rows": len(keys)})
    skipped = skipped if skipped is not None else [Skipped("9", "no_features", "every field is empty")]
    return TableSnapshot(table, keys, fps, groups, skipped,
                         VERSION, watermark, run)


def test_fingerprints_round_trip_exactly_across_2_63(store):
    store.replace_table(snapshot())
    got = store.fingerprints("petitions")
    assert got == {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
    assert all(isinstance(v, int) and 0 <= v < 1 << 64 for v in got.values())


def test_block_entries_by_name(store):
    store.replace_table(snapshot())
    layout = BlockLayout.for_distance(3)
    top = (1 << 63) + 5
    names = layout.names(top)
    got = store.block_entries("petitions", names + ["0:dead"])
    assert (top, "5") in got[names[0]]
    assert "0:dead" not in got
    # every fingerprint sits in exactly k+1 blocks
    every = store.block_entries("petitions", sorted({n for fp in EDGE_FPS for n in layout.names(fp)}))
    entries = [e for es in every.values() for e in es]
    assert len(entries) == 4 * len(EDGE_FPS) and len(set(entries)) == len(EDGE_FPS)


def test_groups_skipped_state_and_runs(store):
    store.replace_table(snapshot(watermark={"type": "datetime", "value": "2024-01-01T00:00:00"}))
    groups = store.groups("petitions")
    assert [(g.id, g.keys, g.distances) for g in groups] == [(1, ["1", "2"], [0, 1]), (2, ["4", "5", "6"], [0, 2, 62])]
    assert groups[1].pairs == [Pair("4", "5", 2), Pair("5", "6", 3)]
    assert store.skipped("petitions") == [Skipped("9", "no_features", "every field is empty")]
    st = store.state("petitions")
    assert st.version == VERSION and st.watermark == {"type": "datetime", "value": "2024-01-01T00:00:00"}
    runs = store.runs("petitions")
    assert [(r.kind, r.status, r.summary) for r in runs] == [("full", "ok", {"rows": 6})]


def test_replace_replaces_and_leaves_other_tables_alone(store):
    store.replace_table(snapshot())
    store.replace_table(snapshot(table="other", keys=["a"], fps=[7], groups=[], skipped=[]))
    store.replace_table(snapshot(keys=["1", "2"], fps=[10, 11], groups=[Group(1, ["1", "2"], [0, 1], [Pair("1", "2", 1)])],
                                 skipped=[]))
    assert store.fingerprints("petitions") == {"1": 10, "2": 11}
    assert [g.keys for g in store.groups("petitions")] == [["1", "2"]]
    assert store.skipped("petitions") == []
    assert store.fingerprints("other") == {"a": 7}
    assert len(store.runs("petitions")) == 2


def test_a_failed_replace_keeps_the_previous_result(store):
    store.replace_table(snapshot())
    broken = snapshot(keys=["1", "1"], fps=[1, 2], groups=[], skipped=[])  # duplicate key: the insert fails
    with pytest.raises(StoreError):
        store.replace_table(broken)
    assert store.fingerprints("petitions") == {str(i): fp for i, fp in enumerate(EDGE_FPS, 1)}
    assert len(store.groups("petitions")) == 2


def test_unknown_table_is_empty(store):
    assert store.state("nothing") is None
    assert store.groups("nothing") == [] and store.fingerprints("nothing") == {} and store.runs("nothing") == []


# --- SQL store: migrations --------------------------------------------------------------------

def test_schema_from_migrations_matches_the_live_schema(store_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from dedup.store.sql_schema import metadata

    s = open_store(store_url)
    with s.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": False})
        diff = [d for d in compare_metadata(ctx, metadata)
                if not (d[0] == "remove_table" and d[1].name == "dedup_alembic_version")]
    s.close()
    assert diff == []


def test_migrate_command_and_newer_schema_refused(store_url):
    from dedup.store import migrate_store
    from dedup.store.sql_migrate import VERSION_TABLE, head_revision

    assert migrate_store(store_url).endswith(f"migrated from empty to revision {head_revision()}")
    assert "up to date" in migrate_store(store_url)
    engine = sa.create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(sa.table(VERSION_TABLE, sa.column("version_num")).update().values(version_num="9999"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer than this dedup knows"):
        open_store(store_url)

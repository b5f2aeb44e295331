"""The SQL store's Alembic revisions: an older store is refused until `dedup migrate` upgrades it."""

import pytest
import sqlalchemy as sa
from alembic import command

from dedup.errors import StoreError
from dedup.store import migrate_store, open_store
from dedup.store.sql_migrate import _alembic_config, head_revision


def test_older_store_is_refused_then_migrated_keeping_its_data(db_url):
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), "0001")
        conn.execute(sa.text("INSERT INTO dedup_fingerprints (table_name, row_key, fingerprint) VALUES ('t', '1', -5)"))
    engine.dispose()
    with pytest.raises(StoreError, match="at revision 0001, this dedup needs .*: run `dedup migrate`"):
        open_store(db_url)
    assert migrate_store(db_url).endswith(f"migrated from 0001 to revision {head_revision()}")
    store = open_store(db_url)
    try:
        assert store.fingerprints("t") == {"1": 2**64 - 5}
        assert store.max_group_id("t") == 0
    finally:
        store.close()

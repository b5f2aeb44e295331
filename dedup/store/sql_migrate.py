"""Applying and checking the SQL store's Alembic revisions from inside dedup."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from ..errors import StoreError

VERSION_TABLE = "dedup_alembic_version"


# The repository keeps migrations/ at the top level; installed (wheel or editable), it is the
# package dedup._migrations, so Alembic finds the revisions as package data wherever dedup runs.
SCRIPT_LOCATION = "dedup._migrations:sql"


def _alembic_config(connection=None) -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def current_revision(conn: sa.Connection) -> str | None:
    return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


def upgrade(engine: sa.Engine) -> tuple[str | None, str]:
    """Bring the store's schema to the newest revision; returns (before, after)."""
    with engine.begin() as conn:
        before = current_revision(conn)
        command.upgrade(_alembic_config(conn), "head")
        return before, head_revision()


def ensure_schema(engine: sa.Engine) -> None:
    """Create the schema in an empty store; refuse a store at another revision than this dedup's."""
    head = head_revision()
    with engine.connect() as conn:
        current = current_revision(conn)
    if current == head:
        return
    if current is None:
        upgrade(engine)
        return
    known = {s.revision for s in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}
    if current in known:
        raise StoreError(f"the store's schema is at revision {current}, this dedup needs {head}: run `dedup migrate`")
    raise StoreError(f"the store's schema (revision {current}) is newer than this dedup knows: upgrade dedup")

"""Alembic environment for the SQL store: always run from dedup with a live connection."""

from alembic import context

VERSION_TABLE = "dedup_alembic_version"

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run SQL store migrations through `dedup migrate`, not the alembic command")

context.configure(connection=connection, target_metadata=None, version_table=VERSION_TABLE)
with context.begin_transaction():
    context.run_migrations()

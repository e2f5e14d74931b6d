"""Alembic environment of the campaign database: always run by `jdr.campaign.db.migrate` on a
connection it passes in `config.attributes["connection"]` (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from jdr.campaign.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  version_table="jdr_alembic_version", render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

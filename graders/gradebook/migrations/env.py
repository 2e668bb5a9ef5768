"""Alembic's environment for the gradebook: run on the connection the gradebook opened
(``config.attributes["connection"]``), never from an ini file."""

from __future__ import annotations

from alembic import context

from graders.gradebook.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()

"""Alembic environment of the table server.  ``stich serve`` runs the migrations itself at start-up
(:func:`stich.web.store.migrate`) and hands this file the connection to use."""

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("stich runs its migrations at start-up: run 'stich serve --db ...' instead of alembic")

context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

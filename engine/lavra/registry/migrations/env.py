"""Alembic environment, configured programmatically by lavra.registry.database.

The caller passes an open connection (already inside its transaction) in
``config.attributes["connection"]``; every revision then runs in that transaction.
Offline mode (``--sql``) renders the DDL for a URL given as ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from lavra.registry.name_index import include_object
from lavra.registry.tables import metadata


def run_offline() -> None:
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=metadata,
        include_object=include_object,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("lavra migrations need a connection in config.attributes")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        include_object=include_object,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

"""Migrations 0002 and 0003 create exactly the account and session tables the web
application declares, and go down again."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, inspect

from lavra.registry.database import alembic_config, database_url
from lavra.registry.name_index import include_object
from lavra.registry.store import open_registry
from lavra.registry.tables import metadata
from lavra.registry.webshared import shared_metadata
from lavra.web.users import users_metadata


def test_migration_matches_the_tables_and_goes_down(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    open_registry(url).close()
    combined = MetaData()
    for table in (*metadata.tables.values(), *users_metadata.tables.values(),
                      *shared_metadata.tables.values()):
        table.to_metadata(combined)
    raw = create_engine(url)
    with raw.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"include_object": include_object})
        assert context.get_current_heads() == ("0027",)
        assert compare_metadata(context, combined) == []
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0014")
        tables = set(inspect(connection).get_table_names())
        assert "web_attempts" not in tables and "web_batch_jobs" not in tables
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0009")
        assert "batch_corrections" not in set(inspect(connection).get_table_names())
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0008")
        assert "drafts" not in set(inspect(connection).get_table_names())
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0005")
        tables = set(inspect(connection).get_table_names())
        assert "licences" not in tables and "state_changes" not in tables
        assert "batch_runs" in tables
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0003")
        tables = set(inspect(connection).get_table_names())
        columns = {column["name"] for column in inspect(connection).get_columns("events")}
        assert "staff_values" not in tables and "web_sessions" in tables
        assert "occurred_at" not in columns and "detail" in columns
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0002")
        tables = set(inspect(connection).get_table_names())
        assert "web_sessions" not in tables and "users" in tables
    with raw.begin() as connection:
        command.downgrade(alembic_config(connection), "0001")
        tables = set(inspect(connection).get_table_names())
        assert "users" not in tables and "api_tokens" not in tables and "documents" in tables
    raw.dispose()

"""The registry's search by name served by an index (lavra.registry.name_index): each
party's name kept folded (``party_names.search_name``: no accents, case folded), filled
here for the names written before; on SQLite an FTS5 trigram table over it
(``party_names_fts``) kept current by triggers; on PostgreSQL a GIN trigram index
(``pg_trgm``), or, where the extension cannot be created, a line in the log and the
search without an index.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.exc import DBAPIError

from lavra.errors import ConfigError
from lavra.registry.name_index import FTS_TABLE, TRIGRAM_INDEX, fold_name

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LOG = logging.getLogger("lavra.registry")

_TRIGGERS = {
    f"{FTS_TABLE}_ai": f"""AFTER INSERT ON party_names BEGIN
        INSERT INTO {FTS_TABLE}(rowid, search_name) VALUES (new.id, new.search_name);
    END""",
    f"{FTS_TABLE}_ad": f"""AFTER DELETE ON party_names BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, search_name)
        VALUES ('delete', old.id, old.search_name);
    END""",
    f"{FTS_TABLE}_au": f"""AFTER UPDATE ON party_names BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, search_name)
        VALUES ('delete', old.id, old.search_name);
        INSERT INTO {FTS_TABLE}(rowid, search_name) VALUES (new.id, new.search_name);
    END""",
}


def _sqlite_index(connection: sa.Connection) -> None:
    try:
        connection.exec_driver_sql(
            f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(search_name, "
            "content='party_names', content_rowid='id', tokenize='trigram')")
    except DBAPIError:
        raise ConfigError(
            "O SQLite desta instalação não tem a busca textual FTS5 com trigramas "
            f"(SQLite 3.34 ou posterior; esta é a {_sqlite_version(connection)}), "
            "de que o registro precisa para buscar por nome. Atualize o SQLite do Python "
            "ou use PostgreSQL.") from None
    for name, body in _TRIGGERS.items():
        connection.exec_driver_sql(f"CREATE TRIGGER {name} {body}")
    connection.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")


def _sqlite_version(connection: sa.Connection) -> str:
    return str(connection.exec_driver_sql("SELECT sqlite_version()").scalar())


def _trigram_index(connection: sa.Connection) -> None:
    try:
        with connection.begin_nested():
            connection.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DBAPIError as error:
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0]
        LOG.warning(
            "Busca por nome sem índice: a extensão pg_trgm do PostgreSQL não pôde ser "
            "criada (%s). O registro busca por nome lendo a tabela party_names inteira. "
            "Para indexá-la, um administrador do banco executa: CREATE EXTENSION pg_trgm; "
            "CREATE INDEX %s ON party_names USING gin (search_name gin_trgm_ops);",
            reason, TRIGRAM_INDEX)
        return
    op.create_index(TRIGRAM_INDEX, "party_names", ["search_name"], postgresql_using="gin",
                    postgresql_ops={"search_name": "gin_trgm_ops"})


def upgrade() -> None:
    with op.batch_alter_table("party_names") as batch:
        batch.add_column(sa.Column("search_name", sa.Text(), nullable=True))
    names = sa.table("party_names", sa.column("id", sa.Integer),
                     sa.column("name", sa.String), sa.column("search_name", sa.Text))
    connection = op.get_bind()
    for ident, name in connection.execute(sa.select(names.c.id, names.c.name)).all():
        connection.execute(sa.update(names).where(names.c.id == ident)
                           .values(search_name=fold_name(name)))
    with op.batch_alter_table("party_names") as batch:
        batch.alter_column("search_name", existing_type=sa.Text(), nullable=False)
    if connection.dialect.name == "sqlite":
        _sqlite_index(connection)
    elif connection.dialect.name == "postgresql":
        _trigram_index(connection)


def downgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        for name in _TRIGGERS:
            connection.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}")
        connection.exec_driver_sql(f"DROP TABLE IF EXISTS {FTS_TABLE}")
    elif connection.dialect.name == "postgresql":  # pg_trgm stays: others may use it
        connection.exec_driver_sql(f"DROP INDEX IF EXISTS {TRIGRAM_INDEX}")
    with op.batch_alter_table("party_names") as batch:
        batch.drop_column("search_name")

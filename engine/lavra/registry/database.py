"""The registry's database: its URL, the engine (SQLite or PostgreSQL), migrations, errors.

Storage is a SQLite file ``<data_dir>/registro.sqlite3`` by default (WAL mode, with a
busy timeout so concurrent processes wait for each other), or PostgreSQL when
``LAVRA_DATABASE_URL`` (or the URL passed in) says so. The schema is owned by the
Alembic migrations shipped in :mod:`lavra.registry.migrations`; :func:`migrate` brings
it to head, one process at a time. :func:`database_errors` turns SQLAlchemy and driver
errors into :class:`LavraError` with a pt-BR message.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DataError,
    IntegrityError,
    OperationalError,
    SQLAlchemyError,
)

from lavra.errors import ConfigError, LavraError

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "DATABASE_URL_ENV",
    "MIGRATIONS_DIR",
    "SQLITE_FILE",
    "STATE_BUILD_LOCK",
    "WRITE_OPTION",
    "Conflict",
    "ValueRefused",
    "alembic_config",
    "database_errors",
    "database_url",
    "engine_for",
    "lock_for_transaction",
    "migrate",
]

DATABASE_URL_ENV = "LAVRA_DATABASE_URL"
SQLITE_FILE = "registro.sqlite3"
BUSY_TIMEOUT_SECONDS = 60
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
WRITE_OPTION = "lavra_registry_write"
_SUPPORTED_DIALECTS = ("sqlite", "postgresql")
_MIGRATION_LOCK = 7_411_913  # PostgreSQL advisory lock taken while migrating
STATE_BUILD_LOCK = 7_411_914  # PostgreSQL advisory lock taken while building the state


def database_url(data_dir: Path) -> str:
    """``LAVRA_DATABASE_URL`` when set, else the SQLite file in the data folder."""
    named = os.environ.get(DATABASE_URL_ENV, "").strip()
    if named:
        return named
    path = Path(data_dir).resolve() / SQLITE_FILE
    return URL.create("sqlite", database=str(path)).render_as_string()



class Conflict(LavraError):
    """A uniqueness or integrity conflict in the database."""

    def __init__(self, what: str) -> None:
        super().__init__(f"Conflito no registro de documentos: {what}.")
        self.what = what


class ValueRefused(LavraError):
    """The database refused a value (too long for its column, out of range): the
    message says which kind of value, never the SQL statement."""


def _refusal(error: DataError) -> ValueRefused:
    text_ = str(error.orig)
    found = re.search(r"character varying\((\d+)\)", text_)
    if found is not None:
        return ValueRefused(
            "O registro recusou um valor: um texto deste documento (um nome, por exemplo) "
            f"excede o tamanho que o registro admite, de até {found.group(1)} caracteres. "
            "Corrija o dado e tente de novo."
        )
    if "out of range" in text_.lower():
        return ValueRefused("O registro recusou um valor: um número deste documento está "
                            "fora do intervalo que o registro admite.")
    return ValueRefused("O registro recusou um valor deste documento, em formato ou tamanho "
                        "que ele não admite.")


@contextmanager
def database_errors() -> Iterator[None]:
    """SQLAlchemy and driver errors → LavraError with a pt-BR message."""
    try:
        yield
    except IntegrityError as error:
        text_ = str(error.orig).lower()
        if "uq_licences_vehicle_in_force" in text_ or "licences.vehicle_id" in text_:
            raise Conflict("outro ato concedeu, no mesmo instante, licença em vigor ao mesmo "
                           "veículo; confira o cadastro do veículo") from None
        if "uq_licences_holder_in_force" in text_ or "licences.holder_id" in text_:
            raise Conflict("outro ato concedeu, no mesmo instante, licença em vigor à mesma "
                           "pessoa; confira o cadastro da pessoa") from None
        if "uq_vehicles_renavam" in text_ or "vehicles.renavam" in text_:
            raise Conflict("outro ato registrou, no mesmo instante, o mesmo RENAVAM em outra "
                           "placa; confira a placa e o RENAVAM") from None
        if "verification_code" in text_:
            raise Conflict("o código de verificação já existe em outro documento") from None
        if "idempotency_key" in text_:
            raise Conflict("a chave de idempotência já está em uso") from None
        if "number" in text_ or "series" in text_:
            raise Conflict("o número já consta do registro") from None
        raise Conflict("violação de unicidade ou integridade") from None
    except OperationalError as error:
        if "locked" in str(error.orig).lower() or "busy" in str(error.orig).lower():
            raise LavraError(
                "O registro de documentos está ocupado por outra operação; tente novamente."
            ) from None
        raise LavraError(f"Falha de acesso ao registro de documentos: {error.orig}.") from None
    except DataError as error:
        raise _refusal(error) from None
    except SQLAlchemyError as error:
        # Never the statement (str(error) carries the SQL and its parameters).
        kind = type(getattr(error, "orig", None) or error).__name__
        raise LavraError(f"Falha no registro de documentos ({kind}).") from None



# ============================================================================ opening
def _sqlite_connect(dbapi_connection: Any, record_of: Any) -> None:
    # Let SQLAlchemy emit BEGIN (see _sqlite_begin); pysqlite's own is deferred only.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # Writers take the writer lock at BEGIN, before reading the counter; readers do not.
    immediate = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def engine_for(url: str) -> Engine:
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"Informe o endereço do banco de dados do registro ({DATABASE_URL_ENV}).")
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        raise ConfigError(
            f"Endereço de banco de dados inválido: «{url}». Exemplos: "
            "sqlite:////var/lib/lavra/registro.sqlite3 ou postgresql://usuario@servidor/lavra."
        ) from None
    backend = parsed.get_backend_name()
    if backend not in _SUPPORTED_DIALECTS:
        raise ConfigError(
            f"Banco de dados não suportado pelo registro: {backend}. Use SQLite ou PostgreSQL."
        )
    try:
        if backend == "sqlite":
            if not parsed.database or parsed.database == ":memory:" or parsed.database.startswith(
                "file:"
            ):
                raise ConfigError(
                    "O registro em SQLite precisa de um arquivo (por exemplo "
                    "sqlite:////var/lib/lavra/registro.sqlite3)."
                )
            Path(parsed.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        else:
            # pre-ping: a SELECT 1 at each checkout (≈ 0.05 ms of CPU; a batch worker
            # checks out two per document), so that a connection the server ended is
            # replaced before use (tests/test_registry_connections.py). psycopg's
            # prepare_threshold stays at its default (5): without prepared statements the
            # worker spends ≈ 1 ms more per document, and the server ≈ 1.5; preparing
            # every statement at once (0) measured no better.
            engine = create_engine(parsed, pool_pre_ping=True)
    except OSError as error:
        raise ConfigError(
            f"Não foi possível criar a pasta do registro ({error.filename}): {error.strerror}."
        ) from None
    except (ArgumentError, ImportError) as error:
        raise ConfigError(
            f"Não foi possível usar o banco de dados «{parsed.render_as_string()}»: {error}."
        ) from None
    return engine


def alembic_config(connection: Connection) -> AlembicConfig:
    """An Alembic configuration over the shipped migrations, bound to ``connection``."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


#: An empty SQLite registry brought to head by the migrations, the first time in this
#: process: its statements (schema in creation order, then the rows the migrations wrote).
#: A later empty SQLite registry of the process is given the same statements instead of
#: running the migrations again (≈ 0.2 s each; the tests open hundreds of registries).
_sqlite_head: tuple[tuple[str, tuple[Any, ...]], ...] | None = None


def lock_for_transaction(connection: Connection, key: int) -> None:
    """On PostgreSQL, wait for the transaction advisory lock ``key`` (released at the
    transaction's end). SQLite needs none: a write transaction starts with ``BEGIN
    IMMEDIATE``, which already lets one writer in at a time."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` in one transaction, one process at a time."""
    global _sqlite_head
    writer = engine.execution_options(**{WRITE_OPTION: True})
    with database_errors(), writer.connect() as connection, connection.begin():
        lock_for_transaction(connection, _MIGRATION_LOCK)
        empty = (connection.dialect.name == "sqlite" and revision == "head"
                 and not connection.exec_driver_sql("SELECT 1 FROM sqlite_master").first())
        if empty and _sqlite_head is not None:
            for statement, parameters in _sqlite_head:
                connection.exec_driver_sql(statement, parameters)
            return
        command.upgrade(alembic_config(connection), revision)
        if empty:
            _sqlite_head = _sqlite_statements(connection)


def _sqlite_statements(connection: Connection) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """What recreates this SQLite database: its schema in creation order, then its rows.

    A virtual table (the FTS5 name index) makes its own shadow tables (``<name>_data``,
    ``_idx``, ``_config``…) and their rows when created: they are left out, or the copy
    would create them twice."""
    objects = list(connection.exec_driver_sql(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
        "ORDER BY rowid"))
    virtual = [name for (_, name, sql) in objects
               if sql and sql.upper().startswith("CREATE VIRTUAL TABLE")]

    def shadow(kind: str, name: str) -> bool:
        return kind == "table" and any(name.startswith(f"{table}_") for table in virtual)

    found: list[tuple[str, tuple[Any, ...]]] = [
        (sql, ()) for (kind, name, sql) in objects
        if sql is not None and not shadow(kind, name)]
    tables = [name for (kind, name, _) in objects
              if kind == "table" and name not in virtual and not shadow(kind, name)]
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        for row in connection.exec_driver_sql(f"SELECT * FROM {quoted}"):
            marks = ", ".join("?" * len(row))
            found.append((f"INSERT INTO {quoted} VALUES ({marks})", tuple(row)))
    return tuple(found)



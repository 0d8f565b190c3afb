"""The registry's connections to PostgreSQL (lavra.registry.database.engine_for).

A connection the server ended (a restart, an administrator's pg_terminate_backend) while
it waited in the pool is noticed before it is used (the pool's pre-ping): the next read
gets a new connection and its answer, not an error.
"""

from __future__ import annotations

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from lavra.registry.store import open_registry


def _end_connections(url: str) -> int:
    """Ends, from another connection, every other connection to ``url``'s database."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            return len(connection.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()"),
                {"name": make_url(url).database}).all())
    finally:
        admin.dispose()


def test_a_connection_the_server_ended_is_replaced_before_the_next_read(
        postgres_url: str) -> None:
    with open_registry(postgres_url) as registry:
        assert registry.get("alvara", 2026, 1) is None  # a pooled connection now
        assert _end_connections(postgres_url) >= 1
        assert registry.get("alvara", 2026, 1) is None  # a new one, no error
        with registry.engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar_one() == 1


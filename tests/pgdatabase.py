"""A PostgreSQL database of its own, created on a server and dropped afterwards: for the
test fixtures (tests/conftest.py) and the benchmarks (bench/), which share it."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

__all__ = ["new_database"]


@contextlib.contextmanager
def new_database(server: str, template: str | None = None, *,
                 prefix: str = "lavra") -> Iterator[str]:
    """A new database on ``server`` (a URL the role may create databases through; xdist
    workers and concurrent benchmarks never share one), copied from ``template`` if given
    (else empty), dropped afterwards even while connections to it are open. Yields its
    URL, password kept."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{template}"' if template else ""
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        try:
            yield make_url(server).set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()

"""tests/pgdatabase.py, shared by the fixtures and the benchmarks: a database of its own,
copied from a template when asked, dropped afterwards even with a connection open."""

from __future__ import annotations

from pgdatabase import new_database
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def _names(server: str) -> set[str]:
    admin = create_engine(server)
    try:
        with admin.connect() as connection:
            return set(connection.scalars(text("SELECT datname FROM pg_database")))
    finally:
        admin.dispose()


def test_a_new_database_is_copied_from_its_template_and_dropped(postgres_server: str) -> None:
    with new_database(postgres_server, prefix="lavra_modelo") as model:
        made = create_engine(model)
        with made.begin() as connection:
            connection.execute(text("CREATE TABLE marca (valor text)"))
            connection.execute(text("INSERT INTO marca VALUES ('copiado')"))
        made.dispose()
        template = make_url(model).database
        assert template is not None and template.startswith("lavra_modelo_")
        with new_database(postgres_server, template, prefix="lavra_copia") as url:
            name = make_url(url).database
            assert name is not None and name.startswith("lavra_copia_")
            assert name in _names(postgres_server)
            held = create_engine(url).connect()  # still open when the copy is dropped
            assert held.execute(text("SELECT valor FROM marca")).scalar_one() == "copiado"
        assert name not in _names(postgres_server)
        held.invalidate()
    assert template not in _names(postgres_server)

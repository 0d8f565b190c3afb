"""Alembic environment of the registry, shipped in the package (no alembic.ini).

``lavra.registry.store.open_registry`` migrates to head on every open. To write revision
0002 from a development checkout, open a scratch registry (it is then at head), change
the ORM classes in ``lavra/registry/tables.py`` and let Alembic compare them::

    from alembic import command
    from sqlalchemy import create_engine
    from lavra.registry.database import alembic_config
    from lavra.registry.store import open_registry
    open_registry("sqlite:////tmp/rascunho.sqlite3").close()
    with create_engine("sqlite:////tmp/rascunho.sqlite3").connect() as connection:
        command.revision(alembic_config(connection), "mensagem", autogenerate=True,
                         rev_id="0002")

then review the generated file: revisions are written by hand, never trusted blindly.
"""

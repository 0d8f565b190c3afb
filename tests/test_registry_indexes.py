"""The registry page's year-only and signer filters are served by an index (migration
0017): SQLite's query plan names ``ix_documents_year`` and ``ix_documents_signer_name``,
not a scan of ``documents``; the signer's name is kept at issue and filled by the
migration for the documents issued before it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from registrycases import builder
from sqlalchemy import Connection, create_engine, select, text

from lavra.registry.database import alembic_config, database_url
from lavra.registry.records import subject_cn
from lavra.registry.search import Filters, statement
from lavra.registry.store import open_registry
from lavra.registry.tables import DocumentRow

SIGNER = "Servidor de Teste"


def _plan(connection: Connection, filters: Filters) -> str:
    compiled = statement(None, filters).compile(
        dialect=connection.dialect, compile_kwargs={"literal_binds": True})
    rows = connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
    return " | ".join(str(row[-1]) for row in rows)


def test_year_and_signer_filters_use_an_index(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    with open_registry(url) as registry:
        issued = registry.issue("ALV", 2026, "alvara", builder({}))
    raw = create_engine(url)
    try:
        with raw.begin() as connection:  # as before 0017, then migrated: the name filled
            command.downgrade(alembic_config(connection), "0016")
            command.upgrade(alembic_config(connection), "head")
        with raw.connect() as connection:
            assert connection.execute(select(DocumentRow.signer_name).where(
                DocumentRow.id == issued.id)).scalar_one() == SIGNER
            year = _plan(connection, Filters(year=2026))
            assert "USING INDEX ix_documents_year (year=?)" in year, year
            signer = _plan(connection, Filters(signer=SIGNER))
            assert "USING INDEX ix_documents_signer_name (signer_name=?)" in signer, signer
            assert "SCAN documents" not in year + signer
    finally:
        raw.dispose()
    with open_registry(url) as registry:
        with registry.read_session() as session:
            found = [r.id for r in session.scalars(statement(None, Filters(signer=SIGNER)))]
            assert session.scalars(statement(None, Filters(signer="Outro"))).all() == []
        assert found == [issued.id]


def test_the_signer_name_is_the_subjects_cn() -> None:
    assert subject_cn("CN=Servidor de Teste, O=Prefeitura") == SIGNER
    assert subject_cn("2.5.4.12=Secretário,CN=Sérgio Signatário\\, Jr.") == (
        "Sérgio Signatário, Jr.")
    assert subject_cn("O=A\\,CN=B,CN=S\\C3\\A9rgio") == "Sérgio"
    assert subject_cn("importado de atos.csv, linha 2") is None

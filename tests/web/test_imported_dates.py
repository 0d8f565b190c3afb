"""The staff pages show an act imported from before lavra at its own date (issue 22):
the document's page says «ato anterior ao lavra, de DD/MM/AAAA (importado em
DD/MM/AAAA)», the registry's listing too, and its period filter finds it by that date,
not by the day of the import. Every date fixed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from test_cadastro_import import load
from webhelpers import listed, login, make_context

from lavra.registry.records import IssuedRecord
from lavra.registry.tables import DocumentRow
from lavra.web import WebContext, create_app

NOTE = "ato anterior ao lavra, de 10/02/2024 (importado em 15/01/2026)"


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    return make_context(Path(tmp_path_factory.mktemp("importados")) / "dados")


@pytest.fixture(scope="module")
def alvara(context: WebContext) -> IssuedRecord:
    context.require_issuer()
    registry = context.registry
    load(registry)
    with registry.write_session() as session:  # written on the day of the import
        session.execute(update(DocumentRow).where(DocumentRow.origin.is_not(None))
                        .values(issued_at=datetime(2026, 1, 15, 15, tzinfo=UTC)))
    found = registry.get("ALV-FRET", 2024, 31)
    assert found is not None
    return found


@pytest.fixture
def client(context: WebContext, alvara: IssuedRecord) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        assert login(test_client, "clara").status_code == 303
        yield test_client


def test_the_pages_show_the_acts_own_date(client: TestClient, alvara: IssuedRecord) -> None:
    page = client.get(f"/equipe/documentos/{alvara.id}")
    assert page.status_code == 200 and NOTE in page.text
    assert "15/01/2026 12:00" not in page.text
    assert alvara.id in listed(client, de="10/02/2024", ate="10/02/2024")
    assert listed(client, de="15/01/2026", ate="15/01/2026") == []
    assert NOTE in client.get("/equipe/registro", params={"q": alvara.printed}).text

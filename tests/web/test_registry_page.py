"""The registry page (/equipe/registro) and GET /api/documents: the latest documents with
no query, each filter and their combination, the pages keeping the filters, the finding
by printed number, code, CPF/CNPJ, plate (either form) and name, the formatted values,
and the same answers from the API. Three documents, issued once for the module at fixed
moments (the issuer's clock), so no assertion depends on today."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from webhelpers import REPO, listed, login, make_context

from lavra.registry.records import LOCAL_TZ, IssuedRecord
from lavra.web import WebContext, create_app, pages_staff
from lavra.web.issuance import signer_of

ALV = "alvara-fretamento"
ESC = "alvara-transporte-escolar"
NAME = "Viação Exemplo de Fretamento Ltda."
CNPJ = "65.563.842/0001-05"


@dataclass(frozen=True)
class Docs:
    first: IssuedRecord  # ALV-FRET, ABC1234, 29/11/2026, signed by Sérgio, in force
    second: IssuedRecord  # ALV-FRET, DEF2G34, 01/12/2026, role certificate, cancelled (now)
    school: IssuedRecord  # alvará escolar, a CPF holder, 03/12/2026
    cpf: str


def _example(form_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPO / "forms" / form_id / "exemplo.json").read_text(
        "utf-8"))
    return data


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    return make_context(Path(tmp_path_factory.mktemp("registro")) / "dados")


@pytest.fixture(scope="module")
def docs(context: WebContext) -> Docs:
    issuer = context.require_issuer()
    sergio = context.users.authenticate("sergio", "senha-de-teste-123")
    assert sergio is not None

    def at(day: date, data: dict[str, Any], form_id: str, **extra: Any) -> IssuedRecord:
        issuer.clock = lambda: datetime(day.year, day.month, day.day, 10, 30, tzinfo=LOCAL_TZ)
        return issuer.issue(form_id, data, day, **extra).record

    first = _example(ALV)
    set_vehicle(first["veiculo"], "ABC1234")
    one = at(date(2026, 11, 29), first, ALV, signer=signer_of(context, sergio, ALV))
    second = _example(ALV)
    set_vehicle(second["veiculo"], "DEF2G34")
    two = at(date(2026, 12, 1), second, ALV)
    issuer.cancel(two.formatted, "Emitido com dado incorreto do veículo.", "teste", two.series)
    school_data = _example(ESC)
    cpf = "".join(c for c in school_data["titular"]["cpf"] if c.isdigit())
    three = at(date(2026, 12, 3), school_data, ESC)
    issuer.clock = None
    return Docs(one, context.registry.get_by_id(two.id) or two, three, cpf)


@pytest.fixture
def client(context: WebContext, docs: Docs) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        assert login(test_client, "clara").status_code == 303
        yield test_client


def test_no_query_lists_the_latest_first(client: TestClient, docs: Docs) -> None:
    assert listed(client) == [docs.school.id, docs.second.id, docs.first.id]


def test_each_filter_and_their_combination(client: TestClient, docs: Docs) -> None:
    assert listed(client, formulario=ALV) == [docs.second.id, docs.first.id]
    assert listed(client, serie=docs.school.series) == [docs.school.id]
    assert listed(client, ano="2026") == [docs.school.id, docs.second.id, docs.first.id]
    assert listed(client, ano="2025") == []
    assert listed(client, situacao="cancelado") == [docs.second.id]
    assert listed(client, situacao="valido") == [docs.school.id, docs.first.id]
    assert listed(client, de="30/11/2026", ate="01/12/2026") == [docs.second.id]
    assert listed(client, ate="29/11/2026") == [docs.first.id]
    assert listed(client, signatario="Sérgio Signatário") == [docs.first.id]
    assert listed(client, formulario=ALV, situacao="valido", de="01/11/2026") == [
        docs.first.id]
    assert listed(client, q=CNPJ, situacao="cancelado") == [docs.second.id]


def test_pages_keep_the_filters(client: TestClient, docs: Docs,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_staff, "PER_PAGE", 1)
    response = client.get("/equipe/registro", params={"formulario": ALV})
    assert "página 1 de 2" in response.text
    link = re.search(r'rel="next" href="([^"]+)"', response.text)
    assert link is not None and "formulario=alvara-fretamento" in link.group(1)
    following = client.get(link.group(1).replace("&amp;", "&"))
    found = re.findall(r'href="/equipe/documentos/(\d+)"', following.text)
    assert found == [str(docs.first.id)]
    assert 'rel="prev"' in following.text and 'rel="next"' not in following.text


def test_finds_by_number_code_document_plate_and_name(client: TestClient, docs: Docs) -> None:
    assert docs.first.printed == "ALV-FRET nº 0001/2026"
    assert listed(client, q="ALV-FRET nº 0001/2026") == [docs.first.id]
    assert listed(client, q="ALV-FRET 0001/2026") == [docs.first.id]
    assert listed(client, q="alv-fret 1/2026") == [docs.first.id]
    assert listed(client, q="ALV-FRET 0009/2026") == []
    code = docs.second.verification_code
    assert "-" in code
    assert listed(client, q=code.replace("-", "").lower()) == [docs.second.id]
    masked_cpf = f"{docs.cpf[:3]}.{docs.cpf[3:6]}.{docs.cpf[6:9]}-{docs.cpf[9:]}"
    assert listed(client, q=masked_cpf) == [docs.school.id]
    assert listed(client, q=CNPJ) == [docs.second.id, docs.first.id]
    # the old plate ABC1234 converted to Mercosul is ABC1C34: the vehicle under either
    assert listed(client, q="ABC1C34") == [docs.first.id]
    for typed in ("abc-1234", " Abc 1234 ", "abc-1c34", "ABC 1C34"):  # any form, any mask
        assert listed(client, q=typed) == [docs.first.id], typed
    assert listed(client, q="exemplo de fretamento") == [docs.second.id, docs.first.id]
    assert listed(client, q="Nome que ninguém tem") == []


def test_values_are_formatted(client: TestClient, docs: Docs) -> None:
    text = client.get("/equipe/registro").text
    shown = text[text.index('id="documentos"'):text.index("</table>")]
    table = re.sub(r"<[^>]*>", " ", shown)  # what a person reads (the links hold keys)
    assert "ALV-FRET nº 0001/2026" in table
    assert CNPJ in table and "65563842000105" not in table
    assert docs.cpf not in table
    assert "29/11/2026 10:30" in table  # the moment of issue, in Brasília time
    assert re.search(r"Cancelado em \d{2}/\d{2}/\d{4}\b", table)  # cancelled at the real time
    assert "Sérgio Signatário" in table and "CN=" not in table
    assert "ABC-1234" in table
    assert not re.search(r"\d{4}-\d{2}-\d{2}", table)
    for raw in ("issued", "cancelled", ALV, ESC):
        assert raw not in table
    assert "Alvará" in table


def test_bad_filter_is_named_and_keeps_the_entry(client: TestClient) -> None:
    response = client.get("/equipe/registro", params={"de": "31/02/2026", "q": "ABC1234"})
    assert response.status_code == 200
    assert "data inicial" in response.text and "não existe no calendário" in response.text
    assert 'value="31/02/2026"' in response.text and 'value="ABC1234"' in response.text
    response = client.get("/equipe/registro", params={"de": "02/12/2026", "ate": "01/12/2026"})
    assert "data final do período é anterior" in response.text


def test_api_gives_the_same_search(client: TestClient, context: WebContext,
                                   docs: Docs) -> None:
    admin = next(user for user in context.users.all() if user.name == "clara")
    _, secret = context.users.create_token(admin.id, "teste do registro")
    headers = {"Authorization": f"Bearer {secret}"}
    cases: list[tuple[dict[str, str], dict[str, str]]] = [
        ({}, {}),
        ({"formulario": ALV, "situacao": "valido"}, {"form": ALV, "status": "issued"}),
        ({"de": "30/11/2026", "ate": "03/12/2026"},
         {"issued_from": "2026-11-30", "issued_until": "2026-12-03"}),
        ({"signatario": "Sérgio Signatário"}, {"signer": "Sérgio Signatário"}),
        ({"q": "ALV-FRET nº 0001/2026"}, {"q": "ALV-FRET nº 0001/2026"}),
        ({"q": "ABC1C34"}, {"q": "ABC1C34"}),
        ({"q": "abc-1234"}, {"q": "abc 1c34"}),
        ({"q": " ABC 1234 "}, {"q": "Abc-1C34"}),
        ({"q": "exemplo de fretamento", "ano": "2026"},
         {"q": "exemplo de fretamento", "year": "2026"}),
    ]
    for page_params, api_params in cases:
        response = client.get("/api/documents", params=api_params, headers=headers)
        assert response.status_code == 200, response.text
        ids = [item["id"] for item in response.json()]
        assert ids == listed(client, **page_params), page_params
        assert response.headers["X-Total-Count"] == str(len(ids))
    paged = client.get("/api/documents", params={"per_page": "1", "page": "2"}, headers=headers)
    assert [d["id"] for d in paged.json()] == [docs.second.id]
    assert paged.headers["X-Total-Count"] == "3"
    refused = client.get("/api/documents", params={"issued_from": "2026-12-02",
                                                   "issued_until": "2026-12-01"},
                         headers=headers)
    assert refused.status_code in (400, 422)
    assert "anterior" in refused.text

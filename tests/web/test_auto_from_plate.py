"""An auto de infração started from the vehicle's plate (issue 25): the staff form of
each auto, opened with ``?placa=``, is filled from the licensing state — the licence in
force, its holder, the vehicle as the alvará recorded it — and the agent's name and
matrícula come from the signed-in account. The application's «today» is fixed."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_person, set_vehicle
from webhelpers import PASSWORD, REPO, login, make_context

from lavra.registry.records import IssuedRecord
from lavra.web import WebContext, create_app
from lavra.web.users import Role

ESC = "auto-infracao-escolar"
FRET = "auto-infracao-fretamento"
TODAY = date(2026, 12, 1)


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> WebContext:
    made = make_context(Path(tmp_path_factory.mktemp("autoplaca")) / "dados")
    made.today = lambda: TODAY  # type: ignore[method-assign]
    made.users.add("agente", PASSWORD, Role.CLERK, full_name="Maria Agente Fiscal",
                   registration="12.345")
    return made


@pytest.fixture(scope="module")
def alvaras(context: WebContext) -> dict[str, IssuedRecord]:
    issuer = context.require_issuer()
    escolar = _example("alvara-transporte-escolar")
    set_person(escolar["titular"], "111.444.777-35")
    escolar["titular"]["nome"] = "Titular Exemplo 0007"
    set_vehicle(escolar["veiculo"], "ESC1234")  # old plate; Mercosul: ESC1C34
    fret = _example("alvara-fretamento")
    set_vehicle(fret["veiculo"], "FRT1D23")
    return {"escolar": issuer.issue("alvara-transporte-escolar", escolar, date(2026, 3, 10),
                                    docx=False).record,
            "fretamento": issuer.issue("alvara-fretamento", fret, date(2026, 11, 29),
                                       docx=False).record}


def _example(form_id: str) -> dict[str, Any]:
    return dict(json.loads((REPO / "forms" / form_id / "exemplo.json").read_text("utf-8")))


@pytest.fixture
def client(context: WebContext) -> Iterator[TestClient]:
    with TestClient(create_app(context)) as test_client:
        assert login(test_client, "agente").status_code == 303
        yield test_client


def _value(page: str, name: str) -> str | None:
    """The value of the input (or the selected option) named ``name``."""
    tag = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    if tag is not None:
        found = re.search(r'value="([^"]*)"', tag.group(0))
        return html.unescape(found.group(1)) if found else ""
    select = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    if select is not None:
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
        return chosen.group(1) if chosen else ""
    return None


def _message(page: str) -> str:
    found = re.search(r'id="placa-inicial-mensagem"[^>]*>([^<]*)<', page)
    assert found is not None, "sem mensagem no campo da placa"
    return html.unescape(found.group(1))


def test_the_escolar_auto_starts_from_the_old_plate_or_its_mercosul_form(
    client: TestClient, alvaras: dict[str, Any]
) -> None:
    printed = alvaras["escolar"].printed
    for typed in ("ESC-1234", " esc 1234 ", "esc1c34", "Esc-1C34"):
        page = client.get(f"/equipe/novo/{ESC}", params={"placa": typed})
        assert page.status_code == 200
        text = page.text
        assert _value(text, "condutor/nome") == "Titular Exemplo 0007"
        assert _value(text, "condutor/alvara") == printed
        assert _value(text, "condutor/condicao") == "titular"
        assert _value(text, "veiculo/marca_modelo") == "Volare V8L Escolar"
        # the alvará's typed selo is not copied: the auto reads the selo in force from
        # the registry (none here), escolar art. 3º, § 2º
        assert not _value(text, "veiculo/selo")
        assert _value(text, "agente/nome") == "Maria Agente Fiscal"
        assert _value(text, "agente/matricula") == "12.345"
        assert f"{printed}, em vigor" in _message(text)
    assert _value(text, "veiculo/placa") == "ESC1C34"  # as typed, normalized


def test_the_plate_box_stays_after_verificar(client: TestClient, alvaras: dict[str, Any]
                                            ) -> None:
    """«Verificar» re-shows the form with what was typed, and the plate box with it."""
    page = client.get(f"/equipe/novo/{ESC}", params={"placa": "ESC1234"}).text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    checked = client.post(f"/equipe/novo/{ESC}", data={
        "csrf": token.group(1), "_acao": "verificar", "condutor/nome": "Titular Exemplo 0007",
        "veiculo/placa": "ESC1C34"})
    assert checked.status_code == 200
    assert 'id="busca-placa"' in checked.text and 'id="placa-inicial"' in checked.text
    assert _value(checked.text, "condutor/nome") == "Titular Exemplo 0007"
    assert _value(checked.text, "veiculo/placa") == "ESC1C34"
    refused = client.post(f"/equipe/novo/{ESC}", data={"csrf": token.group(1),
                                                       "_acao": "desconhecida"})
    assert 'id="busca-placa"' in refused.text


def test_the_fretamento_auto_names_the_company_and_the_licence(
    client: TestClient, alvaras: dict[str, Any]
) -> None:
    text = client.get(f"/equipe/novo/{FRET}?placa=FRT1D23").text
    assert _value(text, "empresa/razao_social") == "Viação Exemplo de Fretamento Ltda."
    assert _value(text, "empresa/cnpj") in ("65.563.842/0001-05", "65563842000105")
    assert _value(text, "veiculo/alvara") == alvaras["fretamento"].printed
    assert _value(text, "veiculo/tipo") == "onibus_rodoviario"
    assert _value(text, "agente/matricula") == "12.345"


def test_a_vehicle_without_a_licence_in_force_keeps_its_data_but_no_holder(
    context: WebContext, client: TestClient, alvaras: dict[str, Any]
) -> None:
    later = alvaras["fretamento"].valid_until
    assert later is not None
    context.today = lambda: date(later.year + 1, 1, 15)  # type: ignore[method-assign]
    try:
        text = client.get(f"/equipe/novo/{FRET}?placa=FRT1D23").text
    finally:
        context.today = lambda: TODAY  # type: ignore[method-assign]
    assert "não tem licença em vigor" in _message(text)
    assert _value(text, "veiculo/marca_modelo") == "Mercedes-Benz O-500 RS"
    assert _value(text, "veiculo/alvara") == ""
    assert _value(text, "empresa/razao_social") == ""


def test_an_unknown_or_malformed_plate_is_said_at_the_field_and_fills_nothing(
    client: TestClient, alvaras: dict[str, Any]
) -> None:
    text = client.get(f"/equipe/novo/{ESC}?placa=ZZZ9Z99").text
    assert "A placa ZZZ9Z99 não consta de nenhuma licença" in _message(text)
    assert 'aria-invalid="true"' in text
    assert _value(text, "agente/nome") == "" and _value(text, "condutor/nome") == ""
    # a fretamento plate is not an escolar licence
    assert "não consta" in _message(client.get(f"/equipe/novo/{ESC}?placa=FRT1D23").text)
    assert "Placa inválida" in _message(client.get(f"/equipe/novo/{ESC}?placa=12").text)
    other = client.get("/equipe/novo/alvara-fretamento?placa=FRT1D23").text
    assert 'id="busca-placa"' not in other  # only the autos start from a plate


def test_the_matricula_is_set_on_the_accounts_page(client: TestClient, context: WebContext
                                                   ) -> None:
    admin = TestClient(create_app(context))
    assert login(admin, "admin").status_code == 303
    page = admin.get("/equipe/contas").text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None
    clara = context.users.by_name("clara")
    assert clara is not None and clara.registration is None
    sent = admin.post(f"/equipe/contas/{clara.id}",
                      data={"csrf": token.group(1), "papel": "clerk", "ativa": "sim",
                            "matricula": " 98.765 "}, follow_redirects=False)
    assert sent.status_code == 303
    changed = context.users.by_name("clara")
    assert changed is not None and changed.registration == "98.765"
    assert "98.765" in admin.get("/equipe/contas").text
    refused = admin.post(f"/equipe/contas/{clara.id}",
                         data={"csrf": token.group(1), "papel": "clerk", "ativa": "sim",
                               "matricula": "<script>"})
    assert refused.status_code == 422 and "Matrícula inválida" in refused.text

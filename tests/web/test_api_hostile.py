"""Hostile input on the JSON API and the web form posts: 4xx or a report, never 500.

Dates out of range, repeated JSON keys (the top-level ``form`` too), invisible and
bidirectional characters, decomposed accents and characters no font of the pack draws.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from webhelpers import ALV, PASSWORD, REQ, csrf_of, example, login

from lavra.web import WebContext

REPO = Path(__file__).resolve().parents[2]
ESCOLAR = "alvara-transporte-escolar"
JSON = {"content-type": "application/json"}


@pytest.fixture
def quiet(app: FastAPI) -> TestClient:
    """A client that returns 500 responses instead of raising the server's exception."""
    return TestClient(app, raise_server_exceptions=False)


def _set_all(node: Any, key: str, value: str) -> None:
    if isinstance(node, dict):
        for name in node:
            if name == key:
                node[name] = value
            else:
                _set_all(node[name], key, value)
    elif isinstance(node, list):
        for item in node:
            _set_all(item, key, value)


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2200-01-01"])
def test_an_applicants_far_date_is_a_field_of_the_report(quiet: TestClient, day: str) -> None:
    data = example(ESCOLAR)
    _set_all(data, "data_expedicao", day)
    response = quiet.post("/api/check", json={"form": ESCOLAR, "data": data})
    assert response.status_code == 200, response.text
    report = response.json()
    assert not report["complete"]
    assert any(
        "intervalo aceito" in item["message"] and item["status"] in ("invalid", "missing")
        for item in report["items"]
    ), report


@pytest.mark.parametrize("endpoint", ["/api/check", "/api/draft"])
@pytest.mark.parametrize("on", ["9999-12-31", "0001-01-01"])
def test_a_far_reference_date_is_refused_naming_it(
    quiet: TestClient, endpoint: str, on: str
) -> None:
    response = quiet.post(endpoint, json={"form": ALV, "data": example(ALV), "on": on})
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "/on"
    assert "intervalo aceito" in response.json()["detail"]


def test_a_draft_with_far_dates_is_a_minuta_listing_them(quiet: TestClient) -> None:
    data = example(ESCOLAR)
    _set_all(data, "data_expedicao", "9999-12-31")
    response = quiet.post("/api/draft", json={"form": ESCOLAR, "data": data})
    assert response.status_code == 200, response.text
    assert response.content.startswith(b"%PDF")
    assert int(response.headers["X-Lavra-Pendencias"]) >= 1


def test_a_repeated_top_level_form_is_refused(quiet: TestClient) -> None:
    body = b'{"form": "alvara-fretamento", "data": {}, "form": "requerimento-alvara-fretamento"}'
    for endpoint in ("/api/check", "/api/draft", "/api/prefill"):
        response = quiet.post(endpoint, content=body, headers=JSON)
        assert response.status_code == 422, (endpoint, response.text)
        assert response.json()["field"] == "/form"
        assert "aparece mais de uma vez" in response.json()["detail"]


def test_a_repeated_key_in_the_data_is_refused(quiet: TestClient) -> None:
    text = json.dumps({"form": ALV, "data": example(ALV)}, ensure_ascii=False)
    text = text.replace('"cliente": ', '"cliente": "Outro S.A.", "cliente": ', 1)
    response = quiet.post("/api/check", content=text.encode(), headers=JSON)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "/cliente"  # named from the data, as the report does


def test_hidden_characters_are_refused_anywhere_in_the_body(quiet: TestClient) -> None:
    data = example(ALV)
    data["empresa"]["razao_social"] = "Viação \u202eExemplo"
    response = quiet.post("/api/check", json={"form": ALV, "data": data})
    assert response.status_code == 422
    assert response.json()["field"] == "/empresa/razao_social"
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in response.json()["detail"]
    form = quiet.post("/api/check", json={"form": ALV + "\u200b", "data": {}})
    assert form.status_code == 422 and form.json()["field"] == "/form"
    nel = quiet.post("/api/prefill", json={"form": REQ, "data": {"cliente": "a\u0085b"}})
    assert nel.status_code == 422 and "U+0085" in nel.json()["detail"]


def test_decomposed_accents_are_stored_composed(client: TestClient) -> None:
    typed = unicodedata.normalize("NFD", "Viação Conceição Ltda.")
    response = client.post(
        "/api/prefill", json={"form": REQ, "data": {"requerente": {"razao_social": typed}}}
    )
    assert response.status_code == 200, response.text
    fields = PdfReader(io.BytesIO(response.content)).get_fields() or {}
    assert fields["requerente/razao_social"]["/V"] == "Viação Conceição Ltda."


def test_characters_no_font_draws_are_shown_in_the_api_report(client: TestClient) -> None:
    data = example(ALV)
    data["empresa"]["razao_social"] = "株式会社"
    response = client.post("/api/check", json={"form": ALV, "data": data})
    assert response.status_code == 200
    items = response.json()["items"]
    flagged = [i for i in items if "não desenham: 株, 式, 会, 社" in i["message"]]
    assert flagged and flagged[0]["status"] == "invalid"


def test_the_openapi_description_still_declares_the_bodies(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/api/check"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/DataRequest")


# ----------------------------------------------------------------- web form posts
URL = f"/requerimentos/{REQ}"


def test_a_web_form_post_with_a_bidi_override_is_refused_naming_the_field(
    quiet: TestClient,
) -> None:
    token = csrf_of(quiet, URL)
    page = quiet.post(
        URL,
        data={"csrf": token, "_acao": "verificar",
              "requerente/razao_social": "Viação \u202eExemplo"},
    )
    assert page.status_code == 422, page.text[:500]
    assert "U+202E" in page.text and "/requerente/razao_social" not in page.text
    assert "«Empresa ou entidade requerente › Razão social»" in page.text  # issue 25


def test_a_web_form_post_is_stored_composed(quiet: TestClient) -> None:
    token = csrf_of(quiet, URL)
    typed = unicodedata.normalize("NFD", "Viação Conceição")
    live = quiet.post(
        f"{URL}/relatorio", data={"csrf": token, "requerente/razao_social": typed}
    )
    assert live.status_code == 200
    items = {i["field"]: i for i in live.json()["report"]["items"]}
    assert all(typed not in i["message"] for i in items.values())
    page = quiet.post(URL, data={"csrf": token, "_acao": "verificar",
                                 "requerente/razao_social": typed})
    assert page.status_code == 200
    assert 'value="Viação Conceição"' in page.text and typed not in page.text


# ------------------------------------------------------------ any date, any form
def _date_pointers(node: Any, path: str = "") -> list[str]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _date_pointers(v, f"{path}/{k}")]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _date_pointers(v, f"{path}/{i}")]
    return [path] if isinstance(node, str) and re.match(r"^\d{4}-\d{2}-\d{2}", node) else []


def _put(data: Any, pointer: str, day: str) -> None:
    *parents, last = pointer.lstrip("/").split("/")
    for token in parents:
        data = data[int(token)] if isinstance(data, list) else data[token]
    key: Any = int(last) if isinstance(data, list) else last
    data[key] = day + data[key][10:]


FORMS = sorted(p.parent.name for p in REPO.glob("forms/*/exemplo.json"))
DAYS = st.one_of(
    st.sampled_from(["0001-01-01", "1899-12-31", "2200-01-01", "9999-12-31"]),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)).map(date.isoformat),
)


@pytest.mark.parametrize("form", FORMS)
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_api_check_never_answers_500_whatever_the_dates(
    quiet: TestClient, form: str, data: st.DataObject
) -> None:
    body = json.loads((REPO / "forms" / form / "exemplo.json").read_text("utf-8"))
    for pointer in _date_pointers(body):
        _put(body, pointer, data.draw(DAYS, label=pointer))
    on = data.draw(st.one_of(st.none(), DAYS), label="on")
    request = {"form": form, "data": body, **({"on": on} if on else {})}
    response = quiet.post("/api/check", json=request)
    assert response.status_code in (200, 422), response.text
    if response.status_code == 422:
        assert response.json()["field"], response.json()


def test_staff_account_names_are_refused_with_hidden_characters(
    client: TestClient, web_context: WebContext
) -> None:
    login(client, "admin")
    token = csrf_of(client, "/equipe/contas")
    refused = client.post(
        "/equipe/contas",
        data={"csrf": token, "usuario": "rita", "nome": "Rita \u202eSouza",
              "senha": PASSWORD, "papel": "clerk"},
        follow_redirects=False,
    )
    assert refused.status_code == 422
    assert "U+202E" in refused.text and web_context.users.by_name("rita") is None
    composed = client.post(
        "/equipe/contas",
        data={"csrf": token, "usuario": "rita",
              "nome": unicodedata.normalize("NFD", "Rita Conceição"),
              "senha": PASSWORD, "papel": "clerk"},
        follow_redirects=False,
    )
    assert composed.status_code == 303
    rita = web_context.users.by_name("rita")
    assert rita is not None and rita.full_name == "Rita Conceição"


def test_an_uploaded_requerimento_with_a_bidi_override_is_refused(
    quiet: TestClient, web_context: WebContext
) -> None:
    from pypdf import PdfWriter

    pdf = web_context.engine.prefill(REQ, {})
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.update_page_form_field_values(
        None, {"requerente/razao_social": "Viação \u202eExemplo"}, auto_regenerate=False
    )
    out = io.BytesIO()
    writer.write(out)
    response = quiet.post("/api/read", files={"file": ("r.pdf", out.getvalue(), "application/pdf")})
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "/requerente/razao_social"
    assert "U+202E" in response.json()["detail"]

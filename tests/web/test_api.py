"""The JSON API mirrors the command line; issuing and the registry need a token."""

from __future__ import annotations

import io
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from pypdf import PdfReader
from webhelpers import ALV, REQ, example

from lavra.web import WebContext
from lavra.web.staffcheck import UNCHECKED


@pytest.fixture(scope="module")
def tokens(web_context: WebContext) -> dict[str, str]:
    users = web_context.users
    out = {}
    for name in ("clara", "sergio"):
        user = users.by_name(name)
        assert user is not None
        out[name] = users.create_token(user.id, f"testes da API ({name})")[1]
    return out


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_check_is_the_report_of_lavra_check(client: TestClient, web_context: WebContext) -> None:
    data = example(ALV)
    response = client.post("/api/check", json={"form": ALV, "data": data, "on": "2026-11-29"})
    assert response.status_code == 200
    from datetime import date

    # Without a staff token the registry is not read, and the answer says so.
    expected = web_context.engine.check(ALV, data, date(2026, 11, 29)).to_json()
    assert response.json() == {**expected, "unchecked": UNCHECKED}


def test_bad_input_gets_pt_br_errors(client: TestClient) -> None:
    unknown = client.post("/api/check", json={"form": "nada", "data": {}})
    # The detail is read by a person (the page's scripts show it): no form id, no pointer;
    # "field" keeps the pointer, for programs (issue 25).
    assert unknown.status_code == 404 and "Formulário não encontrado" in unknown.json()["detail"]
    assert "nada" not in unknown.json()["detail"]
    control = client.post("/api/check", json={"form": ALV, "data": {"cliente": "a\x00b"}})
    assert control.status_code == 422
    assert "caractere de controle" in control.json()["detail"]
    assert "/cliente" not in control.json()["detail"]
    assert control.json()["field"] == "/cliente"
    data = example(ALV)
    data["empresa"]["razao_social"] = "a\x00b"
    labelled = client.post("/api/check", json={"form": ALV, "data": data}).json()
    assert labelled["detail"].startswith(
        "O campo «Empresa ou entidade autorizada › Razão social» contém")
    assert labelled["field"] == "/empresa/razao_social"
    shape = client.post("/api/check", json={"form": ALV, "data": [], "extra": 1})
    assert shape.status_code == 422 and shape.json()["detail"].startswith("Requisição inválida")
    assert "/" not in shape.json()["detail"] and shape.json()["errors"][0]["field"].startswith("/")


def test_draft_prefill_and_read(client: TestClient) -> None:
    draft = client.post("/api/draft", json={"form": ALV, "data": {"cliente": "X"}})
    assert draft.status_code == 200 and draft.content.startswith(b"%PDF")
    assert int(draft.headers["x-lavra-pendencias"]) > 0
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(draft.content)).pages)
    assert "MINUTA" in text
    docx = client.post("/api/draft", json={"form": ALV, "data": {}, "format": "docx"})
    assert docx.status_code == 200 and docx.content[:2] == b"PK"
    data = example(REQ)
    prefill = client.post("/api/prefill", json={"form": REQ, "data": data})
    assert prefill.status_code == 200
    read = client.post("/api/read", files={"file": ("r.pdf", prefill.content, "application/pdf")})
    assert read.status_code == 200
    body = read.json()
    assert body["form"] == REQ and body["data"] == data
    assert body["report"]["form"] == REQ
    refused = client.post("/api/prefill", json={"form": ALV})
    assert refused.status_code == 422


def test_law_citations_and_forms(client: TestClient, web_context: WebContext) -> None:
    law = client.get("/api/law/fretamento#art7_inc4".replace("#", "%23"))
    assert law.status_code == 200
    assert law.json()["reference"] == web_context.engine.content.cite("fretamento#art7_inc4")
    assert client.get("/api/law/fretamento%23art999").status_code == 422
    forms = {f["id"]: f for f in client.get("/api/forms").json()}
    assert forms[REQ]["preenchivel"] is True and forms[ALV]["serie"] == "ALV-FRET"
    schema = client.get(f"/api/forms/{REQ}/schema").json()
    assert "$ref" not in str(schema)
    assert client.get("/openapi.json").json()["components"]["securitySchemes"]["HTTPBearer"]


def test_issue_needs_a_signer_token(client: TestClient, tokens: dict[str, str]) -> None:
    body: dict[str, Any] = {"form": ALV, "data": example(ALV)}
    assert client.post("/api/issue", json=body).status_code == 401
    assert client.post("/api/issue", json=body, headers=bearer("lavra_falso")).status_code == 401
    assert client.post("/api/issue", json=body, headers=bearer(tokens["clara"])).status_code == 403
    incomplete = client.post("/api/issue", json={"form": ALV, "data": {}},
                             headers=bearer(tokens["sergio"]))
    assert incomplete.status_code == 422 and incomplete.json()["report"]["complete"] is False


def test_issue_verify_search_cancel(client: TestClient, tokens: dict[str, str]) -> None:
    signer = bearer(tokens["sergio"])
    data = example(ALV)
    # A vehicle of its own: the module's registry may already hold an alvará in force for
    # the example's vehicle, and a second one is refused (one alvará per vehicle).
    set_vehicle(data["veiculo"], "APX1D23")
    body = {"form": ALV, "data": data, "idempotency_key": "api-1"}
    issued = client.post("/api/issue", json=body, headers=signer)
    assert issued.status_code == 201, issued.text
    record = issued.json()
    again = client.post("/api/issue", json=body, headers=signer)
    assert again.json()["number"] == record["number"]  # idempotent retry
    pdf = client.get(record["pdf"], headers=signer).content
    assert client.get(record["pdf"]).status_code == 401
    checked = client.post("/api/verify", files={"file": ("d.pdf", pdf, "application/pdf")})
    assert checked.status_code == 200
    assert checked.json()["valid"] is True and checked.json()["number"] == record["number"]
    public = client.get(f"/api/verify/{record['verification_code']}").json()
    assert public["numero"] == record["number"] and public["situacao"] == "válido"
    assert "cpf_cnpj" not in public and "data" not in public
    found = client.get("/api/documents", params={"q": "APX-1D23"},
                       headers=bearer(tokens["clara"])).json()
    assert record["id"] in [r["id"] for r in found]
    by_series = client.get("/api/documents", params={"series": "alv-fret"},  # any case
                           headers=bearer(tokens["clara"])).json()
    assert record["id"] in [r["id"] for r in by_series]
    detail = client.get(f"/api/documents/{record['id']}", headers=signer).json()
    assert detail["data"]["veiculo"]["placa"] == "APX1D23" and detail["history"]
    short = client.post(f"/api/documents/{record['id']}/cancel", json={"reason": "curto"},
                        headers=signer)
    assert short.status_code == 422
    clerk = client.post(f"/api/documents/{record['id']}/cancel",
                        json={"reason": "Emitido com dados errados."},
                        headers=bearer(tokens["clara"]))
    assert clerk.status_code == 403
    cancelled = client.post(f"/api/documents/{record['id']}/cancel",
                            json={"reason": "Emitido com dados errados."}, headers=signer)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    after = client.post("/api/verify", files={"file": ("d.pdf", pdf, "application/pdf")}).json()
    assert after["valid"] is False and after["cancelled"] is True
    assert client.get(f"/api/verify/{record['verification_code']}").json()["situacao"] == (
        "cancelado"
    )
    retry = client.post("/api/issue", json=body, headers=signer)  # the key's act is cancelled
    assert retry.status_code == 422 and "foi cancelado em " in retry.text, retry.text
    assert f"nº {record['number']}" in retry.text and "pdf" not in retry.json()
    assert client.get("/api/documents/999999", headers=signer).status_code == 404

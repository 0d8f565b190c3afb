"""Recording later facts from the staff page (CSRF, clerks may) and the API."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from registrycases import builder
from sqlalchemy import update
from webhelpers import csrf_of, login

from lavra.registry.records import LOCAL_TZ
from lavra.registry.tables import DocumentRow, EventRow
from lavra.signing.verification import new_code
from lavra.web import WebContext


def _auto(web_context: WebContext, plate: str) -> int:
    record = web_context.registry.issue(
        "AIE-ESC", 2026, "auto-infracao-escolar", builder({"veiculo": {"placa": plate}}))
    return record.id


def test_clerk_records_a_ciencia_and_sees_the_appeal_deadline(
        client: TestClient, web_context: WebContext) -> None:
    ident = _auto(web_context, "FAT1A23")
    issued = web_context.registry.get_by_id(ident)
    assert issued is not None
    day = issued.issued_at.astimezone(LOCAL_TZ).date().isoformat()
    login(client, "clara")
    url = f"/equipe/documentos/{ident}"
    token = csrf_of(client, url)
    refused = client.post(f"{url}/fatos", data={"tipo": "ciencia", "data": day, "meio": "ar"})
    assert refused.status_code in (400, 403, 422)  # no CSRF token: nothing recorded
    assert web_context.registry.facts(ident) == ()
    done = client.post(f"{url}/fatos", data={"csrf": token, "tipo": "ciencia", "data": day,
                                             "meio": "ar", "referencia": "AR BR1"},
                       follow_redirects=False)
    assert done.status_code == 303
    page = client.get(done.headers["location"]).text
    assert "Fato registrado no documento" in page
    assert "ciência do interessado em" in page and "Clara" in page
    assert "Recurso ao Prefeito Municipal contra a penalidade" in page
    assert "prazo de recurso encerra-se em" in page
    again = client.post(f"{url}/fatos", data={"csrf": token, "tipo": "ciencia", "data": day,
                                              "meio": "pessoal"})
    assert again.status_code == 422
    assert "Já consta do registro" in again.text
    fact = web_context.registry.facts(ident)[0]
    revoked = client.post(f"{url}/fatos/{fact.id}/revogar",
                          data={"csrf": token, "motivo": "AR de outro processo."},
                          follow_redirects=False)
    assert revoked.status_code == 303
    assert web_context.registry.facts(ident)[0].revoked


def test_api_records_a_payment_and_refuses_a_future_one(
        client: TestClient, web_context: WebContext) -> None:
    ident = _auto(web_context, "FAT2B34")
    users = web_context.users
    user = users.by_name("clara")
    assert user is not None
    headers = {"Authorization": f"Bearer {users.create_token(user.id, 'fatos')[1]}"}
    issued = web_context.registry.get_by_id(ident)
    assert issued is not None
    day = issued.issued_at.astimezone(LOCAL_TZ).date().isoformat()
    body = {"kind": "pagamento", "on": day, "amount": "384,20", "reference": "DAM 77"}
    assert client.post(f"/api/documents/{ident}/facts", json=body).status_code == 401
    made = client.post(f"/api/documents/{ident}/facts", json=body, headers=headers)
    assert made.status_code == 201, made.text
    assert made.json()["amount"] == "384.20" and made.json()["recorded_by"].startswith("Clara")
    future = client.post(f"/api/documents/{ident}/facts",
                         json={**body, "on": "2999-01-01"}, headers=headers)
    assert future.status_code == 422
    assert future.json()["field"] == "/data" and "posterior" in future.json()["detail"]
    missing = client.post(f"/api/documents/{ident}/facts",
                          json={"kind": "pagamento", "on": day}, headers=headers)
    assert missing.status_code == 422 and missing.json()["field"] == "/valor"
    history = client.get(f"/api/documents/{ident}", headers=headers).json()["history"]
    assert [e["kind"] for e in history] == ["issued", "pagamento"]
    assert history[1]["data"]["valor"] == "384.20"
    fact_id = made.json()["id"]
    gone = client.post(f"/api/facts/{fact_id}/revoke", json={"reason": "Guia de outro auto."},
                       headers=headers)
    assert gone.status_code == 200 and gone.json()["revoked"] is True
    assert client.post(f"/api/documents/{10**9}/facts", json=body,
                       headers=headers).status_code == 404


def test_the_recorded_ciencia_and_the_last_day_show_on_the_verification_and_staff_pages(
        client: TestClient, web_context: WebContext) -> None:
    """Issue 23: the revogação is signed with its ciência line blank (Saturday 07/03/2026,
    20:17); once the ciência is recorded, the public verification page and the document
    page show its day and the last day counted from it on the calendar, and nobody's
    name on the public one."""
    registry = web_context.registry
    record = registry.issue("REV-ESC", 2026, "decisao-revogacao-alvara",
                            builder({"ciencia": {"nome": "José Exemplo dos Santos"}}))
    signed = datetime(2026, 3, 7, 20, 17, tzinfo=LOCAL_TZ).astimezone(UTC)
    code = new_code()
    with registry.engine.begin() as connection:
        connection.execute(update(DocumentRow).where(DocumentRow.id == record.id)
                           .values(issued_at=signed, verification_code=code))
        connection.execute(update(EventRow).where(EventRow.document_id == record.id)
                           .values(at=signed))
    before = client.get(f"/verificar/{code}").text
    assert "Documento autêntico" in before and "encerra-se" not in before
    registry.record_fact(record.id, "ciencia", on="2026-03-11", by="Clara (clara)",
                         means="pessoal",
                         now=datetime(2026, 3, 11, 15, tzinfo=LOCAL_TZ))
    # 10 days from Wednesday 11/03/2026 end on Saturday 21/03: moved to Monday 23/03.
    summary = "Ciência em 11/03/2026; prazo de recurso encerra-se em 23/03/2026"
    public = client.get(f"/verificar/{code}").text
    assert summary in public and "art. 26 da Lei nº 4.515/2007" in public
    assert "Clara" not in public
    login(client, "clara")
    staff = client.get(f"/equipe/documentos/{record.id}").text
    assert summary in staff and "registrada por Clara (clara)" in staff

"""Applicants' pages, without JavaScript: the server renders every report."""

from __future__ import annotations

import io
import re

from fastapi.testclient import TestClient
from pypdf import PdfReader
from webhelpers import REQ, csrf_of, errors_in, example, form_data

from lavra.documents import FORM_ID_KEY
from lavra.web import WebContext
from lavra.web.formparse import to_pairs
from lavra.web.pdftasks import FORM_ID_KEY as SANDBOX_FORM_ID_KEY

URL = f"/requerimentos/{REQ}"


def test_the_list_offers_only_what_applicants_may_file(client: TestClient) -> None:
    page = client.get("/requerimentos")
    assert page.status_code == 200
    assert f'href="{URL}"' in page.text
    assert "/requerimentos/alvara-fretamento" not in page.text
    refused = client.get("/requerimentos/alvara-fretamento")
    assert refused.status_code == 422
    assert "não é um requerimento preenchível" in refused.text
    assert client.get("/requerimentos/nao-existe").status_code == 404


def test_the_form_page_is_generated_from_the_schema(client: TestClient) -> None:
    page = client.get(URL)
    assert page.status_code == 200
    html = page.text
    assert '<label for="f-requerente-cnpj">CNPJ' in html
    assert 'data-mascara="cnpj"' in html and 'data-mascara="cpf"' in html
    assert 'data-mascara="placa"' in html and 'data-mascara="cep"' in html
    assert 'data-mascara="data"' in html
    assert "<summary>Fundamento legal</summary>" in html
    assert "Documentos a anexar" in html
    assert "Certidão negativa de tributos federais" in html
    assert 'value="adicionar:veiculos"' in html
    assert "Baixar requerimento preenchido" in html
    assert "<script>" not in html  # scripts only from static files (CSP)


def test_security_headers(client: TestClient) -> None:
    headers = client.get(URL).headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'self'" in csp
    assert headers["x-content-type-options"] == "nosniff"


def test_posting_without_javascript_shows_the_report_and_field_errors(
    client: TestClient,
) -> None:
    token = csrf_of(client, URL)
    page = client.post(
        URL,
        data={"csrf": token, "_acao": "verificar", "categoria": "fretamento",
              "requerente/cnpj": "11.111.111/1111-11"},
    )
    assert page.status_code == 200
    assert "Incompleto" in page.text
    assert 'aria-invalid="true"' in page.text
    assert 'value="11.111.111/1111-11"' in page.text  # what was typed is kept


def test_values_are_escaped(client: TestClient) -> None:
    token = csrf_of(client, URL)
    page = client.post(
        URL,
        data={"csrf": token, "requerente/razao_social": '<script>alert("x")</script>'},
    )
    assert page.status_code == 200
    assert '<script>alert("x")</script>' not in page.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page.text


def test_rows_are_added_and_removed_without_javascript(client: TestClient) -> None:
    token = csrf_of(client, URL)
    added = client.post(
        URL, data={"csrf": token, "_acao": "adicionar:veiculos", "veiculos/0/placa": "ABC1D23"}
    )
    assert 'name="veiculos/1/placa"' in added.text
    removed = client.post(
        URL,
        data={"csrf": token, "_acao": "remover:veiculos/0", "veiculos/0/placa": "ABC1D23",
              "veiculos/1/placa": "DEF4G56"},
    )
    assert 'value="DEF4G56"' in removed.text and 'value="ABC1D23"' not in removed.text


def test_the_live_report_is_the_check_report(client: TestClient, web_context: WebContext) -> None:
    token = csrf_of(client, URL)
    empty = client.post(f"{URL}/relatorio", data={"csrf": token})
    assert empty.status_code == 200
    data = example(REQ)
    pairs = to_pairs(web_context.schema(REQ), data)
    full = client.post(f"{URL}/relatorio", data=form_data([("csrf", token), *pairs]))
    body = full.json()
    expected = web_context.engine.check(REQ, data).to_json()
    assert body["report"] == expected
    assert body["complete"] is expected["complete"]
    assert empty.json()["pending"] > body["pending"]
    assert "relatorio-resumo" in body["html"]


def test_csrf_is_required(client: TestClient) -> None:
    client.get(URL)
    refused = client.post(URL, data={"_acao": "verificar"})
    assert refused.status_code == 403
    assert "falsificação de requisições" in refused.text
    forged = client.post(URL, data={"csrf": "x" * 43, "_acao": "verificar"})
    assert forged.status_code == 403


def test_download_then_upload_the_filled_requerimento(
    client: TestClient, web_context: WebContext
) -> None:
    token = csrf_of(client, URL)
    data = example(REQ)
    pairs = to_pairs(web_context.schema(REQ), data)
    download = client.post(URL, data=form_data([("csrf", token), ("_acao", "baixar"), *pairs]))
    assert download.status_code == 200
    assert download.headers["content-type"] == "application/pdf"
    assert "attachment" in download.headers["content-disposition"]
    reader = PdfReader(io.BytesIO(download.content))
    fields = reader.get_fields() or {}
    assert fields["requerente/razao_social"].get("/V") == data["requerente"]["razao_social"]
    assert fields["veiculos/1/placa"].get("/V") == "DEF4G56"
    assert FORM_ID_KEY == SANDBOX_FORM_ID_KEY

    page = client.post(
        "/requerimentos/ler",
        data={"csrf": token},
        files={"arquivo": ("req.pdf", download.content, "application/pdf")},
    )
    assert page.status_code == 200, errors_in(page.text)
    assert "Dados lidos do requerimento enviado" in page.text
    assert 'value="Viação Exemplo de Fretamento Ltda."' in page.text
    assert ("Completo" in page.text) is web_context.engine.check(REQ, data).complete


def test_uploads_that_are_not_pdfs_or_too_large_are_refused(client: TestClient) -> None:
    token = csrf_of(client, "/requerimentos/ler")
    text = client.post(
        "/requerimentos/ler", data={"csrf": token},
        files={"arquivo": ("a.pdf", b"<html>not a pdf</html>", "application/pdf")},
    )
    assert text.status_code == 422 and "não é um PDF" in text.text
    big = client.post(
        "/requerimentos/ler", data={"csrf": token},
        files={"arquivo": ("a.pdf", b"%PDF-1.7\n" + b"0" * (6 * 1024 * 1024), "application/pdf")},
    )
    assert big.status_code == 413


def test_a_hostile_pdf_is_contained_by_the_sandbox(client: TestClient) -> None:
    token = csrf_of(client, "/requerimentos/ler")
    nested = b"%PDF-1.7\n1 0 obj\n" + b"[" * 300_000 + b"\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF"
    page = client.post(
        "/requerimentos/ler", data={"csrf": token},
        files={"arquivo": ("a.pdf", nested, "application/pdf")},
    )
    assert page.status_code == 422
    assert errors_in(page.text)
    assert client.get("/").status_code == 200  # the server is still there


def test_verification_by_code_reports_unknown_and_malformed_codes(client: TestClient) -> None:
    malformed = client.get("/verificar", params={"codigo": "ABC"})
    assert malformed.status_code == 422 and "12 caracteres" in malformed.text
    from lavra.signing.verification import new_code

    unknown = client.get(f"/verificar/{new_code()}")
    assert unknown.status_code == 404
    assert "Nenhum documento emitido tem este código" in unknown.text
    assert re.search(r"<h1>Verificar documento</h1>", unknown.text)

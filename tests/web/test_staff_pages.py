"""Staff pages: draft preview, issuing, the registry, a document's page, cancelling."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from identities import set_vehicle
from webhelpers import ALV, PASSWORD, csrf_of, errors_in, example, form_data, login

from lavra.web import WebContext
from lavra.web.formparse import to_pairs

NEW = f"/equipe/novo/{ALV}"


def test_clerk_previews_a_draft(client: TestClient, web_context: WebContext) -> None:
    login(client, "clara")
    token = csrf_of(client, NEW)
    pairs = to_pairs(web_context.schema(ALV), {"cliente": "Indústria Exemplo"})
    draft = client.post(f"{NEW}/minuta", data=form_data([("csrf", token), *pairs]))
    assert draft.status_code == 200
    assert draft.headers["content-type"] == "application/pdf"
    assert draft.headers["content-disposition"].startswith("inline")


def test_signer_issues_finds_and_cancels(client: TestClient, web_context: WebContext) -> None:
    login(client, "sergio")
    token = csrf_of(client, NEW)
    incomplete = client.post(NEW, data={"csrf": token, "_acao": "emitir", "cliente": "X",
                                        "_senha_assinatura": PASSWORD})
    assert incomplete.status_code == 422
    assert "não pode ser emitido" in " ".join(errors_in(incomplete.text))
    data = example(ALV)
    # One alvará per vehicle (fretamento art. 8º): other tests of the session's registry
    # may have issued the example's vehicle one already.
    set_vehicle(data["veiculo"], "PAG1N23")
    pairs = to_pairs(web_context.schema(ALV), data)
    issued = client.post(
        NEW,
        data=form_data([("csrf", token), ("_acao", "emitir"), ("_chave", "pagina-1"),
                        ("_senha_assinatura", PASSWORD), *pairs]),
        follow_redirects=False,
    )
    assert issued.status_code == 303, errors_in(issued.text)
    page = client.get(issued.headers["location"])
    assert "Documento emitido, numerado, assinado e registrado." in page.text
    number = re.search(r"nº (\d{4}/\d{4})</h1>", page.text)
    assert number is not None
    doc_url = issued.headers["location"].split("?")[0]
    assert client.get(f"{doc_url}/documento.pdf").content.startswith(b"%PDF")
    assert client.get(f"{doc_url}/documento.docx").content[:2] == b"PK"
    found = client.get("/equipe/registro", params={"q": "65.563.842/0001-05"})
    assert f'href="{doc_url}"' in found.text
    by_number = client.get("/equipe/registro", params={"q": number.group(1)})
    assert f'href="{doc_url}"' in by_number.text
    cancel = client.post(f"{doc_url}/cancelar",
                         data={"csrf": token, "motivo": "Emitido para o veículo errado."},
                         follow_redirects=False)
    assert cancel.status_code == 303
    after = client.get(doc_url).text
    assert "CANCELADO" in after and "Emitido para o veículo errado." in after
    assert "cancelamento" in after and "Sérgio Signatário" in after
    code = re.search(r'href="/verificar/([A-Z0-9-]+)"', after)
    assert code is not None
    public = TestClient(client.app).get(f"/verificar/{code.group(1)}")
    assert "Documento CANCELADO" in public.text
    assert "65.563.842" not in public.text  # no personal data on the public page

"""Each signer account signs with its own certificate (issue 25, step 1): the staff
page, the public verification page and the uploaded PDF's check name the person and
the cargo, never a DN."""

from __future__ import annotations

import re
import subprocess
from typing import Any

from fastapi.testclient import TestClient
from identities import set_vehicle
from webhelpers import ALV, PASSWORD, csrf_of, errors_in, example, form_data, login

from lavra.web import WebContext
from lavra.web.formparse import to_pairs
from lavra.web.users import Role

NEW = f"/equipe/novo/{ALV}"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"


def _post(client: TestClient, ctx: WebContext, placa: str, password: str) -> Any:
    token = csrf_of(client, NEW)
    data = example(ALV)
    set_vehicle(data["veiculo"], placa)
    pairs = to_pairs(ctx.schema(ALV), data)
    return client.post(NEW, data=form_data([("csrf", token), ("_acao", "emitir"),
                                            ("_senha_assinatura", password), *pairs]),
                       follow_redirects=False)


def _issue(client: TestClient, ctx: WebContext, account: str, placa: str) -> str:
    login(client, account)
    issued = _post(client, ctx, placa, PASSWORD)
    assert issued.status_code == 303, errors_in(issued.text)
    return str(issued.headers["location"]).split("?")[0]


def test_the_page_asks_the_signers_password_at_signing(
    client: TestClient, web_context: WebContext
) -> None:
    login(client, "sergio")
    assert '<label for="senha-assinatura">Senha de assinatura</label>' in client.get(NEW).text
    missing = _post(client, web_context, "SEN1H11", "")
    assert missing.status_code == 422
    assert "Informe a sua senha de assinatura para emitir." in missing.text
    wrong = _post(client, web_context, "SEN1H11", "senha-errada-000")
    assert wrong.status_code == 422
    assert "Senha de assinatura incorreta. Nada foi emitido." in wrong.text
    assert "(campo" not in missing.text + wrong.text
    assert "senha-errada-000" not in wrong.text
    assert web_context.registry.search("SEN1H11") == ()


def test_two_signers_each_sign_as_themselves(
    client: TestClient, web_context: WebContext
) -> None:
    if web_context.users.by_name("marta") is None:
        web_context.users.add("marta", PASSWORD, Role.SIGNER, full_name="Marta Assunção Reis",
                              signer_roles=["secretario-transportes"])
    for account, person, placa in (("sergio", "Sérgio Signatário", "SIG1S11"),
                                   ("marta", "Marta Assunção Reis", "MAR2M22")):
        doc_url = _issue(client, web_context, account, placa)
        staff_page = client.get(doc_url).text
        assert f"<dt>Assinado por</dt><dd>{person}, {CARGO}</dd>" in staff_page
        pdf = client.get(f"{doc_url}/documento.pdf").content
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                              check=True).stdout.decode("utf-8")
        assert f"por {person}, {CARGO}" in " ".join(text.split())
        code = re.search(r'<a href="/verificar/([^"]+)">', staff_page)
        assert code is not None, staff_page[:2000]
        client.post("/sair", data={"csrf": csrf_of(client, "/equipe")})
        public = client.get(f"/verificar/{code.group(1)}").text
        assert f"<dt>Assinado por</dt><dd>{person}, {CARGO}</dd>" in public
        assert client.get(f"/api/verify/{code.group(1)}").json()["assinante"] == (
            f"{person}, {CARGO}")
        uploaded = client.post("/verificar", data={"csrf": csrf_of(client, "/verificar")},
                               files={"arquivo": ("a.pdf", pdf, "application/pdf")}).text
        assert "Documento autêntico" in uploaded
        assert f"<dt>Assinado por</dt><dd>{person}, {CARGO}</dd>" in uploaded
        for page in (staff_page, public, uploaded):
            assert "CN=" not in page and "O=lavra" not in page

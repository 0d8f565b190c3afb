"""Drafts kept in the registry, from the staff pages: save, list, resume by another
person, update, a stale save refused, forwarding for signing, issuing from a draft, and
a save posted after the session expired."""

from __future__ import annotations

import html
import re
import subprocess
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from identities import set_vehicle
from sqlalchemy import update
from webhelpers import ALV, PASSWORD, csrf_of, errors_in, example, form_data, login

from lavra.web import WebContext
from lavra.web.formparse import to_pairs
from lavra.web.users import Role, sessions_table

NEW = f"/equipe/novo/{ALV}"
SAVE = f"{NEW}/salvar"


def _partial(client_name: str) -> dict[str, Any]:
    return {"cliente": f"Indústria {client_name}",
            "empresa": {"razao_social": "Viação Minuta Ltda."},
            "veiculo": {"placa": "MIN1T45"}}


def _post(client: TestClient, url: str, token: str, ctx: WebContext, data: dict[str, Any],
          *extra: tuple[str, str]) -> Any:
    pairs = to_pairs(ctx.schema(ALV), data)
    return client.post(url, data=form_data([("csrf", token), *extra, *pairs]),
                       follow_redirects=False)


def _draft_id(response: Any) -> int:
    assert response.status_code == 303, errors_in(response.text)
    match = re.fullmatch(r"/equipe/minutas/(\d+)\?aviso=minuta-\w+", response.headers["location"])
    assert match is not None, response.headers["location"]
    return int(match.group(1))


def test_save_list_resume_by_another_and_stale_save(app: FastAPI,
                                                    web_context: WebContext) -> None:
    with TestClient(app) as clara, TestClient(app) as sergio:
        login(clara, "clara")
        token = csrf_of(clara, NEW)
        ident = _draft_id(_post(clara, SAVE, token, web_context, _partial("Alfa"),
                                ("_acao", "salvar")))
        opened = clara.get(f"/equipe/minutas/{ident}?aviso=minuta-salva")
        assert "Minuta salva." in opened.text
        assert 'name="_versao" value="1"' in opened.text

        listed = clara.get("/equipe/minutas", params={"formulario": ALV, "situacao": "rascunho"})
        row = re.search(rf'<a href="/equipe/minutas/{ident}">([^<]+)</a>', listed.text)
        assert row is not None
        assert html.unescape(row.group(1)) == (
            f"{web_context.form_title(ALV)} — Viação Minuta Ltda. — MIN1T45")
        assert "Clara Redatora" in listed.text and "rascunho" in listed.text
        assert re.search(r"\d{2}/\d{2}/\d{4} \d{2}:\d{2}", listed.text)  # no ISO dates
        assert not re.search(r"\d{4}-\d{2}-\d{2}", listed.text)

        login(sergio, "sergio")  # another person resumes it: the form is refilled
        page = sergio.get(f"/equipe/minutas/{ident}")
        assert page.status_code == 200
        assert 'value="Indústria Alfa"' in page.text
        assert f'name="_minuta" value="{ident}"' in page.text
        other = csrf_of(sergio, NEW)
        again = _post(sergio, SAVE, other, web_context, _partial("Beta"), ("_acao", "salvar"),
                      ("_minuta", str(ident)), ("_versao", "1"))
        assert _draft_id(again) == ident
        stored = web_context.registry.draft(ident)
        assert stored is not None and stored.version == 2
        assert stored.data["cliente"] == "Indústria Beta"
        assert stored.updated_by.startswith("Sérgio Signatário")

        stale = _post(clara, SAVE, token, web_context, _partial("Gama"), ("_acao", "salvar"),
                      ("_minuta", str(ident)), ("_versao", "1"))
        assert stale.status_code == 409
        message = " ".join(errors_in(stale.text))
        assert "foi alterada por Sérgio Signatário" in message and "nada foi gravado" in message
        assert 'value="Indústria Gama"' in stale.text  # what she typed is still on the page
        assert "/minuta" not in message and "StaleDraft" not in stale.text
        after = web_context.registry.draft(ident)
        assert after is not None and after.data["cliente"] == "Indústria Beta"

        late = clara.post(f"/equipe/minutas/{ident}/descartar",
                          data={"csrf": token, "_versao": "1"}, follow_redirects=False)
        assert late.status_code == 409 and "foi alterada por Sérgio" in late.text
        discarded = clara.post(f"/equipe/minutas/{ident}/descartar",
                               data={"csrf": token, "_versao": "2"}, follow_redirects=False)
        assert discarded.headers["location"] == "/equipe/minutas?aviso=minuta-descartada"
        assert "Minuta descartada." in clara.get(discarded.headers["location"]).text
        gone = clara.get("/equipe/minutas", params={"situacao": "descartado"}).text
        assert f'href="/equipe/minutas/{ident}"' in gone
        assert 'id="salvar-minuta"' not in clara.get(f"/equipe/minutas/{ident}").text


def test_forward_then_issue_from_the_draft(client: TestClient, web_context: WebContext) -> None:
    login(client, "sergio")
    token = csrf_of(client, NEW)
    data = example(ALV)
    set_vehicle(data["veiculo"], "MIN2T67")  # one alvará per vehicle (fretamento art. 8º)
    ident = _draft_id(_post(client, SAVE, token, web_context, data, ("_acao", "encaminhar")))
    draft = web_context.registry.draft(ident)
    assert draft is not None and draft.status.value == "encaminhado"
    assert draft.signer_role == web_context.form(ALV).signer_role
    assert "Minuta salva e encaminhada para assinatura." in client.get(
        f"/equipe/minutas/{ident}?aviso=minuta-encaminhada").text
    queue = client.get("/equipe/minutas", params={"situacao": "encaminhado"})
    assert f'href="/equipe/minutas/{ident}"' in queue.text
    assert "encaminhado para assinatura" in queue.text
    assert f'href="/equipe/minutas/{ident}"' not in client.get(
        "/equipe/minutas", params={"situacao": "rascunho"}).text

    issued = _post(client, NEW, token, web_context, data, ("_acao", "emitir"),
                   ("_chave", f"minuta-{ident}"), ("_minuta", str(ident)),
                   ("_versao", str(draft.version)), ("_senha_assinatura", PASSWORD))
    assert issued.status_code == 303, errors_in(issued.text)
    doc = int(issued.headers["location"].split("?")[0].rsplit("/", 1)[1])
    pdf = client.get(f"/equipe/documentos/{doc}/documento.pdf").content
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()
    assert "MIN2T67" in " ".join(text.split())  # the document carries the draft's data
    done = web_context.registry.draft(ident)
    assert done is not None and done.status.value == "emitido" and done.document_id == doc
    page = client.get(f"/equipe/minutas/{ident}").text
    assert "Minuta nº" in page and "emitido" in page
    assert f'href="/equipe/documentos/{doc}"' in page
    assert 'id="salvar-minuta"' not in page and 'id="emitir"' not in page
    twice = _post(client, NEW, token, web_context, data, ("_acao", "emitir"),
                  ("_chave", "outra-chave"), ("_minuta", str(ident)), ("_versao", "3"))
    assert twice.status_code == 422
    assert "já foi emitido" in " ".join(errors_in(twice.text))


def test_an_expired_session_keeps_the_typed_data(client: TestClient,
                                                 web_context: WebContext) -> None:
    account = web_context.users.by_name("dora") or web_context.users.add(
        "dora", PASSWORD, Role.CLERK, full_name="Dora Redatora")
    login(client, "dora")
    token = csrf_of(client, NEW)
    with web_context.registry.engine.begin() as connection:
        connection.execute(update(sessions_table)
                           .where(sessions_table.c.user_id == account.id)
                           .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    before = len(web_context.registry.drafts(form=ALV, limit=500))
    expired = _post(client, SAVE, token, web_context, _partial("Delta"), ("_acao", "salvar"))
    assert expired.status_code == 401
    assert len(web_context.registry.drafts(form=ALV, limit=500)) == before  # nothing stored
    assert "A sua sessão expirou" in " ".join(errors_in(expired.text))
    pending = re.search(r'name="pendente" value="([^"]+)"', expired.text)
    assert pending is not None and "Indústria Delta" in html.unescape(pending.group(1))
    csrf = re.search(r'name="csrf" value="([^"]+)"', expired.text)
    assert csrf is not None
    fields = {"csrf": csrf.group(1), "usuario": "dora", "proximo": NEW,
              "pendente": html.unescape(pending.group(1))}
    wrong = client.post("/entrar", data={**fields, "senha": "errada-errada"},
                        follow_redirects=False)
    assert wrong.status_code == 401 and 'name="pendente"' in wrong.text  # kept on a typo
    signed = client.post("/entrar", data={**fields, "senha": PASSWORD}, follow_redirects=False)
    ident = _draft_id(signed)
    stored = web_context.registry.draft(ident)
    assert stored is not None and stored.data["cliente"] == "Indústria Delta"
    assert stored.created_by.startswith("Dora Redatora")
    assert 'value="Indústria Delta"' in client.get(signed.headers["location"]).text

"""The signing queue (issue 25, step 3): drafts forwarded to a signer wait in
«Assinaturas pendentes»; the signer reads them, signs several at once with the password
(the key unlocked once), each checked at that moment (one refused does not stop the
others), or returns one to the clerk with the reason."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from webhelpers import ALV, PASSWORD, csrf_of, errors_in, example, form_data, login

from lavra import signers
from lavra.registry.drafts import Draft
from lavra.signing.pki import load_signer
from lavra.web import WebContext
from lavra.web.formparse import to_pairs
from lavra.web.users import Role

QUEUE = "/equipe/assinaturas"
CARGO = "Secretário Municipal de Transportes e Sistema Viário"
CLERK = "Clara Redatora (clara)"


def _signer(ctx: WebContext, name: str, full_name: str) -> None:
    if ctx.users.by_name(name) is None:
        ctx.users.add(name, PASSWORD, Role.SIGNER, full_name=full_name,
                      signer_roles=["secretario-transportes"])


def _data(placa: str) -> dict[str, Any]:
    data = example(ALV)
    set_vehicle(data["veiculo"], placa)  # one alvará per vehicle (fretamento art. 8º)
    return data


def _forwarded(ctx: WebContext, placa: str, account: str | None = None) -> Draft:
    """A draft saved and forwarded by the clerk, as «Encaminhar para assinatura» does."""
    draft = ctx.registry.save_draft(ALV, _data(placa), title=f"Alvará — {placa}", by=CLERK)
    role = ctx.form(ALV).signer_role
    assert role is not None
    return ctx.registry.forward_draft(draft.id, version=draft.version, signer_role=role,
                                      by=CLERK, signer_account=account)


def _sign(client: TestClient, picks: list[Draft], password: str) -> Any:
    token = csrf_of(client, QUEUE)
    pairs = [("csrf", token), ("_senha_assinatura", password),
             *(("minutas", f"{d.id}:{d.version}") for d in picks)]
    return client.post(f"{QUEUE}/assinar", data=form_data(pairs), follow_redirects=False)


def _result(page: str, draft: Draft) -> str:
    found = re.search(rf'<li class="[^"]*" id="resultado-{draft.id}">(.*?)</li>\n', page, re.S)
    assert found is not None, page[:3000]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def _pdf_text(client: TestClient, document_id: int) -> str:
    pdf = client.get(f"/equipe/documentos/{document_id}/documento.pdf").content
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return " ".join(out.stdout.decode("utf-8").split())


def test_two_drafts_signed_at_once_with_one_unlocking(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    _signer(web_context, "helena", "Helena Quintal Assis")
    login(client, "clara")  # the clerk forwards one draft to Helena by name, on the form
    new = f"/equipe/novo/{ALV}"
    assert '<option value="helena">Helena Quintal Assis</option>' in client.get(new).text
    saved = client.post(f"{new}/salvar", follow_redirects=False, data=form_data([
        ("csrf", csrf_of(client, new)), ("_acao", "encaminhar"), ("_assinante", "helena"),
        *to_pairs(web_context.schema(ALV), _data("FIL1A11"))]))
    assert saved.status_code == 303, errors_in(saved.text)
    first = web_context.registry.draft(int(saved.headers["location"].split("?")[0]
                                           .rsplit("/", 1)[1]))
    assert first is not None and first.signer_account == "helena"
    second = _forwarded(web_context, "FIL2B22")
    elsewhere = _forwarded(web_context, "FIL3C33", account="sergio")  # not Helena's
    assert 'href="/equipe/assinaturas"' not in client.get("/equipe").text  # clara signs nothing

    login(client, "helena")
    waiting = web_context.registry.signing_queue_count(["secretario-transportes"],
                                                       account="helena")
    assert waiting >= 2
    home = client.get("/equipe").text
    assert re.search(rf'id="assinaturas-pendentes">.*{waiting} minutas aguardam a sua '
                     "assinatura", home)
    queue = client.get(QUEUE).text
    for draft in (first, second):
        assert f'<a href="/equipe/assinaturas/{draft.id}">{draft.title}</a>' in queue
        assert f'<label for="selecionar-{draft.id}">nº {draft.id}</label>' in queue
    assert f'href="/equipe/assinaturas/{elsewhere.id}"' not in queue
    assert "por Clara Redatora (clara) em " in queue and "encaminhada a você" in queue
    opened = client.get(f"{QUEUE}/{first.id}")
    assert opened.status_code == 200 and 'id="devolver"' in opened.text
    preview = client.get(f"{QUEUE}/{first.id}/minuta.pdf")
    assert preview.headers["content-type"] == "application/pdf"
    assert client.get(f"{QUEUE}/{elsewhere.id}").status_code == 404

    wrong = _sign(client, [first, second], "senha-errada-000")
    assert wrong.status_code == 422
    assert errors_in(wrong.text) == ["Senha de assinatura incorreta. Nada foi emitido."]
    assert "senha-errada-000" not in wrong.text
    for placa in ("FIL1A11", "FIL2B22"):
        assert web_context.registry.search(placa) == ()

    unlocked: list[str] = []

    def counted(certificate: Path, passphrase: str) -> Any:
        unlocked.append(certificate.name)
        return load_signer(certificate, passphrase)

    monkeypatch.setattr(signers, "load_signer", counted)
    signed = _sign(client, [first, second], PASSWORD)
    assert signed.status_code == 200, errors_in(signed.text)
    assert len(unlocked) == 1  # the PKCS#12 is opened once for the batch
    assert "2 de 2 minuta(s) assinada(s) e emitida(s)." in signed.text
    for draft, placa in ((first, "FIL1A11"), (second, "FIL2B22")):
        done = web_context.registry.draft(draft.id)
        assert done is not None and done.status.value == "emitido"
        assert done.document_id is not None
        record, = web_context.registry.search(placa)
        assert _result(signed.text, draft) == (
            f"Minuta nº {draft.id} ({draft.title}): assinada — {record.printed}")
        assert record.id == done.document_id
        assert f'<a href="/equipe/documentos/{done.document_id}">' in signed.text
        text = _pdf_text(client, done.document_id)
        assert f"por Helena Quintal Assis, {CARGO}" in text and placa in text
    after = client.get(QUEUE).text
    assert f'href="/equipe/assinaturas/{first.id}"' not in after
    assert f'href="/equipe/assinaturas/{second.id}"' not in after


def test_a_refused_draft_does_not_stop_the_others(client: TestClient,
                                                  web_context: WebContext) -> None:
    _signer(web_context, "ivo", "Ivo Tavares Lima")
    taken = _forwarded(web_context, "REC1A11", account="ivo")
    good = _forwarded(web_context, "REC2B22", account="ivo")
    edited = _forwarded(web_context, "REC3C33", account="ivo")
    login(client, "ivo")
    # meanwhile the vehicle of the first got its alvará, and the third was edited
    web_context.require_issuer().issue(ALV, _data("REC1A11"))
    web_context.registry.update_draft(edited.id, _data("REC3C33"), version=edited.version,
                                      title=edited.title, by=CLERK)
    page = _sign(client, [taken, good, edited], PASSWORD)
    assert page.status_code == 200
    assert "1 de 3 minuta(s) assinada(s) e emitida(s)." in page.text
    refused = _result(page.text, taken)
    assert refused.startswith(f"Minuta nº {taken.id} (Alvará — REC1A11): não assinada — ")
    assert "O veículo de placa REC1A11 já tem licença em vigor: ALV-FRET nº " in refused
    assert refused.endswith("(art. 8º da Lei nº 4.419/2006)")
    assert "(campo" not in refused and "Error" not in refused
    assert "assinada — ALV-FRET nº " in _result(page.text, good)
    assert "foi alterada por Clara Redatora" in _result(page.text, edited)
    for draft, status in ((taken, "encaminhado"), (good, "emitido"), (edited, "encaminhado")):
        now = web_context.registry.draft(draft.id)
        assert now is not None and now.status.value == status
    assert len(web_context.registry.search("REC1A11")) == 1  # only the direct issue


def test_return_a_draft_to_the_clerk(client: TestClient, web_context: WebContext) -> None:
    _signer(web_context, "joana", "Joana Prado Matos")
    draft = _forwarded(web_context, "DEV1A11", account="joana")
    login(client, "joana")
    url = f"{QUEUE}/{draft.id}/devolver"
    token = csrf_of(client, f"{QUEUE}/{draft.id}")
    assert client.post(url, data={"_versao": str(draft.version), "motivo": "Sem CSRF."},
                       follow_redirects=False).status_code == 403
    empty = client.post(url, data={"csrf": token, "_versao": str(draft.version),
                                   "motivo": "  "}, follow_redirects=False)
    assert empty.status_code == 422
    assert "motivo da devolução" in " ".join(errors_in(empty.text))
    returned = client.post(url, data={"csrf": token, "_versao": str(draft.version),
                                      "motivo": "Falta o CRLV do veículo."},
                           follow_redirects=False)
    assert returned.headers["location"] == f"{QUEUE}?aviso=minuta-devolvida"
    assert "Minuta devolvida à redação" in client.get(returned.headers["location"]).text
    back = web_context.registry.draft(draft.id)
    assert back is not None and back.status.value == "rascunho"
    assert back.returned_reason == "Falta o CRLV do veículo."
    assert f'href="/equipe/assinaturas/{draft.id}"' not in client.get(QUEUE).text
    login(client, "clara")
    shown = client.get(f"/equipe/minutas/{draft.id}").text
    note = re.search(r'id="minuta-devolvida">([^<]+)<', shown)
    assert note is not None
    assert re.fullmatch(r"Devolvida por Joana Prado Matos \(joana\) em \d{2}/\d{2}/\d{4} "
                        r"\d{2}:\d{2}\. Motivo: Falta o CRLV do veículo\.",
                        html.unescape(note.group(1)))
    assert client.get(f"{QUEUE}/{draft.id}").status_code == 404

"""Following a filed requerimento (/acompanhar): status, the acts of its processo, no
enumeration of protocols."""

from __future__ import annotations

import json
import re
import subprocess
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webhelpers import REQ, blank_pdf, csrf_of, example, login

from lavra.recording import FactRecorder
from lavra.registry.filings import Filings, parse_protocol
from lavra.web import WebContext

CNPJ = "65.563.842/0001-05"
OTHER_CPF = "529.982.247-25"


def _file(client: TestClient) -> str:
    """Files the example requerimento without its cartão CNPJ; its protocol number."""
    data = example(REQ)
    data["documentos"]["cartao_cnpj"] = {"apresentado": False}
    token = csrf_of(client, f"/requerimentos/{REQ}")
    fields = {"csrf": token, "dados": json.dumps(data, ensure_ascii=False),
              "nome": "Viação Exemplo de Fretamento Ltda.", "documento": CNPJ,
              "confirmo": "sim"}
    response = client.post(f"/requerimentos/{REQ}/protocolar/confirmar", data=fields,
                           follow_redirects=False)
    assert response.status_code == 303, response.text[:800]
    shown = client.get(response.headers["location"]).text
    found = re.search(r'id="numero-protocolo">([^<]+)<', shown)
    assert found is not None
    return found.group(1)


def _track(client: TestClient, protocol: str, doc: str) -> Any:
    token = csrf_of(client, "/acompanhar")
    return client.post("/acompanhar", data={"csrf": token, "protocolo": protocol,
                                            "documento": doc})


def _text(html: str, ident: str) -> str:
    found = re.search(rf'id="{ident}"[^>]*>(.*?)</', html, re.S)
    assert found is not None, ident
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_parse_protocol() -> None:
    for typed in ("PROT nº 0001/2026", "PROT 0001/2026", "0001/2026", " prot  n. 1 / 2026 ",
                  "PROT Nº 0001/2026"):
        assert parse_protocol(typed, "PROT") == "PROT nº 0001/2026", typed
    for typed in ("ALV-FRET nº 0001/2026", "0000/2026", "abc", "1/26"):
        assert parse_protocol(typed, "PROT") is None, typed


def test_track_received_then_decided(client: TestClient, web_context: WebContext) -> None:
    protocol = _file(client)
    short = protocol.removeprefix("PROT nº ")
    filed = Filings(web_context.registry).by_protocol(protocol)
    assert filed is not None and filed.pending

    response = _track(client, short, "65563842000105")  # the number alone, CNPJ digits
    assert response.status_code == 200, response.text[:800]
    assert _text(response.text, "situacao") == "recebido"
    assert _text(response.text, "protocolado-em").startswith(
        filed.filed_at_local.strftime("%d/%m/%Y %H:%M"))
    assert web_context.form_title(REQ) in response.text
    items = re.findall(r"<li>([^<]+)</li>", response.text.split('id="pendencias"')[1])
    assert items and items[0].strip() == filed.pending[0]
    assert 'id="atos"' not in response.text

    # A wrong pair answers as an unknown protocol: same status, same message.
    wrong = _track(client, protocol, OTHER_CPF)
    unknown = _track(client, "PROT nº 9999/2026", CNPJ)
    assert wrong.status_code == unknown.status_code == 404
    assert _text(wrong.text, "erro-consulta") == _text(unknown.text, "erro-consulta")
    assert 'id="situacao"' not in wrong.text and filed.name not in wrong.text

    # The refusal issued in the processo shows, with its links and its appeal.
    data = json.loads((web_context.config.pack_dir / "forms" / "decisao-indeferimento" /
                       "exemplo.json").read_text(encoding="utf-8"))
    data["processo"]["numero"] = protocol
    refusal = web_context.require_issuer().issue("decisao-indeferimento", data).record
    response = _track(client, f"PROT {short}", CNPJ)  # masked CNPJ, series without "nº"
    assert response.status_code == 200
    assert _text(response.text, "situacao") == "decidido"
    acts = response.text.split('id="atos"')[1]
    assert refusal.printed in acts
    code = refusal.verification_code
    assert f'href="/verificar/{code}"' in acts
    assert f'href="/verificar/{code}/documento.pdf"' in acts
    appeal = re.search(r'class="recurso"><strong>Recurso:</strong>([^<]+)<', acts)
    assert appeal is not None
    # The example refuses an inscription: art. 11, 5 days, to the Prefeito.
    assert "5 (cinco) dias" in appeal.group(1) and "Prefeito Municipal" in appeal.group(1)
    assert client.get(f"/verificar/{code}/documento.pdf").content.startswith(b"%PDF-")


def test_guessing_is_throttled(client: TestClient, web_context: WebContext) -> None:
    web_context.tracking_throttle = type(web_context.tracking_throttle)()
    statuses = [_track(client, "PROT nº 8888/2026", f"000.000.001-{n:02d}").status_code
                for n in range(5)]
    assert statuses[:3] == [404, 404, 404] and 429 in statuses[3:]
    blocked = _track(client, "8888/2026", "000.000.001-91")  # same protocol, other form
    assert blocked.status_code == 429 and "Aguarde" in blocked.text


def test_status_of_the_processo() -> None:
    from lavra.web.pages_tracking import ActView, status_of

    def act(*, notice: bool, cancelled: bool = False) -> ActView:
        return ActView(id=1, title="t", printed="X nº 0001/2026", issued_on="01/06/2026", code="c",
                       cancelled=cancelled, has_pdf=True, notice=notice, last_day=None,
                       appeal=None)

    assert status_of(()) == "recebido"
    assert status_of((act(notice=False, cancelled=True),)) == "recebido"
    assert status_of((act(notice=True),)) == "pendente"
    assert status_of((act(notice=True), act(notice=False))) == "decidido"


def _refusal(web_context: WebContext, protocol: str, own: bool) -> Any:
    """A refusal in the protocol's processo: of the filed request itself, as «Preparar
    ato» builds it (addressed to the filer), or the example's (addressed to another)."""
    if own:
        from lavra.filedacts import ActSource, FiledRequest
        from lavra_americana.comum.protocolos import indeferimento

        filed = Filings(web_context.registry).by_protocol(protocol)
        assert filed is not None
        request = FiledRequest(
            protocol=filed.protocol, processo=filed.processo, form=filed.form,
            data=filed.data, cpf_cnpj=filed.cpf_cnpj, name=filed.name,
            filed_on=filed.filed_at_local.date(), licence=None)
        data = indeferimento(ActSource(request, None, None, filed.filed_at_local.date()))
    else:
        data = json.loads((web_context.config.pack_dir / "forms" / "decisao-indeferimento" /
                           "exemplo.json").read_text(encoding="utf-8"))
        data["processo"]["numero"] = protocol
    return web_context.require_issuer().issue("decisao-indeferimento", data).record


def _ciencia(client: TestClient, protocol: str, doc: str, act: int) -> Any:
    token = csrf_of(client, "/acompanhar")
    return client.post("/acompanhar/ciencia", data={
        "csrf": token, "protocolo": protocol, "documento": doc, "ato": str(act)})


def test_electronic_ciencia(client: TestClient, web_context: WebContext,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Lei nº 9.784/1999, art. 26, § 3º: the applicant's click on «Tomar ciência e abrir o
    documento» records the ciência once, at the injected instant; only for the act
    addressed to that applicant; the period then shows on this page and /verificar."""
    protocol = _file(client)
    own = _refusal(web_context, protocol, own=True)
    other = _refusal(web_context, protocol, own=False)
    moment = own.issued_at + timedelta(minutes=7)
    monkeypatch.setattr(web_context, "now", lambda: moment)

    shown = _track(client, protocol, CNPJ).text
    assert f'id="ciencia-{own.id}"' in shown and f'id="ciencia-{other.id}"' not in shown
    assert f"/verificar/{own.verification_code}/documento.pdf" not in shown  # no silent link
    assert f"/verificar/{other.verification_code}/documento.pdf" in shown
    assert "começam a correr os prazos" in shown

    # Another party's act, and a wrong pair: refused, nothing recorded.
    refused = _ciencia(client, protocol, CNPJ, other.id)
    assert refused.status_code == 422 and "não é dirigido" in refused.text
    assert _ciencia(client, protocol, OTHER_CPF, own.id).status_code == 404
    registry = web_context.registry
    assert registry.facts(other.id) == () and registry.facts(own.id) == ()

    done = _ciencia(client, protocol, CNPJ, own.id)
    assert done.status_code == 200, done.text[:800]
    assert "registrada" in _text(done.text, "ciencia-registrada")
    assert f'href="/verificar/{own.verification_code}/documento.pdf" id="abrir-documento"' \
        in done.text
    again = _ciencia(client, protocol, CNPJ, own.id)  # a second access changes nothing
    assert again.status_code == 200 and "já consta" in again.text
    facts = registry.facts(own.id)
    assert len(facts) == 1
    fact = facts[0]
    assert (fact.kind, fact.means, fact.occurred_at, fact.recorded_at, fact.with_time) == (
        "ciencia", "eletronico", moment, moment, True)
    assert fact.reference == protocol and "requerente do protocolo" in fact.recorded_by

    deadlines = FactRecorder(registry, web_context.engine.content).deadlines(own)
    assert deadlines and deadlines[0].ciencia.on == fact.on
    summary = deadlines[0].summary
    assert summary.startswith(f"Ciência em {fact.on.strftime('%d/%m/%Y')}; prazo de recurso")
    assert summary in _track(client, protocol, CNPJ).text
    assert summary in client.get(f"/verificar/{own.verification_code}").text


def test_recurso_from_the_tracking_page(client: TestClient, web_context: WebContext,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fretamento art. 24: the recurso against the refusal, within the 15 days counted
    from the ciência on record, gets its own PROT and receipt in the same processo and
    reaches the inbox; out of the period, or against an act addressed to another,
    nothing is filed."""
    # Filings are limited per CPF/CNPJ, counted in the registry: this test's own count.
    monkeypatch.setattr(web_context, "filing_throttle", type(web_context.filing_throttle)(
        store=lambda: web_context._events("protocolar-teste-recurso")))
    protocol = _file(client)
    own = _refusal(web_context, protocol, own=True)
    other = _refusal(web_context, protocol, own=False)
    monkeypatch.setattr(web_context, "now", lambda: own.issued_at + timedelta(minutes=3))
    assert _ciencia(client, protocol, CNPJ, own.id).status_code == 200
    registry = web_context.registry
    (deadline,) = [d for d in FactRecorder(registry, web_context.engine.content)
                   .deadlines(own) if d.citation == "fretamento#art24"]
    filings = Filings(registry)
    original = filings.by_protocol(protocol)
    assert original is not None

    def appeal(act: int, **extra: Any) -> Any:
        token = csrf_of(client, "/acompanhar")
        fields = {"csrf": token, "protocolo": protocol, "documento": CNPJ, "ato": str(act),
                  "razoes": "O cartão CNPJ foi apresentado; segue cópia.", "confirmo": "sim",
                  "token": "recurso-" + "x" * 20, **extra}
        return client.post("/acompanhar/recurso", data=fields, follow_redirects=False,
                           files=[("anexo:/provas", ("cartao.pdf", blank_pdf(),
                                                     "application/pdf"))])

    def count() -> int:
        return len(filings.acts(original))

    before = count()
    monkeypatch.setattr(web_context, "today", lambda: deadline.last_day + timedelta(days=1))
    late = appeal(own.id)
    assert late.status_code == 422 and "encerrou-se em " in late.text
    assert deadline.last_day.strftime("%d/%m/%Y") in late.text
    monkeypatch.setattr(web_context, "today", lambda: deadline.ciencia.on)
    shown = _track(client, protocol, CNPJ).text
    assert f'id="recurso-{own.id}"' in shown and f'id="recurso-{other.id}"' not in shown
    wrong = appeal(other.id)
    assert wrong.status_code == 422 and "não é dirigido" in wrong.text
    assert count() == before  # nothing written

    done = appeal(own.id)
    assert done.status_code == 303, done.text[:800]
    code = done.headers["location"].rsplit("/", 1)[-1]
    receipt = registry.by_code(code)
    assert receipt is not None
    filed = filings.by_receipt(receipt.id)
    assert filed is not None and filed.form == "recurso-fretamento"
    assert filed.processo == original.processo and filed.protocol != protocol
    assert filed.data["ato_recorrido"]["numero"] == own.printed
    assert filed.data["instancia"] == "prefeito" and len(filed.attachments) == 1
    pdf = client.get(f"/verificar/{code}/documento.pdf").content
    text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                   check=True).stdout.decode().split())
    assert filed.protocol in text and "cartao.pdf" in text and own.printed in text
    again = appeal(own.id)  # the same page sent twice: the first protocol, no second
    assert again.status_code == 303 and again.headers["location"].endswith(code)

    login(client, "clara")
    inbox = client.get("/equipe/protocolos").text
    assert filed.protocol in inbox and web_context.form_title("recurso-fretamento") in inbox

    # «Preparar ato» on the recurso's inbox page (the page's own button, its own label):
    # the Prefeito's decision (DEC-GP, art. 24) with the recurso, the recorrente and the
    # act appealed, with its ciência, carried over; the page then links the draft.
    page = client.get(f"/equipe/protocolos/{filed.id}").text
    form = re.search(r'<form method="post" action="(/equipe/protocolos/\d+/ato)">(.*?)</form>',
                     page, re.S)
    assert form is not None and form.group(1) == f"/equipe/protocolos/{filed.id}/ato"
    choice = re.search(r'<input type="radio" id="ato-\d+" name="ato" value="(\d+)" required>'
                       r'\s*<label for="ato-\d+">Decisão do Prefeito sobre o recurso \(art. '
                       r'24\)</label>', form.group(2))
    assert choice is not None and 'id="botao-preparar-ato"' in form.group(2)
    token = re.search(r'name="csrf" value="([^"]+)"', form.group(2))
    assert token is not None
    made = client.post(form.group(1), data={"csrf": token.group(1), "ato": choice.group(1)},
                       follow_redirects=False)
    assert made.status_code == 303, made.text[-800:]
    from lavra.registry.inbox import Inbox

    case = Inbox(registry).case(filed.id)
    assert case is not None and case.draft_id is not None
    draft = registry.draft(case.draft_id)
    assert draft is not None and draft.form == "decisao-recurso-prefeito"
    assert draft.data["recurso"] == {
        "hipotese": "fretamento#art24", "numero_protocolo": filed.protocol,
        "data_protocolo": filed.filed_at_local.date().isoformat(),
        "razoes": "O cartão CNPJ foi apresentado; segue cópia."}
    assert draft.data["recorrente"] == {"nome": filed.name, "cnpj": CNPJ}
    assert draft.data["ato_recorrido"] == {
        "especie": "decisao", "numero": own.printed,
        "data": own.issued_at_local.date().isoformat(),
        "data_ciencia": deadline.ciencia.on.isoformat()}
    assert f'href="/equipe/minutas/{draft.id}"' in client.get(
        f"/equipe/protocolos/{filed.id}").text

"""The staff inbox of filed requerimentos (issue 26, step 3): list and filter, open
(labelled data, attachments, report), review the attachments (a refusal makes the
filing pendente with what is missing and the last day), «Preparar ato» (the draft of
the act, carried over from the request, in the signer's queue), and the filing decided
when the act is signed."""

from __future__ import annotations

import html
import io
import re
import secrets
import subprocess
from datetime import UTC, date, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from identities import set_vehicle
from PIL import Image
from webhelpers import ALV, PASSWORD, REQ, blank_pdf, csrf_of, errors_in, example, login

from lavra.errors import InputError
from lavra.filedacts import ActSource, FiledRequest
from lavra.inputs.formats import mask_cnpj
from lavra.registry.abandon import abandon
from lavra.registry.filing_status import FilingStatus
from lavra.registry.filings import Attachment, Filed, FilingInput, Filings
from lavra.registry.inbox import Inbox, Review
from lavra.registry.licensing import LicenceView
from lavra.registry.records import Built
from lavra.registry.runs import PlannedHolder, PlannedOutput, plan_run, run_items
from lavra.web import WebContext
from lavra_americana.comum import protocolos
from lavra_americana.transporte_escolar.renovacao_lote import renewed_alvara

CNPJ = "65.563.842/0001-05"
BASE = "/equipe/protocolos"
ITEMS = ("/documentos/cartao_cnpj", "/documentos/inspecao_veicular")


_pdf = blank_pdf


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, format="PNG")
    return out.getvalue()


def _built(number: int, printed: str, moment: datetime) -> Built:
    """A stand-in receipt (the sealed one is test_filing's): the inbox reads the filing."""
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"INB-{secrets.token_hex(6)}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def _filed(ctx: WebContext, placa: str, moment: datetime,
           name: str = "Viação Exemplo de Fretamento Ltda.") -> tuple[Filed, dict[str, Any]]:
    """A requerimento de alvará de fretamento filed through the registry's API."""
    data = example(REQ)
    set_vehicle(data["veiculos"][0], placa)  # one alvará per vehicle: a plate of its own
    data["veiculos"] = data["veiculos"][:1]
    entry = FilingInput(
        series="PROT", form=REQ, data=data, cpf_cnpj=CNPJ, name=name,
        attachments=(Attachment(ITEMS[0], "cartao-cnpj.pdf", _pdf()),
                     Attachment(ITEMS[1], "inspecao.png", _png())))
    filed = Filings(ctx.registry).file(entry, _built, receipt_form="comprovante-protocolo",
                                       now=moment)
    return filed, data


def _text(page: str, ident: str) -> str:
    found = re.search(rf'id="{ident}"[^>]*>(.*?)</(?:dd|p|ul|table)>', page, re.S)
    assert found is not None, page[:2000]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def _post(client: TestClient, url: str, page_url: str, **fields: str) -> Any:
    """Post as the page's form does (the session's token, read from the light list)."""
    return client.post(url, data={"csrf": csrf_of(client, BASE + "?situacao=decidido"),
                                  **fields}, follow_redirects=False)


def test_inbox_review_prepare_sign_decide(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 2))  # a Wednesday
    filed, data = _filed(web_context, "INB1A26", datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    other, _ = _filed(web_context, "INB2B26", datetime(2026, 11, 20, 13, 5, tzinfo=UTC))

    assert client.get(BASE, follow_redirects=False).status_code in (302, 303, 401)
    login(client, "clara")
    listing = client.get(BASE).text
    assert listing.index(filed.protocol) < listing.index(other.protocol)  # newest first
    only = client.get(BASE, params={"de": "01/12/2026", "ate": "01/12/2026",
                                    "formulario": REQ, "situacao": "recebido"}).text
    assert filed.protocol in only and other.protocol not in only
    assert other.protocol not in client.get(BASE, params={"situacao": "pendente"}).text
    assert client.get(BASE, params={"pagina": "x"}).status_code == 200  # the first page
    bad = client.get(BASE, params={"de": "31/02/2026"})
    assert bad.status_code == 422
    assert errors_in(bad.text) == ["Recebidos a partir de: a data 31/02/2026 não existe."]

    url = f"{BASE}/{filed.id}"
    opened = client.get(url)
    assert opened.status_code == 200
    assert _text(opened.text, "situacao-protocolo") == "recebido"
    shown = _text(opened.text, "dados-protocolo")
    assert "Razão social Viação Exemplo de Fretamento Ltda." in shown  # labels, not keys
    assert "razao_social" not in shown and "Veículo 1 Placa INB1A26" in shown
    assert "Tipo de veículo Ônibus rodoviário" in shown  # an enum by its label
    assert "Relatório de completude" in opened.text and "relatorio-resumo" in opened.text
    pdf_id, png_id = (a.id for a in filed.attachments)
    download = client.get(f"{url}/anexos/{pdf_id}")
    assert download.status_code == 200
    assert download.content.startswith(b"%PDF-") and "attachment" in download.headers[
        "content-disposition"]
    assert client.get(f"{BASE}/{other.id}/anexos/{pdf_id}").status_code == 404

    # a refusal needs its reason; then the filing is pendente with the last day
    no_reason = _post(client, f"{url}/anexos/{png_id}/analise", url, decisao="recusar")
    assert no_reason.status_code == 422
    assert errors_in(no_reason.text) == ["Informe o motivo da recusa."]
    marked = f'id="motivo-{png_id}" name="motivo" maxlength="1000" rows="2" aria-invalid="true"'
    assert marked in no_reason.text
    refused = _post(client, f"{url}/anexos/{png_id}/analise", url, decisao="recusar",
                    motivo="Laudo ilegível: envie a digitalização completa.")
    assert refused.status_code == 303
    page = client.get(url).text
    assert _text(page, "situacao-protocolo") == "pendente"
    # the period runs from the applicant's ciência of the refusal (Lei 9.784, arts. 26,
    # 39 and 66), not from the refusal: until then the page states it
    assert _text(page, "prazo-protocolo").startswith(
        "10 (dez) dias, contados da ciência da recusa; aguarda a ciência do requerente")
    assert _text(page, "pendencias-protocolo") == (
        "Comprovante de inspeção veicular: Laudo ilegível: envie a digitalização completa.")
    assert f'<li id="anexo-{png_id}">\n      <h3>Comprovante de inspeção veicular</h3>' in page
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.deadline is None and case.awaiting_ciencia
    assert case.status is FilingStatus.PENDING
    early = _post(client, f"{url}/ato", url, ato="0")  # the alvará waits for the document
    assert early.status_code == 422 and "documentos recusados" in errors_in(early.text)[0]

    for attachment in (pdf_id, png_id):
        accepted = _post(client, f"{url}/anexos/{attachment}/analise", url, decisao="aceitar")
        assert accepted.status_code == 303
    page = client.get(url).text
    assert _text(page, "situacao-protocolo") == "em análise"
    assert 'id="prazo-protocolo"' not in page and "Aceito</strong> por Clara" in page

    prepared = _post(client, f"{url}/ato", url, ato="0")
    assert prepared.status_code == 303, errors_in(prepared.text)
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is not None
    draft = web_context.registry.draft(case.draft_id)
    assert draft is not None and draft.form == ALV
    assert draft.status.value == "encaminhado" and draft.signer_role == "secretario-transportes"
    assert draft.data["empresa"]["cnpj"] == CNPJ
    assert draft.data["veiculo"] == data["veiculos"][0]
    assert draft.data["processo"]["numero"] == filed.processo
    assert draft.data["inspecao_veicular"] == data["documentos"]["inspecao_veicular"]
    assert filed.protocol in draft.title
    again = _post(client, f"{url}/ato", url, ato="1")
    assert again.status_code == 422 and f"minuta nº {draft.id}" in errors_in(again.text)[0]
    # what the request cannot carry is the staff's to add on the draft: the registration
    # and the conferência (art. 7º), the vistoria's findings (art. 10), the client (art. 11)
    alvara = example(ALV)
    attested = dict(draft.data)
    attested["veiculo"] = {**{k: v for k, v in alvara["veiculo"].items()
                              if k not in data["veiculos"][0]}, **draft.data["veiculo"]}
    attested["cliente"] = alvara["cliente"]
    attested["empresa"] = {**draft.data["empresa"],
                           "registro_setransv": alvara["empresa"]["registro_setransv"]}
    attested["processo"] = {**draft.data["processo"], "conferencia_requerimento":
                            alvara["processo"]["conferencia_requerimento"]}
    draft = web_context.registry.update_draft(draft.id, attested, version=draft.version,
                                              title=draft.title, by="Clara Redatora (clara)")

    login(client, "sergio")
    queue = client.get("/equipe/assinaturas").text
    assert f'href="/equipe/assinaturas/{draft.id}"' in queue
    signed = client.post("/equipe/assinaturas/assinar", follow_redirects=False, data={
        "csrf": csrf_of(client, "/equipe/assinaturas"), "_senha_assinatura": PASSWORD,
        "assinar": f"{draft.id}:{draft.version}"})
    assert signed.status_code == 200 and "1 de 1 minuta(s) assinada(s)" in signed.text
    done = web_context.registry.draft(draft.id)
    assert done is not None and done.document_id is not None
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.status is FilingStatus.DECIDED
    assert case.act_id == done.document_id
    page = client.get(url).text
    assert _text(page, "situacao-protocolo") == "decidido"
    assert f'href="/equipe/documentos/{done.document_id}">ato emitido' in page
    assert "Registrar análise" not in page  # a decided filing takes no more reviews
    act = client.get(f"/equipe/documentos/{done.document_id}/documento.pdf").content
    text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=act, capture_output=True,
                                   check=True).stdout.decode().split())
    # a processo opened by a protocol is printed by its number, without the PROT series
    assert "INB1A26" in text and f"processo nº {filed.processo.split()[-1]}" in text


def test_a_filing_under_a_new_name_shows_the_change(
    client: TestClient, web_context: WebContext
) -> None:
    """Issue 22, § 6: the CNPJ the registry knows under another razão social is shown to
    staff as a change, naming both names; the registry keeps the name it holds."""
    first, _ = _filed(web_context, "INB5E26", datetime(2026, 12, 1, 12, 0, tzinfo=UTC))
    registered = "Viação Exemplo de Fretamento Ltda."
    assert web_context.registry.party_name(CNPJ) == registered
    renamed, _ = _filed(web_context, "INB6F26", datetime(2026, 12, 1, 13, 0, tzinfo=UTC),
                        name="Exemplo Turismo e Fretamento Ltda.")
    login(client, "clara")
    shown = _text(client.get(f"{BASE}/{renamed.id}").text, "mudanca-nome")
    assert shown.startswith("Alteração de razão social: o CNPJ 65.563.842/0001-05 consta "
                            f"do registro como «{registered}»"), shown
    assert "o requerimento o nomeia «Exemplo Turismo e Fretamento Ltda.»" in shown
    assert 'id="mudanca-nome"' not in client.get(f"{BASE}/{first.id}").text
    assert web_context.registry.party_name(CNPJ) == registered  # not taken silently


def test_refusal_act_is_prepared_while_pending(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 3))
    filed, data = _filed(web_context, "INB3C26", datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    inbox = Inbox(web_context.registry)
    with pytest.raises(Exception, match="Informe o último dia"):
        inbox.review(filed.id, filed.attachments[0].id, accepted=False,
                     reason="Documento vencido.", deadline=None, by="Clara")
    inbox.review(filed.id, filed.attachments[0].id, accepted=False,
                 reason="Documento vencido.", deadline=date(2026, 12, 14), by="Clara")
    login(client, "clara")
    url = f"{BASE}/{filed.id}"
    forged = client.post(f"{url}/ato", data={"ato": "1"}, follow_redirects=False)
    assert forged.status_code == 403 and inbox.case(filed.id).draft_id is None  # type: ignore[union-attr]
    prepared = _post(client, f"{url}/ato", url, ato="1")
    assert prepared.status_code == 303, errors_in(prepared.text)
    case = inbox.case(filed.id)
    assert case is not None and case.draft_id is not None
    draft = web_context.registry.draft(case.draft_id)
    assert draft is not None and draft.form == "decisao-indeferimento"
    assert draft.data["requerimento"] == {
        "formulario": REQ, "protocolo": filed.protocol, "data_protocolo": "2026-12-02",
        "dados": data}
    assert draft.data["requerente"] == {"tipo": "pessoa_juridica", "cnpj": CNPJ,
                                        "nome": "Viação Exemplo de Fretamento Ltda."}
    assert draft.data["decisao"] == {"data": "2026-12-03"}


def _source(data: dict[str, Any], licence: LicenceView | None,
            licence_data: dict[str, Any] | None) -> ActSource:
    request = FiledRequest(
        protocol="PROT nº 0004/2026", processo="PROT 4/2026",
        form="requerimento-renovacao-escolar", data=data, cpf_cnpj="52998224725",
        name="José Exemplo dos Santos", filed_on=date(2026, 11, 20),
        licence=None if licence is None else licence.printed)
    return ActSource(request, licence, licence_data, date(2026, 12, 3))


def test_the_school_renewal_is_built_as_the_renewal_run_builds_it() -> None:
    request = example("requerimento-renovacao-escolar")
    previous = example("alvara-transporte-escolar")
    licence = LicenceView("ALV-ESC nº 0007/2026", "alvara-transporte-escolar", "em_vigor",
                          None, None, date(2026, 1, 1), date(2026, 12, 31), "52998224725",
                          "José Exemplo dos Santos", "EXE1A23")
    source = _source(request, licence, previous)
    built = protocolos.renovacao_escolar(source)
    assert built == renewed_alvara(previous, licence.printed, date(2026, 12, 31), {
        "requerimento": request, "processo": "PROT 4/2026"}, date(2026, 12, 3))
    assert built["modalidade"] == "renovacao" and built["processo"]["numero"] == "PROT 4/2026"
    assert built["alvara_anterior"] == {"numero": "ALV-ESC nº 0007/2026",
                                        "valido_ate": "2026-12-31"}
    with pytest.raises(InputError, match="não indica um alvará do cadastro"):
        protocolos.renovacao_escolar(_source(request, None, None))
    choices = [c.form for c in protocolos.ATOS["requerimento-renovacao-escolar"]]
    assert choices == ["alvara-transporte-escolar", "decisao-indeferimento"]
    assert protocolos.prazo_complementacao(date(2026, 12, 2)) == date(2026, 12, 14)


def test_preparar_ato_is_refused_while_a_renewal_run_holds_the_filing(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A filing a batch run planned for (its item pending) is refused by «Preparar ato»
    with the run named and what to do; nothing is written; once the item is abandoned
    (its number voided), the act is prepared (lavra.registry.filing_holds)."""
    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 4))
    filed, _ = _filed(web_context, "INB4D26", datetime(2026, 12, 3, 12, 0, tzinfo=UTC))
    series = web_context.form(ALV).series
    assert series is not None
    run = plan_run(web_context.registry, "renovacao-teste", "renovacao-teste:2027", "f" * 64,
                   {}, date(2026, 12, 4), 2026, [PlannedHolder(
                       "65563842000105", "Viação Exemplo de Fretamento Ltda.", "renovado",
                       (PlannedOutput(ALV, {"processo": {"numero": filed.protocol}},
                                      "alvara.pdf", series),), filing=filed.protocol)])
    item = run_items(web_context.registry, run.id)[0]
    drafts = len(web_context.registry.drafts())
    login(client, "clara")
    url = f"{BASE}/{filed.id}"
    refused = _post(client, f"{url}/ato", url, ato="0")
    assert refused.status_code == 422
    assert errors_in(refused.text) == [
        f"O requerimento {filed.protocol} está no lote de renovação nº {run.id} em "
        f"andamento (item 1, com o(s) número(s) {item.printed} reservado(s)); aguarde o "
        "fim do lote ou abandone o item na página do lote. Nenhuma minuta foi criada."]
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is None
    assert len(web_context.registry.drafts()) == drafts  # nothing half-written

    abandon(web_context.registry, run.id, position=0, reason="Decidido na caixa.",
            by="Clara Redatora")
    prepared = _post(client, f"{url}/ato", url, ato="0")
    assert prepared.status_code == 303, errors_in(prepared.text)
    case = Inbox(web_context.registry).case(filed.id)
    assert case is not None and case.draft_id is not None


def test_preparar_ato_drafts_an_alvara_per_vehicle_with_what_the_registry_knows(
    client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """«Preparar ato» of a requerimento de alvará de fretamento with two vehicles: one
    draft per vehicle (fretamento#art8), in the signer's queue, each with the company,
    the processo, the inspection; the vehicle the registry licensed before comes with
    the characteristics its alvará recorded (art. 10); the documents accepted in the
    inbox are the conferência (art. 7º); the company's contract of continuous service
    in the registry names the client (art. 11, I, c). The first draft rendered, read
    back."""
    from test_formats import cnpj_check_digits
    from test_licensing_state import act

    monkeypatch.setattr(web_context, "today", lambda: date(2026, 12, 2))
    registry = web_context.registry
    base = "481736520001"
    cnpj = mask_cnpj(base + cnpj_check_digits(base))
    earlier = example(ALV)
    earlier["empresa"]["cnpj"] = cnpj
    set_vehicle(earlier["veiculo"], "PRP1A26")
    act(registry, "ALV-FRET", ALV, earlier, on=date(2021, 3, 2),
        computed={"inicio_vigencia": "2021-03-02", "valido_ate": "2026-03-01"})
    contract = example("termo-conferencia-contrato-fretamento")
    contract["contratada"]["cnpj"] = cnpj
    contract["contratante"]["razao_social"] = "Tecelagem Preparada S.A."
    contract["contrato"]["vigencia"] = {"inicio": "2026-11-03", "fim": "2027-11-02"}
    act(registry, "TCC-FRET", "termo-conferencia-contrato-fretamento", contract,
        on=date(2026, 10, 21))

    data = example(REQ)
    data["requerente"]["cnpj"] = cnpj
    set_vehicle(data["veiculos"][0], "PRP1A26")
    set_vehicle(data["veiculos"][1], "PRP2B26")
    filed = Filings(registry).file(FilingInput(
        series="PROT", form=REQ, data=data, cpf_cnpj=cnpj, name="Viação Preparada Ltda.",
        attachments=(Attachment(ITEMS[0], "cartao-cnpj.pdf", _pdf()),
                     Attachment(ITEMS[1], "inspecao.png", _png()))),
        _built, receipt_form="comprovante-protocolo",
        now=datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    login(client, "clara")
    url = f"{BASE}/{filed.id}"
    for attachment in filed.attachments:
        accepted = _post(client, f"{url}/anexos/{attachment.id}/analise", url,
                         decisao="aceitar")
        assert accepted.status_code == 303
    prepared = _post(client, f"{url}/ato", url, ato="0")
    assert prepared.status_code == 303, errors_in(prepared.text)

    case = Inbox(registry).case(filed.id)
    assert case is not None and case.draft_id is not None
    drafts = sorted((d for d in registry.drafts(form=ALV) if filed.protocol in d.title),
                    key=lambda d: d.id)
    assert drafts[0].id == case.draft_id  # the first decides the filing
    assert [d.data["veiculo"]["placa"] for d in drafts] == ["PRP1A26", "PRP2B26"]
    assert [d.title.endswith(f"({i} de 2)") for i, d in enumerate(drafts, 1)] == [True] * 2
    assert {(d.status.value, d.signer_role) for d in drafts} == {
        ("encaminhado", "secretario-transportes")}
    first, second = (d.data for d in drafts)
    reviewed = max(r.at_local for r in case.reviews).date().isoformat()
    # the registry's earlier alvará of the plate: the characteristics its vistoria found
    assert first["veiculo"] == {**earlier["veiculo"], **data["veiculos"][0]}
    assert first["veiculo"]["poltronas_rodoviarias"] is True
    assert second["veiculo"] == data["veiculos"][1]  # a vehicle the registry never saw
    for carried in (first, second):
        assert carried["empresa"]["cnpj"] == cnpj
        assert carried["servicos"] == ["continuo", "eventual"]
        assert carried["cliente"] == "Tecelagem Preparada S.A."
        assert carried["processo"] == {
            "numero": filed.processo, "data_requerimento": data["data_requerimento"],
            "renovacao": False,
            # the documents accepted in the inbox: the last reviewer, the day of the review
            "conferencia_requerimento": {"responsavel": "Clara Redatora", "data": reviewed,
                                         "completo": True}}
        assert carried["inspecao_veicular"] == data["documentos"]["inspecao_veicular"]
    pdf = web_context.engine.draft(ALV, first).pdf  # the draft as the signer reads it
    text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                   check=True).stdout.decode().split())
    assert "PRP1A26" in text and "Tecelagem Preparada S.A." in text
    assert f"processo nº {filed.processo.split()[-1]}" in text  # without the PROT series


def test_the_fretamento_renewal_is_built_as_the_renewal_run_builds_it() -> None:
    """«Preparar ato» of a requerimento-renovacao-alvara-fretamento: the alvará it names,
    renewed as the run renews it (fretamento#art8), with the processo of the protocol
    and the conferência of the documents every one accepted in the inbox (art. 7º);
    refused naming the field for an alvará the registry lacks (another company's is
    refused by «Preparar ato» before it is built: test_inbox_holder)."""
    from lavra_americana.fretamento.renovacao_lote import Licence
    from lavra_americana.fretamento.renovacao_lote import renewed_alvara as renewed_fret

    request = example("requerimento-renovacao-alvara-fretamento")
    previous = example(ALV)
    cnpj = "65563842000105"
    licence = LicenceView("ALV-FRET nº 0007/2021", ALV, "em_vigor", None, None,
                          date(2021, 12, 31), date(2026, 12, 31), cnpj,
                          "Viação Exemplo de Fretamento Ltda.", "ABC1D23")
    filed = FiledRequest(
        protocol="PROT nº 0005/2026", processo="PROT 5/2026",
        form="requerimento-renovacao-alvara-fretamento", data=request, cpf_cnpj=cnpj,
        name="Viação Exemplo de Fretamento Ltda.", filed_on=date(2026, 11, 20),
        licence=licence.printed)
    at = datetime(2026, 11, 23, 14, 0, tzinfo=UTC)
    reviews = tuple(Review(i, True, None, "Clara Redatora (clara)", at) for i in (1, 2))
    source = ActSource(filed, licence, previous, date(2026, 12, 3), reviews=reviews,
                       attachments=2)
    (choice, refusal) = protocolos.ATOS["requerimento-renovacao-alvara-fretamento"]
    assert (choice.form, refusal.form) == (ALV, "decisao-indeferimento")
    built = choice.build(source)
    assert built == renewed_fret(Licence(licence.printed, cnpj, date(2026, 12, 31), previous), {
        "requerimento": request, "processo": "PROT 5/2026",
        "conferencia": {"responsavel": "Clara Redatora", "data": "2026-11-23"}})
    assert built["processo"]["numero"] == "PROT 5/2026"
    assert built["processo"]["alvara_anterior"] == licence.printed
    assert built["processo"]["conferencia_requerimento"] == {
        "responsavel": "Clara Redatora", "data": "2026-11-23", "completo": True}
    unreviewed = ActSource(filed, licence, previous, date(2026, 12, 3),
                           reviews=reviews[:1], attachments=2)
    assert choice.build(unreviewed)["processo"]["conferencia_requerimento"] == {
        "completo": True}  # a document no one reviewed: the staff attest on the draft
    with pytest.raises(InputError, match="não indica um alvará de fretamento") as missing:
        choice.build(ActSource(filed, None, None, date(2026, 12, 3)))
    assert missing.value.field == "/alvara_anterior/numero"


def test_preparar_ato_of_a_change_of_vehicle_opens_complete_over_the_registry(
        web_context: WebContext) -> None:
    """«Preparar ato» of a requerimento-troca-veiculo-escolar filed online: the termo de
    substituição (transporte-escolar#art17_par1) drafted in the signer's queue with the
    request, the alvará as the registry prints it and the protocol; read over the
    registry, its completeness report lists nothing for the staff to add."""
    from identities import cpf_for, set_person
    from test_licensing_state import act

    from lavra.filedacts import prepare_act
    from lavra.issuing import RegistryHistory

    registry = web_context.registry
    cpf = cpf_for("grant26 troca")
    alvara = example("alvara-transporte-escolar")
    set_person(alvara["titular"], cpf)
    set_vehicle(alvara["veiculo"], "TRC1A26")
    issued = act(registry, "ALV-ESC", "alvara-transporte-escolar", alvara,
                 on=date(2026, 3, 10),
                 computed={"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"})
    printed = issued.printed
    data = example("requerimento-troca-veiculo-escolar")
    set_person(data["requerente"], cpf)
    data["alvara"] = {"numero": printed.replace(" nº", "")}  # as the applicant types it
    set_vehicle(data["veiculo_substituido"], "TRC1A26")
    set_vehicle(data["veiculo_novo"], "TRC2B26")
    form = "requerimento-troca-veiculo-escolar"
    filed = Filings(registry).file(FilingInput(
        series="PROT", form=form, data=data, cpf_cnpj=cpf, name="José Exemplo dos Santos",
        attachments=()),
        _built, receipt_form="comprovante-protocolo",
        now=datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    case = Inbox(registry).case(filed.id)
    assert case is not None
    grant = protocolos.ATOS[form][0]
    draft = prepare_act(registry, case, grant, signer_role="secretario", title="Termo",
                        on=date(2026, 12, 3), by="Clara")
    assert draft.form == "termo-substituicao-veiculo-escolar"
    assert draft.data["alvara"] == {"numero": printed}
    assert draft.data["veiculo_novo"] == data["veiculo_novo"]
    assert draft.data["protocolo_requerimento"] == filed.protocol
    report = web_context.engine.check(draft.form, draft.data, date(2026, 12, 3),
                                      history=RegistryHistory(registry))
    assert [item.field for item in report.pending] == []

"""The applicant's requerimento page as a person uses it (issue 26), in Debian's Chromium:
what was typed survives a reload (this browser only, cleared by «Limpar»), the report's
messages appear at the field left with a wrong value (aria-invalid, aria-describedby),
dates speak dd/mm/aaaa, the «Documentos a anexar» panel follows the report, a 375 px
phone reaches the report from the top, and Enter keeps the person's place. One browser
and one server for the module."""

from __future__ import annotations

import io
import json
import re
import secrets
import subprocess
from datetime import datetime
from typing import Any

import pytest
import test_e2e
from fastapi.testclient import TestClient
from identities import set_vehicle
from pypdf import PdfWriter
from test_e2e import CHROMIUM, _fill, _login
from webhelpers import ALV, PASSWORD, REQ, csrf_of, example

from lavra.recording import FactRecorder
from lavra.registry.filings import Filed, FilingInput, Filings
from lavra.registry.inbox import Inbox
from lavra.registry.records import Built
from lavra.web import WebContext
from lavra.web.formparse import to_pairs

browser = test_e2e.browser
live = test_e2e.live

FORM = f"/requerimentos/{REQ}"
BAD_DATE = "Data do requerimento: Data inválida: use o formato dd/mm/aaaa."
CNPJ = "65.563.842/0001-05"
HOLDER = "Viação Exemplo de Fretamento Ltda."
SIGNER = "Sérgio Signatário"
SLOW = 120_000  # ms: a loaded machine seals, checks in the sandbox and signs slowly

def test_dates_speak_dd_mm_aaaa_on_the_page_and_in_the_report(client: TestClient) -> None:
    """The page's dates are typed dd/mm/aaaa: its help, placeholder and the report's
    message about a wrong date say so (the checker, reading JSON files, says AAAA-MM-DD)."""
    empty = client.get(FORM).text
    assert "AAAA" not in empty
    assert 'placeholder="dd/mm/aaaa"' in empty
    token = csrf_of(client, FORM)
    shown = client.post(FORM, data={"csrf": token, "_acao": "verificar",
                                    "data_requerimento": "31/02/2026"}).text
    assert "AAAA" not in shown
    assert BAD_DATE in shown  # in the report and at the field
    assert re.search(r'id="f-data_requerimento"[^>]*aria-describedby="f-data_requerimento-'
                     r'ajuda f-data_requerimento-erros"[^>]*aria-invalid="true"', shown)
    live_json = client.post(f"{FORM}/relatorio", data={"csrf": token,
                                                      "data_requerimento": "31/02/2026"},
                            headers={"Accept": "application/json"}).json()
    assert live_json["campos"]["f-data_requerimento"] == [BAD_DATE]
    assert "dd/mm/aaaa" in live_json["html"] and "AAAA" not in live_json["html"]


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium do Debian ausente")
def test_the_form_kept_in_this_browser_across_a_reload_and_cleared(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, _ = live
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    page.goto(base + FORM)
    expect(page.locator("#aviso-guarda")).to_contain_text("apenas neste navegador")
    page.select_option("#f-categoria", "fretamento")
    page.fill("#f-requerente-razao_social", "Viação Recarregada Ltda.")
    page.fill("#f-veiculos-0-placa", "REC1A26")
    page.click('button[data-adicionar="veiculos"]')
    page.fill("#f-veiculos-1-placa", "REC2B26")
    page.fill("#f-data_requerimento", "25112026")
    kept = json.loads(page.evaluate(
        f"() => localStorage.getItem('lavra:requerimento:{REQ}')"))
    names = {name for name, _ in kept}
    assert "requerente/razao_social" in names and "veiculos/1/placa" in names
    assert not any(n == "csrf" or n.startswith("_") or n.startswith("anexo") for n in names)

    page.reload()
    expect(page.locator("#f-requerente-razao_social")).to_have_value("Viação Recarregada Ltda.")
    expect(page.locator("#f-categoria")).to_have_value("fretamento")
    expect(page.locator("#f-veiculos-1-placa")).to_have_value("REC2B26")
    expect(page.locator("#f-data_requerimento")).to_have_value("25/11/2026")
    expect(page.locator("#relatorio .relatorio-resumo")).to_contain_text("Incompleto")

    other = context.new_page()  # another form's storage is its own
    other.goto(base + FORM)
    expect(other.locator("#f-requerente-razao_social")).to_have_value("Viação Recarregada Ltda.")
    other.close()

    page.click("#limpar")
    page.wait_for_load_state("load")
    expect(page.locator("#f-requerente-razao_social")).to_have_value("")
    expect(page.locator("#f-veiculos-1-placa")).to_have_count(0)
    page.reload()
    expect(page.locator("#f-requerente-razao_social")).to_have_value("")
    context.close()


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium do Debian ausente")
def test_errors_at_the_field_enter_keeps_the_place_and_the_panel_follows(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, context = live
    page = browser.new_context(locale="pt-BR").new_page()
    page.goto(base + FORM)
    date = page.locator("#f-data_requerimento")
    date.fill("31022026")
    expect(date).to_have_value("31/02/2026")
    expect(date).not_to_have_attribute("aria-invalid", "true")  # not yet left
    date.press("Tab")
    expect(date).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#f-data_requerimento-erros")).to_have_text(BAD_DATE)
    described = date.get_attribute("aria-describedby") or ""
    assert "f-data_requerimento-erros" in described.split()
    expect(page.locator("#relatorio")).to_contain_text(BAD_DATE)  # the report's own words

    # Enter in a field: no page is sent, the place and what was typed are kept
    page.evaluate("() => { window.scrollTo(0, 600); window.__mesma_pagina = true; }")
    date.fill("25/11/2026")
    date.press("Enter")
    expect(date).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#f-data_requerimento-erros")).to_have_count(0)
    assert "f-data_requerimento-erros" not in (date.get_attribute("aria-describedby") or "")
    assert page.evaluate("() => window.__mesma_pagina === true")
    assert page.url == base + FORM

    page.locator("#f-requerente-razao_social").press("Enter")
    assert page.evaluate("() => window.__mesma_pagina === true")

    # the whole example: the report says Completo and no document stays «pendente»
    page.goto(base + FORM)
    _fill(page, to_pairs(context.schema(REQ), example(REQ)))
    expect(page.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
    labels = page.locator("#documentos-lista .situacao")
    expect(labels.first).to_have_text("atendido")
    shown = {labels.nth(i).inner_text().strip().lower() for i in range(labels.count())}
    assert shown <= {"atendido", "não se aplica"}, shown


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium do Debian ausente")
def test_a_375_px_phone_reaches_the_report_from_the_top(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, _ = live
    phone = browser.new_context(locale="pt-BR", viewport={"width": 375, "height": 740},
                                is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.goto(base + FORM)
    link = page.locator("#ir-relatorio")
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, box  # on the first screen
    report_top = page.locator("#titulo-relatorio").bounding_box()
    assert report_top is not None and report_top["y"] > 2 * 740  # far down, below the form
    link.click()
    expect(page.locator("#titulo-relatorio")).to_be_in_viewport()
    phone.close()


def _pdf_text(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return " ".join(out.stdout.decode("utf-8").split())


def _blank_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _receipt(number: int, printed: str, moment: datetime) -> Built:
    """A stand-in receipt for the request filed through the registry's API (the sealed
    one, and the browser's filing, are the first request's)."""
    return Built(pdf=b"%PDF-1.4 " + printed.encode(), data={"protocolo": printed},
                 computed={}, reference_date=moment.date(),
                 verification_code=f"E2E-{secrets.token_hex(6)}", signer_subject="Selo",
                 signer_serial="1", pack_version="t", issued_at=moment)


def _incomplete_request(context: WebContext) -> Filed:
    """A second request of the company, filed without the FGTS certificate (art. 7º):
    its refusal finds the motivo in the request's own report."""
    data = example(REQ)
    set_vehicle(data["veiculos"][0], "APL3E26")
    data["veiculos"] = data["veiculos"][:1]
    del data["documentos"]["certidao_fgts"]
    return Filings(context.registry).file(FilingInput(
        series="PROT", form=REQ, data=data, cpf_cnpj=CNPJ, name=HOLDER, attachments=()),
        _receipt, receipt_form="comprovante-protocolo")


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium do Debian ausente")
def test_filed_online_decided_by_staff_and_seen_by_the_applicant(
    live: tuple[str, WebContext], browser: Any
) -> None:
    """File with attachments → protocol and receipt → inbox → accept the attachments →
    «Preparar ato»: one alvará per vehicle, the conferência carried from the review →
    the staff completes the first (what neither the request nor the registry knows: the
    registration, the vistoria, the client) → a second request of the company, refused
    by «Preparar ato» → signing queue, both signed at once → the applicant's tracking
    page shows the alvará and downloads it, takes ciência of the refusal (the fact in
    the registry, the recurso's last day shown) and files the recurso from the page."""
    from playwright.sync_api import expect

    base, context = live
    data = example(REQ)
    set_vehicle(data["veiculos"][0], "APL1C26")  # the ALV-FRET signed: the first vehicle
    set_vehicle(data["veiculos"][1], "APL2D26")
    applicant_context = browser.new_context(locale="pt-BR")
    applicant_context.set_default_timeout(SLOW)  # sandboxed PDFs, sealing, signing
    applicant = applicant_context.new_page()
    applicant.goto(base + FORM)
    _fill(applicant, to_pairs(context.schema(REQ), data))
    expect(applicant.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
    applicant.click("#protocolar-online")
    applicant.wait_for_url(f"{base}{FORM}/protocolar")
    files = applicant.locator('input[type="file"]')
    attached = min(2, files.count())
    for i in range(attached):
        files.nth(i).set_input_files(files=[{"name": f"documento-{i}.pdf",
                                             "mimeType": "application/pdf",
                                             "buffer": _blank_pdf()}])
    applicant.fill("#nome", HOLDER)
    applicant.fill("#documento", CNPJ)
    applicant.check("#confirmo")
    applicant.click("#protocolar")
    applicant.wait_for_url(f"{base}/protocolo/*")
    protocol = applicant.locator("#numero-protocolo").inner_text()
    assert protocol.startswith("PROT nº ")
    assert applicant.evaluate(f"() => localStorage.getItem('lavra:requerimento:{REQ}')") is None
    receipt_url = applicant.locator("#baixar-comprovante").get_attribute("href")
    receipt = _pdf_text(applicant_context.request.get(base + str(receipt_url)).body())
    assert protocol in receipt and "documento-0.pdf" in receipt

    clerk_context = browser.new_context(locale="pt-BR")
    clerk_context.set_default_timeout(SLOW)
    clerk = clerk_context.new_page()
    _login(clerk, base, "clara")
    clerk.goto(f"{base}/equipe/protocolos")
    clerk.click(f"text={protocol}")
    expect(clerk.locator("#situacao-protocolo")).to_have_text("recebido")
    for i in range(attached):
        clerk.locator('input[name="decisao"][value="aceitar"]').nth(i).check()
        with clerk.expect_navigation():
            clerk.locator("ul.anexos form button").nth(i).click()
        expect(clerk.locator("ul.anexos .analise").nth(i)).to_contain_text("Aceito")
    expect(clerk.locator("#situacao-protocolo")).to_have_text("em análise")
    clerk.check("#ato-0")  # the alvará the request asks for
    with clerk.expect_navigation():
        clerk.click("#botao-preparar-ato")
    assert "aviso=ato-preparado" in clerk.url
    draft_id = Inbox(context.registry).case(
        Filings(context.registry).by_protocol(protocol).id).draft_id  # type: ignore[union-attr]
    assert draft_id is not None
    # one alvará per vehicle (fretamento#art8): the second draft waits in the queue
    prepared = sorted((d for d in context.registry.drafts(form=ALV)
                       if protocol in d.title), key=lambda d: d.id)
    assert [(d.id == draft_id, d.data["veiculo"]["placa"]) for d in prepared] == [
        (True, "APL1C26"), (False, "APL2D26")]
    alvara = example(ALV)
    draft = prepared[0]
    assert draft.data["processo"]["conferencia_requerimento"]["responsavel"] == (
        "Clara Redatora")  # the documents accepted in the inbox (art. 7º)
    extra = {"cliente": alvara["cliente"],
             "veiculo": {k: v for k, v in alvara["veiculo"].items()
                         if k not in draft.data["veiculo"]},
             "empresa": {"registro_setransv": alvara["empresa"]["registro_setransv"]}}
    clerk.goto(f"{base}/equipe/minutas/{draft_id}")
    _fill(clerk, to_pairs(context.schema(ALV), extra))
    expect(clerk.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
    clerk.click("#encaminhar")
    clerk.wait_for_url(f"{base}/equipe/minutas/*?aviso=minuta-encaminhada")
    second = _incomplete_request(context)
    clerk.goto(f"{base}/equipe/protocolos/{second.id}")
    clerk.get_by_label("Decisão de indeferimento do requerimento").check()
    with clerk.expect_navigation():
        clerk.click("#botao-preparar-ato")
    refusal_draft = Inbox(context.registry).case(second.id).draft_id  # type: ignore[union-attr]

    signer_context = browser.new_context(locale="pt-BR")
    signer_context.set_default_timeout(SLOW)
    signer = signer_context.new_page()
    _login(signer, base, "sergio")
    signer.goto(f"{base}/equipe/assinaturas")
    for chosen in (draft_id, refusal_draft):
        signer.locator(f'#fila input[name="minutas"][value^="{chosen}:"]').check()
    signer.fill("#senha-assinatura", PASSWORD)
    signer.click("#assinar-selecionados")
    expect(signer.locator("#resultados li.assinada")).to_have_count(2, timeout=SLOW)
    number = signer.locator("#resultados li.assinada a", has_text="ALV-FRET").inner_text()
    assert number.startswith("ALV-FRET nº ")
    decided = Inbox(context.registry).case(second.id)
    assert decided is not None and decided.act_id is not None
    refusal = context.registry.get_by_id(decided.act_id)
    assert refusal is not None and refusal.form == "decisao-indeferimento"

    applicant.goto(f"{base}/acompanhar")
    applicant.fill("#protocolo", protocol.removeprefix("PROT nº "))
    applicant.fill("#documento", CNPJ)
    applicant.click("#consultar")
    expect(applicant.locator("#situacao")).to_have_text("decidido", timeout=SLOW)
    expect(applicant.locator("#atos")).to_contain_text(number)
    link = applicant.locator("#atos a", has_text="Baixar o documento (PDF)")
    act = applicant_context.request.get(base + str(link.get_attribute("href"))).body()
    text = _pdf_text(act)
    assert "APL1C26" in text and SIGNER in text

    # Lei nº 9.784/1999, art. 26, § 3º: the refusal signed in the queue, addressed to the
    # applicant, opens only through «Tomar ciência»; the click records the ciência, and the
    # page then shows it and the recurso's last day (fretamento#art24, from that ciência).
    applicant.goto(f"{base}/acompanhar")
    applicant.fill("#protocolo", second.protocol.removeprefix("PROT nº "))
    applicant.fill("#documento", CNPJ)
    applicant.click("#consultar")
    expect(applicant.locator("#situacao")).to_have_text("decidido")
    own = applicant.locator(f"#ciencia-{refusal.id}")
    expect(own.locator("button")).to_have_text("Tomar ciência e abrir o documento")
    expect(own).to_contain_text("começam a correr os prazos")
    assert applicant.locator(
        f'a[href="/verificar/{refusal.verification_code}/documento.pdf"]').count() == 0
    with applicant.expect_navigation():
        own.locator("button").click()
    facts = context.registry.facts(refusal.id)
    assert [(f.kind, f.means) for f in facts] == [("ciencia", "eletronico")]
    (deadline,) = [d for d in FactRecorder(context.registry, context.engine.content)
                   .deadlines(refusal) if d.citation == "fretamento#art24"]
    last_day = deadline.last_day.strftime("%d/%m/%Y")
    expect(applicant.locator(".ciencia-registrada")).to_contain_text(
        facts[0].on.strftime("%d/%m/%Y"))
    expect(applicant.locator(".prazo-ciencia")).to_contain_text(deadline.summary)
    assert last_day in deadline.summary
    expect(applicant.locator("#abrir-documento")).to_have_attribute(
        "href", f"/verificar/{refusal.verification_code}/documento.pdf")
    expect(applicant.locator(f"#ciencia-{refusal.id}")).to_have_count(0)
    opened = _pdf_text(applicant_context.request.get(
        base + f"/verificar/{refusal.verification_code}/documento.pdf").body())
    assert refusal.printed in opened and "FGTS" in opened

    # the recurso against the refusal, from the tracking page, in its period (art. 24)
    appeal = applicant.locator(f"#recurso-{refusal.id}")
    expect(appeal.locator("summary")).to_contain_text(f"(até {last_day})")
    appeal.locator("summary").click()
    applicant.fill(f"#razoes-{refusal.id}", "A certidão do FGTS foi emitida em 01/11/2026 "
                   "e segue anexa; o requerimento estava instruído.")
    applicant.locator(f"#provas-{refusal.id}").set_input_files(files=[{
        "name": "certidao-fgts.pdf", "mimeType": "application/pdf", "buffer": _blank_pdf()}])
    applicant.check(f"#confirmo-{refusal.id}")
    appeal.get_by_role("button", name="Protocolar o recurso").click()
    applicant.wait_for_url(f"{base}/protocolo/*")
    filed_appeal = applicant.locator("#numero-protocolo").inner_text()
    recurso = Filings(context.registry).by_protocol(filed_appeal)
    assert recurso is not None and recurso.form == "recurso-fretamento"
    assert recurso.processo == second.processo and recurso.cpf_cnpj == CNPJ.translate(
        str.maketrans("", "", "./-"))
    assert [a.name for a in recurso.attachments] == ["certidao-fgts.pdf"]
    for opened in (applicant_context, clerk_context, signer_context):
        opened.close()

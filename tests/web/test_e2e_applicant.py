"""The applicant's requerimento page as a person uses it (issue 26), in Debian's Chromium:
what was typed survives a reload (this browser only, cleared by «Limpar»), the report's
messages appear at the field left with a wrong value (aria-invalid, aria-describedby),
dates speak dd/mm/aaaa, the «Documentos a anexar» panel follows the report, a 375 px
phone reaches the report from the top, and Enter keeps the person's place. One browser
and one server for the module."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import test_e2e
from fastapi.testclient import TestClient
from test_e2e import CHROMIUM, _fill
from webhelpers import REQ, csrf_of, example

from lavra.web import WebContext
from lavra.web.formparse import to_pairs

browser = test_e2e.browser
live = test_e2e.live

FORM = f"/requerimentos/{REQ}"
BAD_DATE = "Data do requerimento: Data inválida: use o formato dd/mm/aaaa."

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

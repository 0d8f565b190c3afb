"""End to end in Debian's Chromium, as the staff work (issue 25): a clerk fills two
alvarás, saves each as a draft and forwards it for signature; the signer finds both in
«Assinaturas pendentes», signs them at once with the password, each signed PDF names
the signer (read back with pdftotext), and the registry page finds them by the number as
lavra prints it and by the holder's name. The example's dates are moved to today as the
demo moves them (webhelpers.example): nothing asserts a year or a date."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
import test_e2e
from identities import set_vehicle
from test_e2e import CHROMIUM, _fill, _login
from webhelpers import ALV, PASSWORD, example

from lavra.web import WebContext
from lavra.web.formparse import to_pairs

# the fixtures of the end-to-end tests: one Chromium, a server over a new data folder
browser = test_e2e.browser
live = test_e2e.live

SIGNER = "Sérgio Signatário"
HOLDER = "Viação Exemplo de Fretamento Ltda."

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Chromium do Debian ausente (apt-get install chromium)"),
]


def _text(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    return " ".join(out.stdout.decode("utf-8").split())


def test_clerk_drafts_two_the_signer_signs_both_and_the_registry_finds_them(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, context = live
    clerk = browser.new_context(locale="pt-BR").new_page()
    _login(clerk, base, "clara")
    for placa in ("FRE1A23", "FRE4B56"):  # one alvará per vehicle (fretamento art. 8º)
        data = example(ALV)
        set_vehicle(data["veiculo"], placa)
        clerk.goto(f"{base}/equipe/novo/{ALV}")
        _fill(clerk, to_pairs(context.schema(ALV), data))
        expect(clerk.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
        clerk.click("#salvar-minuta")
        clerk.wait_for_url(f"{base}/equipe/minutas/*?aviso=minuta-salva")
        expect(clerk.locator("#minuta-situacao")).to_contain_text("Clara Redatora")
        clerk.click("#encaminhar")  # from the saved draft, as a clerk resumes it
        clerk.wait_for_url(f"{base}/equipe/minutas/*?aviso=minuta-encaminhada")

    signer_context = browser.new_context(locale="pt-BR")
    signer = signer_context.new_page()
    _login(signer, base, "sergio")
    signer.goto(f"{base}/equipe/assinaturas")
    rows = signer.locator("#fila tbody tr")
    expect(rows).to_have_count(2)
    for box in signer.locator('#fila input[name="minutas"]').all():
        box.check()
    signer.fill("#senha-assinatura", PASSWORD)
    signer.click("#assinar-selecionados")
    expect(signer.locator("#resultados li.assinada")).to_have_count(2)
    expect(signer.locator("#fila-vazia")).to_be_visible()

    links = signer.locator("#resultados li.assinada a")
    numbers = [links.nth(i).inner_text() for i in range(2)]
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(2)]
    for href in hrefs:
        response = signer_context.request.get(f"{base}{href}/documento.pdf")
        assert response.status == 200
        text = _text(response.body())
        assert SIGNER in text, text[-800:]
        assert "Signatário de desenvolvimento" not in text  # the person, not the role

    signer.goto(f"{base}/equipe/registro")
    for number, href in zip(numbers, hrefs, strict=True):
        assert number.startswith("ALV-FRET nº ")
        signer.fill("#q", number)  # "ALV-FRET nº 0001/AAAA", as lavra prints it
        signer.click("form.busca button.primario")
        expect(signer.locator(f'#documentos a[href="{href}"]')).to_have_count(1)
    signer.fill("#q", HOLDER)
    signer.click("form.busca button.primario")
    for href in hrefs:
        expect(signer.locator(f'#documentos a[href="{href}"]')).to_have_count(1)
    expect(signer.locator("#documentos")).to_contain_text(SIGNER)
    signer_context.close()

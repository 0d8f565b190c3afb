"""End to end in Debian's Chromium: applicants, clerk, signer and public verification."""

from __future__ import annotations

import io
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from webhelpers import ALV, PASSWORD, REQ, example, make_context, serving

from lavra.render.fillable.reading import read_fields
from lavra.web import WebContext, create_app
from lavra.web.formparse import to_pairs

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Chromium do Debian ausente (apt-get install chromium)"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebContext]]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    context = make_context(tmp_path_factory.mktemp("e2e") / "dados", base)
    with serving(create_app(context), port):
        yield base, context


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def _fill(page: Any, pairs: list[tuple[str, str]]) -> None:
    """Type the data into the schema-driven form, field by field, as a person would."""
    for name, value in pairs:
        field = page.locator(f'[name="{name}"]')
        if field.count() == 0:  # an array row the page does not show yet
            array = name.rsplit("/", 2)[0]
            page.click(f'button[data-adicionar="{array}"]')
        field = page.locator(f'[name="{name}"]')
        first = field.first
        tag = first.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
        if tag.startswith("select"):
            first.select_option(value)
        elif tag == "input:checkbox":
            page.locator(f'[name="{name}"][value="{value}"]').check()
        else:
            first.fill(value)


def _login(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/entrar")
    page.fill("#usuario", name)
    page.fill("#senha", PASSWORD)
    page.click("button[type=submit].primario")
    page.wait_for_url(f"{base}/equipe")


def test_applicant_fills_sees_the_report_change_and_downloads(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, context = live
    page = browser.new_context(accept_downloads=True, locale="pt-BR").new_page()
    page.goto(f"{base}/requerimentos")
    page.click(f'a[href="/requerimentos/{REQ}"]')
    summary = page.locator("#relatorio .relatorio-resumo")
    expect(summary).to_contain_text("Incompleto")
    before = summary.inner_text()

    page.select_option("#f-categoria", "fretamento")
    page.fill("#f-requerente-razao_social", "Viação Navegador Ltda.")
    page.locator("#f-requerente-cnpj").press_sequentially("65563842000105")
    expect(page.locator("#f-requerente-cnpj")).to_have_value("65.563.842/0001-05")
    expect(summary).not_to_have_text(before)  # the live report followed the typing
    page.fill("#f-requerente-representante-cpf", "01753935911")
    expect(page.locator("#f-requerente-representante-cpf")).to_have_value("017.539.359-11")
    page.fill("#f-veiculos-0-placa", "abc1d23")
    page.click('button[data-adicionar="veiculos"]')
    page.fill("#f-veiculos-1-placa", "def-4g56")
    expect(page.locator("#f-veiculos-1-placa")).to_have_value("DEF4G56")
    page.fill("#f-data_requerimento", "25112026")
    expect(page.locator("#f-data_requerimento")).to_have_value("25/11/2026")
    page.fill("#f-requerente-endereco-cep", "13465000")
    expect(page.locator("#f-requerente-endereco-cep")).to_have_value("13465-000")
    page.locator("details.fundamento summary").first.click()
    expect(page.locator("details.fundamento[open] blockquote").first).to_be_visible()

    with page.expect_download() as download:
        page.click("#baixar")
    pdf = Path(download.value.path()).read_bytes()
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    assert fields["requerente/razao_social"].get("/V") == "Viação Navegador Ltda."
    assert fields["veiculos/1/placa"].get("/V") == "DEF4G56"
    data = read_fields(pdf, context.schema(REQ))
    assert data["requerente"]["cnpj"] == "65.563.842/0001-05"
    assert data["categoria"] == "fretamento"
    assert [v["placa"] for v in data["veiculos"]] == ["ABC1D23", "DEF4G56"]
    assert data["data_requerimento"] == "2026-11-25"


def test_clerk_drafts_signer_issues_and_the_public_verifies(
    live: tuple[str, WebContext], browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    base, context = live
    pairs = to_pairs(context.schema(ALV), example(ALV))

    clerk = browser.new_context(accept_downloads=True).new_page()
    _login(clerk, base, "clara")
    clerk.goto(f"{base}/equipe/novo/{ALV}")
    _fill(clerk, pairs)
    expect(clerk.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
    assert clerk.locator("#emitir").count() == 0  # a clerk drafts, does not issue
    with clerk.expect_response(lambda r: r.url.endswith("/minuta")) as drafted:
        clerk.click("#ver-minuta")
    assert drafted.value.status == 200
    assert drafted.value.headers["content-type"] == "application/pdf"
    frame = clerk.frame(name="minuta")  # the draft is shown in the page, beside the form
    assert frame is not None
    frame.wait_for_url(f"{base}/equipe/novo/{ALV}/minuta")

    signer = browser.new_context(accept_downloads=True).new_page()
    _login(signer, base, "sergio")
    signer.goto(f"{base}/equipe/novo/{ALV}")
    _fill(signer, pairs)
    expect(signer.locator("#relatorio .relatorio-resumo")).to_contain_text("Completo")
    signer.fill("#senha-assinatura", PASSWORD)  # the signer's password, asked at signing
    signer.click("#emitir")
    signer.wait_for_url(f"{base}/equipe/documentos/**")
    expect(signer.locator("h1")).to_contain_text(
        "Alvará de Licença de Circulação ALV-FRET nº 0001/")
    expect(signer.locator("#baixar-docx")).to_be_visible()
    with signer.expect_download() as download:
        signer.click("#baixar-pdf")
    issued = Path(download.value.path()).read_bytes()
    assert issued.startswith(b"%PDF")

    public = browser.new_context().new_page()
    public.goto(f"{base}/verificar")
    public.set_input_files("#arquivo", files=[
        {"name": "alvara.pdf", "mimeType": "application/pdf", "buffer": issued}])
    public.click("text=Verificar arquivo")
    expect(public.locator("#titulo-resultado")).to_have_text("Documento autêntico")
    public.click("text=Ver o registro do código")
    expect(public.locator("#titulo-registro")).to_have_text("Documento autêntico")
    expect(public.locator(".ficha")).to_contain_text("0001/")

    tampered = issued.replace(b"Americana", b"Americano", 1)
    assert tampered != issued
    public.goto(f"{base}/verificar")
    public.set_input_files("#arquivo", files=[
        {"name": "alvara.pdf", "mimeType": "application/pdf", "buffer": tampered}])
    public.click("text=Verificar arquivo")
    expect(public.locator("#titulo-resultado")).to_have_text("Documento NÃO confirmado")
    expect(public.locator(".problemas")).to_contain_text("alterado")


def test_a_session_cookie_copied_before_signing_out_opens_nothing_afterwards(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from playwright.sync_api import expect

    base, _ = live
    first = browser.new_context()
    clerk = first.new_page()
    _login(clerk, base, "clara")
    copied = first.cookies()
    assert any(c["name"] == "lavra_sessao" for c in copied)
    other = browser.new_context()
    other.add_cookies(copied)
    thief = other.new_page()
    thief.goto(f"{base}/equipe")
    expect(thief.locator(".conta")).to_contain_text("Clara Redatora")  # the copy works now

    clerk.click("form.sair button")
    clerk.wait_for_url(f"{base}/entrar?aviso=saiu")
    _login(clerk, base, "clara")  # signing in again does not revive the old session
    thief.goto(f"{base}/equipe")
    thief.wait_for_url(f"{base}/entrar?proximo=/equipe")
    assert thief.locator(".conta").count() == 0
    first.close()
    other.close()


def test_an_uploaded_requerimento_with_active_content_is_flagged(
    live: tuple[str, WebContext], browser: Any
) -> None:
    from hostilepdfs import launch_action
    from playwright.sync_api import expect

    base, context = live
    hostile = launch_action(context.engine.prefill(REQ, example(REQ)))
    page = browser.new_context().new_page()
    page.goto(f"{base}/requerimentos/ler")
    page.set_input_files("#arquivo", files=[
        {"name": "requerimento.pdf", "mimeType": "application/pdf", "buffer": hostile}])
    page.click("text=Ler requerimento")
    expect(page.locator(".alertas")).to_contain_text("abre outro programa")
    expect(page.locator("#f-requerente-razao_social")).to_have_value(
        example(REQ)["requerente"]["razao_social"]
    )

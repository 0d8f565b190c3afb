"""axe-core (from the npm registry, pinned in tests/web/pdfjs/package-lock.json) on every
public and staff page state, in Debian's Chromium: no violation of any impact. The
applicant's path is followed as a person would: the filing page, the protocol received,
the tracking page with its situation; then the staff inbox and the request opened. One server
and one browser for the module; one document issued at a fixed moment (the issuer's
clock), so nothing here depends on today."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_e2e
from test_e2e import CHROMIUM, _free_port, _login
from test_page_text import issue_one
from webhelpers import ALV, REQ, make_context, serving

from lavra.registry.records import IssuedRecord
from lavra.web import WebContext, create_app

AXE = Path(__file__).parent / "pdfjs" / "node_modules" / "axe-core" / "axe.min.js"

browser = test_e2e.browser  # the one Chromium of the end-to-end tests, a fixture

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Chromium do Debian ausente (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, WebContext,
                                                                       IssuedRecord]]:
    if not AXE.exists():
        pytest.fail("axe-core ausente: npm ci --prefix tests/web/pdfjs")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    context = make_context(tmp_path_factory.mktemp("axe") / "dados", base)
    record = issue_one(context)
    with serving(create_app(context), port):
        yield base, context, record


def _violations(page: Any) -> list[str]:
    """axe's violations of every impact on the page as it stands, one line each."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{v['impact']} {v['id']}: {v['help']} — "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in found
    ]


def test_every_page_state_has_no_axe_violation(
    live: tuple[str, WebContext, IssuedRecord], browser: Any
) -> None:
    base, context, record = live
    problems: dict[str, list[str]] = {}

    def check(page: Any, label: str) -> None:
        page.wait_for_load_state("load")
        found = _violations(page)
        if found:
            problems[label] = found

    public = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()
    for path in ("/", "/requerimentos", f"/requerimentos/{REQ}", "/requerimentos/ler",
                 "/verificar", f"/verificar/{record.verification_code}", "/entrar",
                 "/requerimentos/nao-existe"):
        public.goto(base + path)
        check(public, path)
    # the report after typing, and the filing page the form leads to
    public.goto(f"{base}/requerimentos/{REQ}")
    public.select_option("#f-categoria", "fretamento")
    public.fill("#f-requerente-razao_social", "Viação Navegador Ltda.")
    check(public, "requerimento digitado")
    public.click("#protocolar-online")
    public.wait_for_url(f"{base}/requerimentos/{REQ}/protocolar")
    check(public, "protocolar")
    public.fill("#nome", "Viação Navegador Ltda.")
    public.fill("#documento", "65.563.842/0001-05")
    public.check("#confirmo")
    public.click("#protocolar")
    public.wait_for_selector("#numero-protocolo")
    check(public, "protocolo recebido")
    protocol = public.inner_text("#numero-protocolo")
    public.goto(base + "/acompanhar")
    check(public, "/acompanhar")
    public.fill("#protocolo", protocol)
    public.fill("#documento", "65563842000105")
    public.click("#consultar")
    public.wait_for_selector("#situacao")
    check(public, "acompanhar (situação)")
    public.goto(base + "/verificar")
    public.set_input_files("#arquivo", files=[{
        "name": "alvara.pdf", "mimeType": "application/pdf",
        "buffer": context.registry.pdf(record.id)}])
    public.click("text=Verificar arquivo")
    public.wait_for_selector("#titulo-resultado")
    check(public, "verificar (resultado)")
    public.goto(base + "/entrar")
    public.fill("#usuario", "ninguem")
    public.fill("#senha", "errada-errada")
    public.click("button[type=submit].primario")
    check(public, "entrar (recusado)")

    staff = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()
    _login(staff, base, "admin")
    for path in ("/equipe", f"/equipe/novo/{ALV}", "/equipe/minutas", "/equipe/assinaturas",
                 "/equipe/registro", "/equipe/registro?q=Via%C3%A7%C3%A3o",
                 f"/equipe/documentos/{record.id}", "/equipe/valores", "/equipe/lotes",
                 "/equipe/contas", "/equipe/protocolos"):
        staff.goto(base + path)
        check(staff, path)
    staff.goto(base + "/equipe/protocolos")
    staff.click("a[href^='/equipe/protocolos/']")
    staff.wait_for_url(f"{base}/equipe/protocolos/*")
    assert protocol in staff.content()
    check(staff, "protocolo aberto na caixa")
    staff.goto(f"{base}/equipe/documentos/{record.id}")
    staff.fill("#fato-data", "31/02/2026")
    staff.click("#registrar-fato-botao")
    staff.wait_for_selector("#erro-fato-data")
    check(staff, "fato recusado")

    signer = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()
    _login(signer, base, "sergio")
    for path in ("/equipe/assinaturas", f"/equipe/documentos/{record.id}"):
        signer.goto(base + path)
        check(signer, f"{path} (assinante)")

    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def test_the_qr_verification_page_fits_a_375_px_phone(
    live: tuple[str, WebContext, IssuedRecord], browser: Any
) -> None:
    base, context, record = live
    phone = browser.new_context(locale="pt-BR", viewport={"width": 375, "height": 740},
                                is_mobile=True, has_touch=True, device_scale_factor=2)
    page = phone.new_page()
    for path in (f"/verificar/{record.verification_code}", "/verificar"):
        page.goto(base + path)
        width = page.evaluate(
            "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        assert width <= 375, (path, width)  # no horizontal scroll
    page.set_input_files("#arquivo", files=[{"name": "alvara.pdf", "mimeType": "application/pdf",
                                             "buffer": context.registry.pdf(record.id)}])
    page.click("text=Verificar arquivo")
    page.wait_for_selector("#titulo-resultado")
    width = page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= 375, ("resultado", width)
    phone.close()

"""axe-core (from the npm registry, pinned in tests/web/pdfjs/package-lock.json) on every
public and staff page state, in Debian's Chromium: no violation of any impact. The
applicant's path is followed as a person would: the filing page, the protocol received,
the tracking page with its situation; then the staff inbox and the request opened; a
document refused there (without its reason first), the vehicle's and the party's pages,
the tracking page with the refused document, its ciência and its re-upload refused; a
recurso filed, decided by the act that forwards it, offering the next instance's act. One server
and one browser for the module; one document issued at a fixed moment (the issuer's
clock), so nothing here depends on today."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
import test_e2e
from test_e2e import CHROMIUM, _free_port, _login
from test_inbox import _filed, _png
from test_page_text import issue_one
from test_tracking_recursos import CPF, _act, _filed_by_driver
from webhelpers import ALV, REQ, example, make_context, serving

from lavra.recording import FactRecorder
from lavra.registry.filings import Filings
from lavra.registry.inbox import Inbox
from lavra.registry.records import LOCAL_TZ, IssuedRecord
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
    live: tuple[str, WebContext, IssuedRecord], browser: Any, monkeypatch: pytest.MonkeyPatch
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
    staff.click("#vincular-pa-botao")  # blank: refused at the field
    staff.wait_for_selector("#erro-pa")
    check(staff, "PA recusado")
    staff.fill("#campo-pa", "PA 9.876/2026")
    staff.click("#vincular-pa-botao")
    staff.wait_for_selector("#pa-protocolo")
    check(staff, "PA vinculado")
    staff.goto(f"{base}/equipe/documentos/{record.id}")
    staff.fill("#fato-data", "31/02/2026")
    staff.click("#registrar-fato-botao")
    staff.wait_for_selector("#erro-fato-data")
    check(staff, "fato recusado")
    staff.goto(f"{base}/equipe/numeracao")  # checked in its refused state: its form too
    staff.fill("#numero", "0001/2026")  # no series: refused at the field, nothing voided
    staff.fill("#motivo", "Conferência de acessibilidade.")
    staff.check("#confirmo")
    staff.click("button:has-text('Inutilizar o número')")
    staff.wait_for_selector("#erro-numero")
    check(staff, "inutilização recusada")

    signer = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()
    _login(signer, base, "sergio")
    for path in ("/equipe/assinaturas", f"/equipe/documentos/{record.id}"):
        signer.goto(base + path)
        check(signer, f"{path} (assinante)")

    _refusal_states(base, context, staff, public, check)
    # In this one test: each browser test of the module may start its own server.
    _recurso_states(base, context, browser, check, monkeypatch)
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


def _refusal_states(base: str, context: WebContext, staff: Any, public: Any,
                    check: Callable[[Any, str], None]) -> None:
    """A document refused in the inbox: the refusal without its reason (the error at the
    field), the licence state's pages of the vehicle and the party, and the tracking
    page with the refused document, its ciência and its re-upload refused."""
    filed, _ = _filed(context, "AXE1R26", datetime(2026, 12, 1, 13, 5, tzinfo=UTC))
    png_id = filed.attachments[1].id
    staff.goto(f"{base}/equipe/protocolos/{filed.id}")
    staff.check(f"#recusar-{png_id}")
    staff.click(f"#anexo-{png_id} button[type=submit]")
    staff.wait_for_selector("#erro-protocolo")
    check(staff, "análise recusada (sem motivo)")
    staff.check(f"#recusar-{png_id}")
    staff.fill(f"#motivo-{png_id}", "Laudo ilegível: envie a digitalização completa.")
    staff.click(f"#anexo-{png_id} button[type=submit]")
    staff.wait_for_selector("#prazo-protocolo")
    check(staff, "documento recusado (caixa)")
    for path in ("/equipe/veiculos/ABC1234", f"/equipe/pessoas/{filed.cpf_cnpj}"):
        staff.goto(base + path)
        check(staff, path)

    public.goto(base + "/acompanhar")
    public.fill("#protocolo", filed.protocol)
    public.fill("#documento", filed.cpf_cnpj)
    public.click("#consultar")
    public.wait_for_selector("#recusados")
    check(public, "acompanhar (documento recusado)")
    public.click("#tomar-ciencia-recusa")
    public.wait_for_selector("#ciencia-recusa-aviso")
    check(public, "acompanhar (ciência da recusa)")
    whole = _png()
    public.set_input_files(f"#arquivo-{png_id}", files=[{
        "name": "cortado.png", "mimeType": "image/png", "buffer": whole[: len(whole) // 2]}])
    public.click(f"#reenviar-{png_id}")
    public.wait_for_selector(f"#erro-reenvio-{png_id}")
    check(public, "reenvio recusado")


#: The recursos the public fills: each checked as its page opens.
RECURSOS = ("recurso-fretamento", "recurso-transporte-escolar", "recurso-classificacao",
            "recurso-lei-9784")


def _recurso_states(base: str, context: WebContext, browser: Any,
                    check: Callable[[Any, str], None],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The tracking page's recurso: refused before the ciência and after the period, the
    form open under the act; and each recurso form of the pack."""
    # Sealing calls asyncio.run, which the browser's event loop forbids in this thread.
    with ThreadPoolExecutor(1) as pool:
        filed = pool.submit(_filed_by_driver, context, "axe-recurso-" + "x" * 20).result()
    data = example("decisao-revogacao-alvara")
    data["processo"]["numero"] = filed.processo
    # the decision is dated the day the registry records it (the recurso carries that date,
    # which the decision on the recurso compares with the registry's)
    data["decisao"]["data"] = "2026-11-23"
    data["hipotese"] = {"tipo": "motivo_fundamentado", "motivo": {
        "fatos": "A escola atendida encerrou as atividades.",
        "fundamentos_juridicos": "Art. 3º da Lei nº 4.515/2007."}}
    rev = _act(context, "REV-ESC", "decisao-revogacao-alvara", data, {"fundamento": [
        "transporte-escolar#art3", "lei-9784-1999#art56", "lei-9784-1999#art59"]},
        date(2026, 11, 23))
    page = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()

    def consult() -> None:
        page.goto(base + "/acompanhar")
        page.fill("#protocolo", filed.protocol)
        page.fill("#documento", CPF)
        page.click("#consultar")
        page.wait_for_selector("#atos")

    consult()
    # A page left open before the ciência: its form sent as a recurso is refused.
    page.evaluate("""(id) => {
        const form = document.getElementById('ciencia-' + id);
        form.action = '/acompanhar/recurso';
        for (const [name, value] of [['razoes', 'Razões do recurso.'], ['confirmo', 'sim']]) {
            const field = document.createElement('input');
            field.type = 'hidden'; field.name = name; field.value = value;
            form.appendChild(field);
        }
        form.submit();
    }""", rev.id)
    page.wait_for_selector("#erro-consulta")
    assert "tome ciência do ato" in page.inner_text("#erro-consulta")
    check(page, "recurso recusado (sem ciência)")

    recorder = FactRecorder(context.registry, context.engine.content)
    moment = rev.issued_at + timedelta(minutes=5)
    recorder.record(rev, "ciencia", on=moment.astimezone(LOCAL_TZ).date().isoformat(),
                    by="Maria (maria)", means="pessoal", now=moment)
    (deadline,) = recorder.deadlines(rev)
    monkeypatch.setattr(context, "today", lambda: deadline.ciencia.on)
    consult()
    page.click(f"#recurso-{rev.id} summary")
    check(page, "recurso (formulário no acompanhamento)")
    monkeypatch.setattr(context, "today", lambda: deadline.last_day + timedelta(days=1))
    page.fill(f"#razoes-{rev.id}", "O motivo indicado não alcança o serviço autorizado.")
    page.check(f"#confirmo-{rev.id}")
    page.click(f"#recurso-{rev.id} button[type=submit]")
    page.wait_for_selector("#erro-consulta")
    assert "encerrou-se em" in page.inner_text("#erro-consulta")
    check(page, "recurso recusado (prazo encerrado)")

    for form in RECURSOS:
        page.goto(f"{base}/requerimentos/{form}")
        check(page, form)

    # Filed in time, decided by a DEC-SETRANSV that keeps the revogação and forwards the
    # recurso: the inbox page of the decided protocol offers the Prefeito's DEC-GP.
    monkeypatch.setattr(context, "today", lambda: deadline.last_day)
    consult()
    page.click(f"#recurso-{rev.id} summary")
    page.fill(f"#razoes-{rev.id}", "O motivo indicado não alcança o serviço autorizado.")
    page.check(f"#confirmo-{rev.id}")
    page.click(f"#recurso-{rev.id} button[type=submit]")
    page.wait_for_url(f"{base}/protocolo/*")
    receipt = context.registry.by_code(page.url.rsplit("/", 1)[-1].split("?")[0])
    assert receipt is not None, page.url
    recurso = Filings(context.registry).by_receipt(receipt.id)
    assert recurso is not None and recurso.form == "recurso-lei-9784"
    staff = browser.new_context(locale="pt-BR", bypass_csp=True).new_page()
    _login(staff, base, "admin")
    url = f"{base}/equipe/protocolos/{recurso.id}"
    staff.goto(url)
    staff.check("#ato-0")
    staff.click("#botao-preparar-ato")
    staff.wait_for_url(f"{url}?aviso=ato-preparado*")
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_forwarded, context, recurso.id, monkeypatch).result()
    staff.goto(url)
    assert "que encaminha o pedido à instância seguinte" in staff.inner_text(
        "#ato-do-protocolo")
    check(staff, "protocolo decidido, ato da instância seguinte")


def _forwarded(context: WebContext, filing_id: int, monkeypatch: pytest.MonkeyPatch
               ) -> None:
    """The DEC-SETRANSV drafted by «Preparar ato» on ``filing_id``, issued keeping the act
    (the recurso forwarded to the Prefeito), at a fixed moment."""
    case = Inbox(context.registry).case(filing_id)
    assert case is not None and case.draft_id is not None
    draft = context.registry.draft(case.draft_id)
    assert draft is not None and draft.form == "decisao-recurso-secretario"
    data = {**draft.data, "decisao": {
        **draft.data["decisao"], "resultado": "nao_provido",
        "fundamentacao": "O recurso não traz fato novo nem documento que altere a "
                         "conclusão da decisão recorrida, cujos fundamentos se mantêm."}}
    issuer = context.require_issuer()
    day = date.fromisoformat(data["decisao"]["data"])
    monkeypatch.setattr(issuer, "clock",
                        lambda: datetime.combine(day, time(12), tzinfo=UTC))
    issued = issuer.issue("decisao-recurso-secretario", data).record
    context.registry.mark_draft_issued(draft.id, document_id=issued.id, by="Sérgio")

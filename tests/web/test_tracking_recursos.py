"""Recursos filed from the tracking page beyond fretamento art. 24 (issue 26): each filed
under the appeal of the law and stage of the act (issue 23, class 2), with its own PROT
and receipt in the processo, «Preparar ato» prefilling the right decision; out of the
period, or by another party, refused with nothing written. The fretamento art. 24 flow
is tests/web/test_tracking.py."""

from __future__ import annotations

import dataclasses
import json
import secrets
import subprocess
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from registrycases import builder
from test_tracking import _ciencia, _track
from webhelpers import blank_pdf, csrf_of, example, login

from lavra.checking.report import Status
from lavra.filing import FilingDesk
from lavra.inputs import pointers
from lavra.recording import FactRecorder
from lavra.registry.filings import Filed, Filings
from lavra.registry.records import IssuedRecord
from lavra.web import WebContext

CPF = "529.982.247-25"
NAME = "José Exemplo dos Santos"
INBOX = "/equipe/protocolos"


def _filed_by_driver(web_context: WebContext, token: str) -> Filed:
    """An escolar requerimento filed online by the driver (the protocol the tracking
    page is opened with)."""
    desk = FilingDesk(web_context.require_issuer())
    filed, _ = desk.file("requerimento-renovacao-escolar",
                         example("requerimento-renovacao-escolar"), cpf_cnpj=CPF,
                         name=NAME, attachments=(), item_titles={}, token=token)
    return filed


def _act(web_context: WebContext, series: str, form: str, data: dict[str, Any],
         computed: dict[str, Any], on: date) -> IssuedRecord:
    """An act of the processo as the registry keeps it, with what its form computed."""
    build = builder(data, reference=on)

    def with_computed(number: int, formatted: str) -> Any:
        built = build(number, formatted)
        return dataclasses.replace(built, computed={**built.computed, **computed})

    return web_context.registry.issue(series, on.year, form, with_computed)


def _appeal(client: TestClient, filed: Filed, act: int, doc: str = CPF) -> Any:
    token = csrf_of(client, "/acompanhar")
    fields = {"csrf": token, "protocolo": filed.protocol, "documento": doc,
              "ato": str(act), "razoes": "As multas contadas estão em discussão; a "
              "terceira foi lavrada contra outro condutor.", "confirmo": "sim",
              "token": f"recurso-{act}-" + "y" * 20}
    return client.post("/acompanhar/recurso", data=fields, follow_redirects=False,
                       files=[("anexo:/provas", ("defesa.pdf", blank_pdf(),
                                                 "application/pdf"))])


def _pdf_text(client: TestClient, code: str) -> str:
    pdf = client.get(f"/verificar/{code}/documento.pdf").content
    return " ".join(subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                                   check=True).stdout.decode().split())


def _prepare(client: TestClient, web_context: WebContext, recurso: Filed) -> Any:
    """«Preparar ato» in the inbox; the draft it made."""
    login(client, "clara")
    url = f"{INBOX}/{recurso.id}"
    token = csrf_of(client, url)
    done = client.post(f"{url}/ato", data={"csrf": token, "ato": "0"},
                       follow_redirects=False)
    assert done.status_code == 303, done.text[-1500:]
    from lavra.registry.inbox import Inbox

    case = Inbox(web_context.registry).case(recurso.id)
    assert case is not None and case.draft_id is not None
    draft = web_context.registry.draft(case.draft_id)
    assert draft is not None
    return draft


def _late_then_filed(client: TestClient, web_context: WebContext,
                     monkeypatch: pytest.MonkeyPatch, filed: Filed, act: IssuedRecord,
                     last_day: date, on: date) -> tuple[Filed, str]:
    """The recurso against ``act`` refused the day after ``last_day`` (nothing written),
    then filed on ``on``: (the recurso as filed, its receipt's code)."""
    filings = Filings(web_context.registry)
    before = len(filings.acts(filed))
    monkeypatch.setattr(web_context, "today", lambda: last_day + timedelta(days=1))
    late = _appeal(client, filed, act.id)
    assert late.status_code == 422 and "encerrou-se em " in late.text
    assert last_day.strftime("%d/%m/%Y") in late.text
    assert len(filings.acts(filed)) == before  # nothing written
    monkeypatch.setattr(web_context, "today", lambda: on)
    done = _appeal(client, filed, act.id)
    assert done.status_code == 303, done.text[-1500:]
    code = done.headers["location"].rsplit("/", 1)[-1]
    receipt = web_context.registry.by_code(code)
    assert receipt is not None
    recurso = filings.by_receipt(receipt.id)
    assert recurso is not None and recurso.processo == filed.processo
    return recurso, code


def own_filing_count(web_context: WebContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Filings are limited per CPF/CNPJ, counted in the registry: each test its own count."""
    scope = f"protocolar-{secrets.token_hex(4)}"
    monkeypatch.setattr(web_context, "filing_throttle", type(web_context.filing_throttle)(
        store=lambda: web_context._events(scope)))


def test_escolar_penalty_revogacao_appealed_online(
        client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Arts. 25 and 26: the revogação applied as a penalty (art. 23, III), its ciência
    taken on the tracking page, is appealed to the Prefeito within 10 days of it, as
    ``recurso-transporte-escolar`` naming the decision; «Preparar ato» makes the DEC-GP
    (hipótese art. 25) with the decision, its ciência and the recorrente."""
    own_filing_count(web_context, monkeypatch)
    filed = _filed_by_driver(web_context, "escolar-penalidade-" + "z" * 20)
    data = example("decisao-revogacao-alvara")
    data["processo"]["numero"] = filed.processo
    decided = date(2026, 6, 22)
    data["decisao"]["data"] = decided.isoformat()
    rev = _act(web_context, "REV-ESC", "decisao-revogacao-alvara", data, {
        "fundamento": ["transporte-escolar#art3", "transporte-escolar#art23_inc3",
                       "transporte-escolar#art25", "transporte-escolar#art26"],
        "autos": [{"numero": "AIE-ESC nº 0002/2026", "data_infracao": "2026-01-12"},
                  {"numero": "AIE-ESC nº 0009/2026", "data_infracao": "2026-05-04"},
                  {"numero": "AIE-ESC nº 0005/2026", "data_infracao": "2026-03-10"}]},
        decided)
    monkeypatch.setattr(web_context, "now", lambda: rev.issued_at + timedelta(minutes=5))
    assert _ciencia(client, filed.protocol, CPF, rev.id).status_code == 200
    registry = web_context.registry
    (deadline,) = FactRecorder(registry, web_context.engine.content).deadlines(rev)
    assert deadline.citation == "transporte-escolar#art26"
    filings = Filings(registry)
    before = len(filings.acts(filed))

    monkeypatch.setattr(web_context, "today", lambda: deadline.last_day + timedelta(days=1))
    late = _appeal(client, filed, rev.id)
    assert late.status_code == 422 and "encerrou-se em " in late.text
    assert deadline.last_day.strftime("%d/%m/%Y") in late.text
    monkeypatch.setattr(web_context, "today", lambda: deadline.last_day)
    assert f'id="recurso-{rev.id}"' in _track(client, filed.protocol, CPF).text
    assert _appeal(client, filed, rev.id, doc="65.563.842/0001-05").status_code == 404
    assert len(filings.acts(filed)) == before  # nothing written

    done = _appeal(client, filed, rev.id)
    assert done.status_code == 303, done.text[-1500:]
    code = done.headers["location"].rsplit("/", 1)[-1]
    receipt = registry.by_code(code)
    assert receipt is not None
    recurso = filings.by_receipt(receipt.id)
    assert recurso is not None and recurso.form == "recurso-transporte-escolar"
    assert recurso.processo == filed.processo and recurso.protocol != filed.protocol
    assert recurso.data["auto"] == {
        "especie": "decisao_revogacao", "numero": rev.printed, "data_decisao": "2026-06-22",
        "data_infracao": "2026-05-04", "placa": "EXE1A23",
        "penalidade": "Revogação do Alvará para Transporte Escolar após a terceira multa "
        "(art. 23, III, da Lei nº 4.515/2007), pelos autos de infração AIE-ESC nº "
        "0002/2026, AIE-ESC nº 0005/2026, AIE-ESC nº 0009/2026."}
    assert recurso.data["ciencia"] == {"no_auto": False,
                                       "data": deadline.ciencia.on.isoformat()}
    assert recurso.data["recorrente"] == {"nome": NAME, "cpf": CPF,
                                          "alvara": "ALV-ESC nº 0007/2026"}
    text = _pdf_text(client, code)
    assert recurso.protocol in text and "defesa.pdf" in text and rev.printed in text

    draft = _prepare(client, web_context, recurso)
    assert draft.form == "decisao-recurso-prefeito"
    assert draft.data["recurso"]["hipotese"] == "transporte-escolar#art25"
    assert draft.data["recurso"]["numero_protocolo"] == recurso.protocol
    assert draft.data["recorrente"] == {"nome": NAME, "cpf": CPF}
    assert draft.data["ato_recorrido"] == {
        "especie": "decisao", "numero": rev.printed, "data": "2026-06-22",
        "data_ciencia": deadline.ciencia.on.isoformat()}


def test_selection_refusal_appealed_online(
        client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Art. 11: the refusal of the inscription in the selection, its ciência taken on the
    tracking page, is appealed in writing to the Prefeito within 5 days of it, as
    ``recurso-classificacao`` naming the refusal; «Preparar ato» makes the DEC-GP of
    art. 11, whose report reads the refusal and its ciência from the registry and finds
    the recurso timely."""
    own_filing_count(web_context, monkeypatch)
    filed = _filed_by_driver(web_context, "escolar-selecao-" + "w" * 20)
    data = json.loads((web_context.config.pack_dir / "forms" / "decisao-indeferimento" /
                       "exemplo.json").read_text(encoding="utf-8"))
    data["processo"]["numero"] = filed.processo
    data["requerimento"]["formulario"] = "requerimento-inscricao-escolar"
    refused = _act(web_context, "IND", "decisao-indeferimento", data,
                   {"fundamento": ["transporte-escolar#art11"]}, date(2026, 3, 20))
    monkeypatch.setattr(web_context, "now", lambda: refused.issued_at + timedelta(minutes=2))
    assert _ciencia(client, filed.protocol, CPF, refused.id).status_code == 200
    registry = web_context.registry
    (deadline,) = FactRecorder(registry, web_context.engine.content).deadlines(refused)
    assert deadline.citation == "transporte-escolar#art11"
    assert (deadline.last_day - deadline.ciencia.on).days >= 5
    recurso, code = _late_then_filed(client, web_context, monkeypatch, filed, refused,
                                     deadline.last_day, deadline.ciencia.on)
    assert recurso.form == "recurso-classificacao"
    assert recurso.data["indeferimento"] == {
        "numero": refused.printed, "data": "2026-03-20",
        "data_ciencia": deadline.ciencia.on.isoformat()}
    assert recurso.data["recorrente"] == {"nome": NAME, "cpf": CPF,
                                          "protocolo_inscricao": filed.processo}
    text = _pdf_text(client, code)
    assert recurso.protocol in text and refused.printed in text

    draft = _prepare(client, web_context, recurso)
    assert draft.form == "decisao-recurso-prefeito"
    assert draft.data["recurso"]["hipotese"] == "transporte-escolar#art11"
    assert draft.data["ato_recorrido"] == {
        "especie": "decisao", "numero": refused.printed, "data": "2026-03-20",
        "data_ciencia": deadline.ciencia.on.isoformat()}
    decided = {**draft.data, "decisao": {
        **draft.data["decisao"], "resultado": "nao_provido",
        "fundamentacao": "A inscrição não veio instruída com a certidão exigida, e o "
                         "recurso não a junta."}}
    report = web_context.engine.prepare(
        "decisao-recurso-prefeito", decided, deadline.ciencia.on,
        history=web_context.require_issuer().history).report
    assert not [i for i in report.items if i.status is Status.INVALID], report.items
    timely = [i for i in report.items if "tempestiv" in i.message]
    assert timely and all(i.status is Status.MET and "publicação" not in i.message
                          and "ciência da decisão que indeferiu" in i.message for i in timely)


def test_revogacao_by_motive_appealed_online_under_lei_9784(
        client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lei nº 9.784/1999, arts. 56 and 59: the revogação "por motivo fundamentado"
    (escolar art. 3º, no penalty), its ciência taken on the tracking page, is appealed
    within 10 days of it to the Secretário who decided, as ``recurso-lei-9784`` naming
    the decision; «Preparar ato» on the inbox page makes the DEC-SETRANSV (hipótese art.
    56, § 1º) with the recurso, the recorrente and the revogação carried over, whose
    report finds the recurso timely from the ciência on record."""
    own_filing_count(web_context, monkeypatch)
    filed = _filed_by_driver(web_context, "escolar-motivo-" + "m" * 20)
    data = example("decisao-revogacao-alvara")
    data["processo"]["numero"] = filed.processo
    decided = date(2026, 11, 23)
    data["hipotese"] = {"tipo": "motivo_fundamentado", "motivo": {
        "fatos": "A escola atendida encerrou as atividades em 30/09/2026.",
        "fundamentos_juridicos": "Art. 3º da Lei nº 4.515/2007."}}
    data["decisao"]["data"] = decided.isoformat()
    rev = _act(web_context, "REV-ESC", "decisao-revogacao-alvara", data, {
        "fundamento": ["transporte-escolar#art3", "lei-9784-1999#art50_inc1",
                       "lei-9784-1999#art56", "lei-9784-1999#art56_par1",
                       "lei-9784-1999#art59"]}, decided)
    registry = web_context.registry
    filings = Filings(registry)
    before = len(filings.acts(filed))
    monkeypatch.setattr(web_context, "today", lambda: decided)
    early = _appeal(client, filed, rev.id)  # no ciência yet: the period has not begun
    assert early.status_code == 422 and "tome ciência do ato" in early.text
    monkeypatch.setattr(web_context, "now", lambda: rev.issued_at + timedelta(hours=2))
    assert _ciencia(client, filed.protocol, CPF, rev.id).status_code == 200
    (deadline,) = FactRecorder(registry, web_context.engine.content).deadlines(rev)
    assert deadline.citation == "lei-9784-1999#art59"
    assert (deadline.last_day - deadline.ciencia.on).days >= 10

    monkeypatch.setattr(web_context, "today", lambda: deadline.last_day + timedelta(days=1))
    late = _appeal(client, filed, rev.id)
    assert late.status_code == 422 and "encerrou-se em " in late.text
    assert deadline.last_day.strftime("%d/%m/%Y") in late.text
    assert len(filings.acts(filed)) == before  # nothing written

    monkeypatch.setattr(web_context, "today", lambda: deadline.last_day)
    assert f'id="recurso-{rev.id}"' in _track(client, filed.protocol, CPF).text
    done = _appeal(client, filed, rev.id)
    assert done.status_code == 303, done.text[-1500:]
    code = done.headers["location"].rsplit("/", 1)[-1]
    receipt = registry.by_code(code)
    assert receipt is not None
    recurso = filings.by_receipt(receipt.id)
    assert recurso is not None and recurso.form == "recurso-lei-9784"
    assert recurso.processo == filed.processo and recurso.protocol != filed.protocol
    ciencia = deadline.ciencia.on.isoformat()
    assert recurso.data["ato_recorrido"] == {
        "numero": rev.printed, "data": "2026-11-23", "data_ciencia": ciencia}
    assert recurso.data["recorrente"] == {"nome": NAME, "cpf": CPF,
                                          "alvara": "ALV-ESC nº 0007/2026"}
    assert recurso.data["data_recurso"] == deadline.last_day.isoformat()
    text = _pdf_text(client, code)
    assert recurso.protocol in text and rev.printed in text and "defesa.pdf" in text

    draft = _prepare(client, web_context, recurso)
    assert draft.form == "decisao-recurso-secretario"
    assert draft.data["recurso"]["hipotese"] == "lei-9784-1999#art56_par1"
    assert draft.data["recurso"]["numero_protocolo"] == recurso.protocol
    assert draft.data["recurso"]["data_protocolo"] == recurso.filed_at_local.date().isoformat()
    assert draft.data["recorrente"] == {"nome": NAME, "cpf": CPF}
    assert draft.data["ato_recorrido"] == {
        "especie": "decisao", "numero": rev.printed, "data": "2026-11-23",
        "data_ciencia": ciencia}
    written = {**draft.data, "decisao": {
        **draft.data["decisao"], "resultado": "nao_provido",
        "fundamentacao": "O encerramento das atividades da escola está comprovado pelo "
                         "ofício da Secretaria de Educação, e o recurso não o contesta."}}
    report = web_context.engine.prepare(
        "decisao-recurso-secretario", written, deadline.last_day,
        issued_on=deadline.last_day, history=web_context.require_issuer().history).report
    assert not [i for i in report.items if i.status is Status.INVALID], report.items
    timely = [i for i in report.items if "tempestiv" in i.message]
    assert timely and all(i.status is Status.MET for i in timely), timely

    # The Secretário keeps the revogação: the recurso is forwarded to the Prefeito.
    issuer = web_context.require_issuer()
    noon = datetime.combine(deadline.last_day, time(12), tzinfo=UTC)
    monkeypatch.setattr(issuer, "clock", lambda: noon)
    secretary = issuer.issue("decisao-recurso-secretario", written).record
    registry.mark_draft_issued(draft.id, document_id=secretary.id, by="Sérgio")
    url = f"{INBOX}/{recurso.id}"
    page = client.get(url).text
    assert "Decisão do Prefeito sobre o recurso não reconsiderado" in page
    assert "que encaminha o pedido à instância seguinte" in page
    assert "Decisão do Secretário sobre o recurso" not in page
    mayor = _prepare(client, web_context, recurso)
    assert mayor.form == "decisao-recurso-prefeito"
    assert mayor.data == {
        "recurso": {"hipotese": "lei-9784-1999#art56", "numero_protocolo": recurso.protocol,
                    "data_protocolo": recurso.filed_at_local.date().isoformat(),
                    "razoes": recurso.data["razoes"]},
        "recorrente": {"nome": NAME, "cpf": CPF},
        "ato_recorrido": {"especie": "decisao", "numero": rev.printed, "data": "2026-11-23",
                          "data_ciencia": ciencia},
        "encaminhamento": {"numero": secretary.printed,
                           "data": secretary.reference_date.isoformat()},
        "decisao": {"data": deadline.last_day.isoformat()}}
    from lavra.registry.inbox import Inbox

    case = Inbox(registry).case(recurso.id)
    assert case is not None and case.act_id == secretary.id  # until the Prefeito decides
    assert f"minuta nº {mayor.id}" in client.get(url).text
    final = {**mayor.data, "decisao": {
        **mayor.data["decisao"], "resultado": "nao_provido",
        "fundamentacao": "Mantém-se a revogação: o encerramento das atividades da escola "
                         "está comprovado e o recurso não o contesta."}}
    decided_by_mayor = issuer.issue("decisao-recurso-prefeito", final).record
    registry.mark_draft_issued(mayor.id, document_id=decided_by_mayor.id, by="Prefeito")
    case = Inbox(registry).case(recurso.id)
    assert case is not None and case.act_id == decided_by_mayor.id
    page = client.get(url).text
    assert "botao-preparar-ato" not in page and "instância seguinte" not in page
    text = _pdf_text(client, decided_by_mayor.verification_code)
    for words in ("não reconsiderada, à autoridade superior", rev.printed,
                  "nega-se provimento ao recurso e mantém-se a decisão que revogou o alvará",
                  "Lei nº 9.784/1999", f"Recurso encaminhado pela {secretary.printed}, de "
                  f"{secretary.reference_date:%d/%m/%Y}"):
        assert words in text, words


def _art59_appeal(client: TestClient, web_context: WebContext,
                  monkeypatch: pytest.MonkeyPatch, token: str, series: str, form: str,
                  data: dict[str, Any], basis: list[str], on: date
                  ) -> tuple[IssuedRecord, Filed, Any, Any]:
    """An act of the Secretário in the processo of the driver's filing, its ciência taken
    on the tracking page; the recurso of Lei nº 9.784/1999, art. 59, refused the day after
    the last day (nothing written) and filed on it: (act, recurso, deadline, draft of
    «Preparar ato»)."""
    own_filing_count(web_context, monkeypatch)
    filed = _filed_by_driver(web_context, token)
    data["processo"] = {"numero": filed.processo}
    act = _act(web_context, series, form, data, {"fundamento": basis}, on)
    registry = web_context.registry
    monkeypatch.setattr(web_context, "now", lambda: act.issued_at + timedelta(hours=2))
    assert _ciencia(client, filed.protocol, CPF, act.id).status_code == 200
    (deadline,) = FactRecorder(registry, web_context.engine.content).deadlines(act)
    assert deadline.citation == "lei-9784-1999#art59"
    assert (deadline.last_day - deadline.ciencia.on).days >= 10
    recurso, code = _late_then_filed(client, web_context, monkeypatch, filed, act,
                                     deadline.last_day, deadline.last_day)
    assert recurso.form == "recurso-lei-9784"
    assert recurso.data["ato_recorrido"] == {
        "numero": act.printed, "data": on.isoformat(),
        "data_ciencia": deadline.ciencia.on.isoformat()}
    assert act.printed in _pdf_text(client, code)
    draft = _prepare(client, web_context, recurso)
    assert draft.form == "decisao-recurso-secretario"
    assert draft.data["recurso"] == {
        "hipotese": "lei-9784-1999#art56_par1", "numero_protocolo": recurso.protocol,
        "data_protocolo": recurso.filed_at_local.date().isoformat(),
        "razoes": recurso.data["razoes"]}
    assert draft.data["recorrente"] == {"nome": NAME, "cpf": CPF}
    assert draft.data["ato_recorrido"] == {"especie": "decisao", **recurso.data["ato_recorrido"]}
    return act, recurso, deadline, draft


def _sign_secretary(client: TestClient, web_context: WebContext,
                    monkeypatch: pytest.MonkeyPatch, draft: Any, last_day: date) -> str:
    """The DEC-SETRANSV issued from the draft, keeping the act; its text (pdftotext)."""
    written = {**draft.data, "decisao": {
        **draft.data["decisao"], "resultado": "nao_provido",
        "fundamentacao": "O recurso não traz fato novo nem documento que altere a "
                         "conclusão da decisão recorrida, cujos fundamentos se mantêm."}}
    issuer = web_context.require_issuer()
    monkeypatch.setattr(issuer, "clock",
                        lambda: datetime.combine(last_day, time(12), tzinfo=UTC))
    issued = issuer.issue("decisao-recurso-secretario", written).record
    web_context.registry.mark_draft_issued(draft.id, document_id=issued.id, by="Sérgio")
    return _pdf_text(client, issued.verification_code)


def _refusal_data(web_context: WebContext) -> dict[str, Any]:
    """The refusal of an escolar renewal: outside the selection (art. 11 is the
    inscription's appeal), its appeal is Lei nº 9.784/1999's."""
    data = json.loads((web_context.config.pack_dir / "forms" / "decisao-indeferimento" /
                       "exemplo.json").read_text(encoding="utf-8"))
    data["requerimento"]["formulario"] = "requerimento-renovacao-escolar"
    return data


def _vacancia_data(web_context: WebContext) -> dict[str, Any]:
    """The declaração de vacância after the renewal was refused (art. 13)."""
    data = example("declaracao-vacancia")
    data["renovacao_requerida"] = {"data": "2025-12-10", "indeferida_em": "2025-12-20"}
    return data


ART59_ACTS = {
    "IND": ("decisao-indeferimento", _refusal_data, "/decisao/data",
            ["lei-9784-1999#art56", "lei-9784-1999#art56_par1", "lei-9784-1999#art59"],
            "A reconsideração da decisão e o deferimento do requerimento",
            ("Recurso contra o indeferimento de requerimento do transporte escolar: "
             "reconsideração pelo Secretário (art. 56, § 1º, da Lei nº 9.784, de 29 de "
             "janeiro de 1999)",
             "mantém-se a decisão que indeferiu o requerimento e encaminha-se o recurso "
             "ao Prefeito Municipal")),
    "DV-ESC": ("declaracao-vacancia", _vacancia_data, "/data_declaracao",
               ["transporte-escolar#art13", "lei-9784-1999#art59"],
               "A reconsideração da declaração de vacância e o restabelecimento do alvará",
               ("Recurso contra a declaração de vacância do transporte escolar: "
                "reconsideração pelo Secretário (art. 56, § 1º, da Lei nº 9.784, de 29 de "
                "janeiro de 1999)",
                "art. 13", "mantém-se a declaração de vacância e encaminha-se o recurso ao "
                "Prefeito Municipal")),
}


@pytest.mark.parametrize("series", list(ART59_ACTS))
def test_refusal_and_vacancia_appealed_online_under_lei_9784(
        client: TestClient, web_context: WebContext, monkeypatch: pytest.MonkeyPatch,
        series: str) -> None:
    """Lei nº 9.784/1999, arts. 56 and 59: the refusal of an escolar renewal (IND,
    outside the selection) and the declaração de vacância (DV-ESC, art. 13) joined to
    the processo of the refused renewal are appealed online within 10 days of the
    ciência on record, to the Secretário who decided, as ``recurso-lei-9784`` naming the
    act; «Preparar ato» drafts the DEC-SETRANSV with every field carried, and the
    decision issued names the law, the authority and the act appealed, in its words;
    kept, the recurso is forwarded and the inbox offers the Prefeito's decision."""
    form, make, dated, basis, pedido, printed = ART59_ACTS[series]
    data = make(web_context)
    on = date.fromisoformat(str(pointers.get(data, dated)))
    act, recurso, deadline, draft = _art59_appeal(
        client, web_context, monkeypatch, f"escolar-{series.lower()}-9784-" + "i" * 20,
        series, form, data, basis, on)
    assert recurso.data["pedido"].startswith(pedido)
    text = _sign_secretary(client, web_context, monkeypatch, draft, deadline.last_day)
    for words in (*printed, act.printed, "Secretário"):
        assert words in text, (words, text)
    assert "revogação" not in text and "revogou" not in text
    page = client.get(f"{INBOX}/{recurso.id}").text
    assert "Decisão do Prefeito sobre o recurso não reconsiderado" in page

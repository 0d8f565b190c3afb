"""Issue 23, class 3: a renewal notice gives the remedy the law gives.

- The school notice states an over-age vehicle in a section of its own, with the change
  of vehicle of escolar art. 17, § 1º, and never as a missing document to "complete";
  the requerimento of that change goes with it.
- A fretamento renewal asked after the 30 days of art. 8º does not renew: the notice
  names a new requerimento under art. 7º, and that is the form that goes with it.
- The document and the reason of each pending item are not swapped.

The runs' plans are exercised with a plan context over the engine alone (no registry):
the decisions under test read no history.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import pytest
from batchcases import REPO, _example, fret_alvara, fret_envelope, fret_request
from formcases import pdf_text

from lavra.batch.model import PlannedHolder, RunRequest
from lavra.checking.content import Content
from lavra.checking.report import Item, Report, Status
from lavra.documents import Engine, Prepared
from lavra_americana.comum.lote import pending_lines
from lavra_americana.fretamento import renovacao_lote as fret
from lavra_americana.transporte_escolar import renovacao_lote as esc

ESC_NOTICE, FRET_NOTICE = esc.NOTICE, fret.NOTICE


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(Content(REPO), pool=None)


class Plan:
    """What a run's plan asks of its context, over the engine alone."""

    def __init__(self, engine: Engine, on: date) -> None:
        self.engine = engine
        self.request = RunRequest("teste", {}, on)

    def prepare(self, form_id: str, data: Mapping[str, Any], on: date | None = None) -> Prepared:
        return self.engine.prepare(form_id, data, on or self.request.on, issued_on=self.request.on)

    def check(self, form_id: str, data: Mapping[str, Any], on: date | None = None) -> Report:
        return self.prepare(form_id, data, on).report

    def check_request(self, form_id: str, data: Mapping[str, Any]) -> Report:
        return self.engine.check(form_id, data)

    def series(self, form_id: str) -> str:
        return str(self.engine.content.form(form_id).series)

    def has_form(self, form_id: str) -> bool:
        return form_id in self.engine.content.forms

    def title(self, form_id: str) -> str:
        return self.engine.content.form(form_id).title


def _text(engine: Engine, form: str, data: Mapping[str, Any], on: date) -> str:
    return " ".join(pdf_text(engine.draft(form, data, on).pdf).split())


# ------------------------------------------------------------------ label and message


def test_a_pending_item_prints_its_subject_then_its_reason() -> None:
    age = Item("veiculo.ano_fabricacao", Status.INVALID, "/veiculo/ano_fabricacao",
               "Veículo de placa EXE1A23, fabricado em 2012: em 10/12/2026 conta 14 anos de "
               "fabricação, acima do máximo de 10 anos.", ("fretamento#art10_inc1",))
    blank = Item("processo.numero", Status.INVALID, "/processo/numero",
                 "Processo administrativo: Não pode ficar em branco.", ())
    missing = Item("documentos.crlv", Status.MISSING, "/documentos/crlv",
                   "Documento não apresentado: Cópia do documento CRLV.",
                   ("fretamento#art7_inc8",))
    report = Report("f", date(2026, 12, 10), (age, blank, missing))
    lines = pending_lines(report, "fretamento", "fretamento#art8")
    assert [(line["documento"], line["motivo"]) for line in lines] == [
        ("Veículo de placa EXE1A23, fabricado em 2012",
         "Em 10/12/2026 conta 14 anos de fabricação, acima do máximo de 10 anos."),
        ("Processo administrativo", "Não pode ficar em branco."),
        ("Cópia do documento CRLV", "Documento não apresentado."),
    ]
    assert [line["documento"] for line in pending_lines(
        report, "fretamento", "fretamento#art8", leave_out=("fretamento#art10_inc1",))] == [
        "Processo administrativo", "Cópia do documento CRLV"]


# ------------------------------------------------------------------ school: change of vehicle


def _school_licence() -> esc.Licence:
    data = _example("alvara-transporte-escolar")
    data["veiculo"]["ano_fabricacao"] = 2016  # 10 years in 2026: 11 in the renewed year
    return esc.Licence("ALV-ESC nº 0007/2026", "52998224725", date(2026, 12, 31), data)


def _school_request(**vehicle: Any) -> dict[str, Any]:
    data = _example(esc.REQUERIMENTO)
    data["veiculo"].update(vehicle)
    return data


def test_an_over_age_school_vehicle_calls_for_a_change_not_a_document(engine: Engine) -> None:
    lic = _school_licence()
    envelope = {"requerimento": _school_request(ano_fabricacao=2012), "processo": "PA 9/2026"}
    planned: PlannedHolder = esc.RUN._decide(Plan(engine, date(2026, 12, 10)), lic, envelope)
    assert planned.outcome == "notificado"
    notice = planned.outputs[0]
    assert notice.form == ESC_NOTICE
    change = notice.data["troca_veiculo"]
    assert change["dispositivos"] == ["transporte-escolar#art17_inc1",
                                      "transporte-escolar#art17_par1"]
    assert "fabricado em 2012" in change["motivo"]
    assert not any("ano_fabricacao" in p["documento"] or "fabricado" in p["documento"]
                   for p in notice.data["pendencias"])
    forms = [out.form for out in planned.outputs]
    assert forms == [ESC_NOTICE, esc.REQUERIMENTO, esc.CHANGE_FORM]
    assert planned.outputs[2].data["veiculo_substituido"]["placa"] == (
        lic.data["veiculo"]["placa"])
    prepared = engine.prepare(ESC_NOTICE, notice.data, date(2026, 12, 10))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    text = _text(engine, ESC_NOTICE, notice.data, date(2026, 12, 10))
    assert "Troca de veículo" in text and "art. 17, § 1º" in text
    assert "recibo de compra e venda do veículo substituído" in text
    assert "Requerimento de Troca de Veículo de Transporte Escolar" in text
    assert "completado com os documentos acima" not in text
    assert "Documentos a apresentar" not in text  # nothing but the vehicle is missing


def test_the_renewed_alvara_checks_the_vehicle_on_its_first_day(engine: Engine) -> None:
    # a complete request of 2016's vehicle: 10 years in 2026, 11 on 01/01/2027
    lic = _school_licence()
    envelope = {"requerimento": _school_request(ano_fabricacao=2016), "processo": "PA 9/2026"}
    planned = esc.RUN._decide(Plan(engine, date(2026, 12, 10)), lic, envelope)
    assert planned.outcome == "notificado", planned.reason
    assert "troca_veiculo" in planned.outputs[0].data
    assert planned.outputs[0].data["pendencias"] == []


def test_missing_documents_and_a_change_are_told_apart(engine: Engine) -> None:
    data = _example(ESC_NOTICE)
    data["troca_veiculo"] = {"motivo": "Veículo de placa EXE1A23, fabricado em 2012: acima "
                             "do máximo de 10 anos.",
                             "dispositivos": ["transporte-escolar#art17_inc1"]}
    text = _text(engine, ESC_NOTICE, data, date(2026, 12, 3))
    documents, _, rest = text.partition("Troca de veículo")
    assert "Documentos a apresentar" in documents and "fabricado em 2012" not in documents
    assert "fabricado em 2012" in rest
    assert "completado com os documentos acima, e deve ser requerida a troca do veículo" in rest


# ------------------------------------------------------------------ fretamento: after art. 8º


def _fret_licence() -> fret.Licence:
    return fret.Licence("ALV-FRET nº 0001/2021", "11222333000181", date(2026, 1, 10),
                        fret_alvara(0))


def test_a_late_fretamento_request_is_told_to_file_a_new_one(engine: Engine) -> None:
    lic = _fret_licence()
    envelope = dict(fret_envelope(0, lic.printed))
    req = fret_request(0, lic.printed, missing=("certidao_debito_sindical",))
    req["data_requerimento"] = "2025-12-20"  # the 30 days' notice ended on 11/12/2025
    envelope["requerimento"] = req
    planned = fret.RUN._decide(Plan(engine, date(2025, 12, 22)), lic, envelope)
    forms = [out.form for out in planned.outputs]
    assert forms == [FRET_NOTICE, fret.NEW_REQUEST], forms  # not the renewal form
    notice = planned.outputs[0].data
    assert notice["situacao"] == "fora_do_prazo"
    assert [p["documento"] for p in notice["pendencias"]] == [
        "Novo requerimento de Alvará de Licença de Circulação"]
    assert notice["pendencias"][0]["dispositivos"] == ["fretamento#art8", "fretamento#art7"]
    attached = planned.outputs[1].data
    assert attached["requerente"]["cnpj"] and attached["veiculos"][0]["placa"] == (
        lic.data["veiculo"]["placa"])
    prepared = engine.prepare(FRET_NOTICE, notice, date(2025, 12, 22))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["fora_do_prazo"] is True
    text = _text(engine, FRET_NOTICE, notice, date(2025, 12, 22))
    assert "o alvará não se renova" in text
    assert "Acompanha esta notificação o Requerimento de Alvará de Licença de Circulação" in text
    assert "requerimento de renovação preenchível" not in text
    assert "o complete e o apresente com os documentos que faltam" not in text


def test_a_request_in_time_still_gets_the_renewal_form(engine: Engine) -> None:
    lic = _fret_licence()
    envelope = dict(fret_envelope(0, lic.printed, missing=("certidao_debito_sindical",)))
    planned = fret.RUN._decide(Plan(engine, date(2025, 11, 25)), lic, envelope)
    assert [out.form for out in planned.outputs] == [FRET_NOTICE, fret.REQUERIMENTO]
    assert planned.outputs[0].data["situacao"] == "incompleto"


def test_a_lapsed_notice_must_say_so(engine: Engine) -> None:
    data = _example(FRET_NOTICE)
    data.update(situacao="ausente", data_notificacao="2026-12-02")
    data.pop("data_requerimento", None)
    found = engine.prepare(FRET_NOTICE, data, date(2026, 12, 2)).report
    assert any(i.field == "/situacao" and i.status is Status.INVALID for i in found.items)



def test_a_request_without_the_selo_it_must_carry_is_refused_in_words(engine: Engine) -> None:
    """Without the selo's form in the pack, the run takes the selo's number from the
    request line: a line without it is refused, saying so in words, never by its key."""

    class WithoutSeals(Plan):
        def has_form(self, form_id: str) -> bool:
            return form_id != esc.SEAL_FORM

    envelope = {"requerimento": _school_request(), "processo": "PA 9/2026"}
    planned = esc.RUN._decide(WithoutSeals(engine, date(2026, 12, 10)), _school_licence(),
                              envelope)
    assert planned.outcome == "recusado", planned
    assert planned.reason is not None and planned.reason.endswith(
        "não traz o número do selo de identificação que acompanha o alvará renovado (art. "
        "3º, § 2º, e art. 13, § 3º): informe-o na linha do pedido.")
    assert "selo_identificacao" not in planned.reason

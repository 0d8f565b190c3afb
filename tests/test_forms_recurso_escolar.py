"""The appeal against a school-transport penalty and the notice of a penalty (arts. 25
to 27 of Lei nº 4.515/2007).

The appeal (the offender's fillable form): complete example, each missing element, the
auto identified with its series, the last day of the 10 days (the 10th day on time, the
11th late; a last day on a Sunday moved to Monday), a ciência contradicting the auto
in the registry, an appeal dated after the draft. The notice (SETRANSV's act, NOT-PEN):
complete over a registry holding the auto, missing without it, refused when the auto
already recorded the ciência, when the auto is cancelled, and dated before the
infraction or after the issue.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from formcases import DELETE, example, pdf_text, setter
from historycases import FakeHistory

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import recurso_penalidade
from lavra_americana.transporte_escolar.recurso_penalidade import prefill_from_auto

REC = "recurso-transporte-escolar"
NOT = "notificacao-penalidade"
AUTO = "auto-infracao-escolar"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


def auto_record(ciencia: str | None = None, cancelled: bool = False) -> PriorRecord:
    data: dict[str, Any] = {
        "condutor": {"nome": "José Exemplo dos Santos", "cpf": "529.982.247-25",
                     "alvara": "ALV-ESC nº 0007/2026"},
        "veiculo": {"placa": "EXE1A23"},
    }
    if ciencia:
        data["ciencia"] = {"nome": "José Exemplo dos Santos", "data": ciencia}
    return PriorRecord("0001/2026", date(2026, 3, 2), data, form=AUTO, series="AIE-ESC",
                       cancelled=cancelled)


def report(engine: Engine, form: str, data: dict[str, Any], history: Any = None,
           issued: date = ISSUED) -> Report:
    return engine.prepare(form, data, issued_on=issued, history=history).report


def pending_at(rep: Report, field: str) -> list[Status]:
    return [i.status for i in rep.pending if i.field == field]


# ------------------------------------------------------------------ the appeal


def test_appeal_example_is_complete_and_prints_the_last_day(engine: Engine) -> None:
    prepared = engine.prepare(REC, example(engine, REC), issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["ultimo_dia"] == date(2026, 3, 12)
    assert prepared.computed["tempestivo"] is True
    form = engine.content.form(REC)
    assert form.fillable and form.series is None
    assert {E + "art25", E + "art26", E + "art27"} <= set(recurso_penalidade.IMPLEMENTED)
    assert pacote().computations["recurso_transporte_escolar"] is (
        recurso_penalidade.recurso_transporte_escolar
    )
    text = pdf_text(engine.draft(REC, example(engine, REC)).pdf)
    assert "Excelentíssimo Senhor Prefeito Municipal" in text
    assert "AIE-ESC nº 0001/2026" in text
    assert "O último dia do prazo é 12/03/2026" in text
    assert "única instância" in text


@pytest.mark.parametrize(
    "pointer",
    ["/recorrente", "/auto", "/auto/numero", "/auto/data_infracao", "/ciencia",
     "/ciencia/data", "/razoes", "/pedido", "/data_recurso"],
)
def test_each_missing_element_is_pending(engine: Engine, pointer: str) -> None:
    data = example(engine, REC)
    setter(pointer, DELETE)(data)
    assert not report(engine, REC, data).complete


@pytest.mark.parametrize("number", ["0001/2026", "AIE-ESC 0001/2026", "nº 1/2026"])
def test_the_auto_is_identified_with_its_series(engine: Engine, number: str) -> None:
    data = example(engine, REC)
    data["auto"]["numero"] = number
    assert not report(engine, REC, data).complete


@pytest.mark.parametrize(
    ("filed", "timely"),
    [("2026-03-12", True), ("2026-03-13", False), ("2026-03-01", True)],
    ids=["10th day", "11th day", "before the ciência"],
)
def test_last_day_boundary(engine: Engine, filed: str, timely: bool) -> None:
    data = example(engine, REC)
    data["data_recurso"] = filed
    prepared = engine.prepare(REC, data, issued_on=ISSUED)
    assert prepared.report.complete is timely
    assert prepared.computed["tempestivo"] is timely
    if not timely:
        message = next(i.message for i in prepared.report.pending if i.field == "/data_recurso")
        assert "intempestivo" in message and "12/03/2026" in message
        assert "art. 63" in message  # may still be filed; the Prefeito decides


def test_last_day_on_a_sunday_moves_to_monday(engine: Engine) -> None:
    data = example(engine, REC)
    data["ciencia"]["data"] = "2026-03-05"  # + 10 days = Sunday 15/03
    data["data_recurso"] = "2026-03-16"
    prepared = engine.prepare(REC, data, issued_on=ISSUED)
    assert prepared.computed["ultimo_dia"] == date(2026, 3, 16)
    assert prepared.computed["prazo"]["prorrogado"] is True
    assert prepared.report.complete


def test_ciencia_before_the_infraction_is_invalid(engine: Engine) -> None:
    data = example(engine, REC)
    data["ciencia"]["data"] = "2026-03-01"
    assert Status.INVALID in pending_at(report(engine, REC, data), "/ciencia/data")


def test_appeal_dated_after_the_draft_is_invalid(engine: Engine) -> None:
    data = example(engine, REC)
    data["data_recurso"] = "2026-03-11"
    assert report(engine, REC, data, issued=date(2026, 3, 11)).complete
    assert Status.INVALID in pending_at(
        report(engine, REC, data, issued=date(2026, 3, 10)), "/data_recurso"
    )


def test_registry_auto_sets_the_ciencia_and_the_date(engine: Engine) -> None:
    history = FakeHistory(auto_record(ciencia="2026-03-02"))
    data = example(engine, REC)
    assert report(engine, REC, data, history).complete
    data["ciencia"]["data"] = "2026-03-05"  # a later ciência than the auto's own
    assert Status.INVALID in pending_at(report(engine, REC, data, history), "/ciencia/data")
    data = example(engine, REC)
    data["auto"]["data_infracao"] = "2026-03-03"
    assert Status.INVALID in pending_at(
        report(engine, REC, data, history), "/auto/data_infracao"
    )
    cancelled = FakeHistory(auto_record(ciencia="2026-03-02", cancelled=True))
    assert Status.INVALID in pending_at(
        report(engine, REC, example(engine, REC), cancelled), "/auto/numero"
    )


def test_prefilled_from_the_auto(engine: Engine) -> None:
    filled = prefill_from_auto(auto_record(ciencia="2026-03-02"), "AIE-ESC nº 0001/2026")
    assert filled["auto"] == {"numero": "AIE-ESC nº 0001/2026", "data_infracao": "2026-03-02",
                              "placa": "EXE1A23"}
    assert filled["ciencia"] == {"no_auto": True, "data": "2026-03-02"}
    assert filled["recorrente"]["cpf"] == "529.982.247-25"
    pdf = engine.prefill(REC, filled)
    assert "AIE-ESC nº 0001/2026" in pdf_text(pdf)


# ------------------------------------------------------------------ the notice


def test_notice_example_complete_with_the_auto_on_record(engine: Engine) -> None:
    history = FakeHistory(auto_record())
    prepared = engine.prepare(NOT, example(engine, NOT), issued_on=ISSUED, history=history)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    form = engine.content.form(NOT)
    assert form.series == "NOT-PEN" and not form.fillable
    assert form.signer_role == "secretario-transportes"
    text = pdf_text(engine.draft(NOT, example(engine, NOT), history=history).pdf)
    assert "10 dias contados da data em que o infrator tomar ciência desta notificação" in text
    assert "exclui-se o dia da ciência" in text and "primeiro dia útil seguinte" in text
    assert "AIE-ESC nº 0001/2026" in text


def test_notice_without_the_auto_on_record_is_pending(engine: Engine) -> None:
    rep = report(engine, NOT, example(engine, NOT))
    assert pending_at(rep, "/auto/numero") == [Status.MISSING]


def test_notice_refused_when_the_auto_recorded_the_ciencia(engine: Engine) -> None:
    rep = report(engine, NOT, example(engine, NOT), FakeHistory(auto_record("2026-03-02")))
    assert Status.INVALID in pending_at(rep, "/auto/numero")


def test_notice_of_a_cancelled_auto_is_refused(engine: Engine) -> None:
    rep = report(engine, NOT, example(engine, NOT), FakeHistory(auto_record(cancelled=True)))
    assert Status.INVALID in pending_at(rep, "/auto/numero")


@pytest.mark.parametrize(
    ("day", "issued", "complete"),
    [("2026-03-02", ISSUED, True), ("2026-03-01", ISSUED, False),
     ("2026-03-04", date(2026, 3, 4), True), ("2026-03-04", date(2026, 3, 3), False)],
    ids=["day of the infraction", "before it", "day of issue", "after the issue"],
)
def test_notice_date_boundaries(engine: Engine, day: str, issued: date, complete: bool) -> None:
    data = example(engine, NOT)
    data["notificacao"]["data"] = day
    rep = report(engine, NOT, data, FakeHistory(auto_record()), issued)
    assert rep.complete is complete, [i.to_json() for i in rep.pending]


@pytest.mark.parametrize("pointer", ["/notificado", "/auto/numero", "/auto/penalidade",
                                     "/auto/motivo_sem_ciencia", "/notificacao/meio"])
def test_notice_missing_elements(engine: Engine, pointer: str) -> None:
    data = example(engine, NOT)
    setter(pointer, DELETE)(data)
    assert not report(engine, NOT, data, FakeHistory(auto_record())).complete

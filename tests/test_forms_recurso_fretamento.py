"""The company's appeal in fretamento (arts. 23 and 24, Lei nº 4.419/2006).

A fillable form the company signs and files: the case (to the Secretário, from the
infraction; to the Prefeito, from the ciência of the Secretário's decision) decides the
title, the basis and the event the 15 days run from; the appealed act is named by its
printed number with the series of the kind the case appeals; the last day is computed
and printed, on the appeal and above the fields of the prefilled form. The tests cover
the complete case, each incompleteness, and the boundaries of the 15 days (the last day
and the day after, a weekend and a holiday moving it).
"""

from __future__ import annotations

import io
from datetime import date
from typing import Any

import pytest
from formcases import (
    DELETE,
    Change,
    assert_pending,
    assert_reported,
    at,
    chain,
    example,
    pdf_text,
    setter,
)
from historycases import FakeHistory
from pypdf import PdfReader

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.fretamento import recurso
from lavra_americana.fretamento.recurso import recurso_fretamento

REC = "recurso-fretamento"
F = "fretamento#"
ISSUED = date(2026, 6, 30)


def report_of(
    engine: Engine, data: dict[str, Any], issued: date = ISSUED, history: Any = None
) -> Report:
    return engine.prepare(REC, data, issued_on=issued, history=history).report


def to_mayor(data: dict[str, Any]) -> None:
    data["instancia"] = "prefeito"
    data["ato_recorrido"] = {
        "numero": "DEC-SETRANSV nº 0007/2026",
        "data": "2026-03-20",
        "data_ciencia": "2026-03-23",
        "auto_origem": "AIF-FRET nº 0021/2026",
    }
    data["data_recurso"] = "2026-04-07"


def test_example_is_complete_and_the_last_day_is_15_days_after_the_infraction(
    engine: Engine,
) -> None:
    prepared = engine.prepare(REC, example(engine, REC), issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["prazo"]["ultimo_dia"] == date(2026, 3, 17)
    assert prepared.computed["titulo_documento"] == (
        "Recurso ao Secretário Municipal de Transportes e Sistema Viário "
        "(art. 23 da Lei nº 4.419/2006)"
    )
    assert prepared.computed["fundamento"] == [F + "art23"]
    assert prepared.report.on == date(2026, 3, 12)  # the day of the appeal


def test_the_form_is_the_companys_fillable_appeal(engine: Engine) -> None:
    form = engine.content.form(REC)
    assert form.series is None and form.fillable
    assert " ou " not in form.title
    assert find_computation(pacote(), "recurso_fretamento") is recurso_fretamento
    assert {F + "art23", F + "art24"} <= set(recurso.IMPLEMENTED)


def test_to_the_mayor_the_case_decides_title_basis_and_start(engine: Engine) -> None:
    data = example(engine, REC)
    to_mayor(data)
    prepared = engine.prepare(REC, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["titulo_documento"] == (
        "Recurso ao Prefeito Municipal (art. 24 da Lei nº 4.419/2006)"
    )
    assert prepared.computed["fundamento"] == [F + "art24"]
    # 15 days from the ciência (23/03), not from the decision (20/03): 07/04/2026.
    assert prepared.computed["prazo"]["ultimo_dia"] == date(2026, 4, 7)
    text = pdf_text(engine.draft(REC, data).pdf)
    assert "Excelentíssimo Senhor Prefeito Municipal" in text
    assert "a decisão do Secretário em recurso DEC-SETRANSV nº 0007/2026" in text
    assert " nº DEC-" not in text and " nº AIF-" not in text  # never "nº SÉRIE nº"
    assert "Secretário Municipal de Transportes e Sistema Viário (art. 23" not in text


@pytest.mark.parametrize(
    ("filed", "complete"),
    [("2026-03-17", True), ("2026-03-18", False)],
    ids=["on the last day", "the day after"],
)
def test_the_fifteenth_day_is_timely_the_sixteenth_is_not(
    engine: Engine, filed: str, complete: bool
) -> None:
    data = example(engine, REC)
    data["data_recurso"] = filed
    report = report_of(engine, data)
    assert report.complete is complete
    item = at(report, "/data_recurso")
    assert item.status is (Status.MET if complete else Status.INVALID)
    if not complete:
        assert "encerrou-se em 17/03/2026: recurso intempestivo" in item.message
        assert "pode, ainda assim, protocolá-lo" in item.message  # the right of petition


@pytest.mark.parametrize(
    ("infraction", "last", "why"),
    [
        ("2026-03-06", date(2026, 3, 23), "21/03 is a Saturday"),
        ("2026-04-06", date(2026, 4, 22), "21/04 is Tiradentes"),
    ],
    ids=["weekend", "holiday"],
)
def test_a_last_day_without_expediente_moves_to_the_next_working_day(
    engine: Engine, infraction: str, last: date, why: str
) -> None:
    data = example(engine, REC)
    data["ato_recorrido"]["data"] = infraction
    data["data_recurso"] = last.isoformat()
    prepared = engine.prepare(REC, data, issued_on=ISSUED)
    assert prepared.computed["prazo"]["ultimo_dia"] == last, why
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]


def test_the_mayors_15_days_run_from_the_ciencia_boundary(engine: Engine) -> None:
    data = example(engine, REC)
    to_mayor(data)
    data["data_recurso"] = "2026-04-08"
    assert_reported(report_of(engine, data), "/data_recurso", Status.INVALID, F + "art24")


CASES: list[tuple[str, Change, str, Status, str | None]] = [
    ("no case", setter("/instancia", DELETE), "/instancia", Status.MISSING, "art23"),
    ("no number", setter("/ato_recorrido/numero", DELETE), "/ato_recorrido/numero",
     Status.MISSING, "art23"),
    ("number without series", setter("/ato_recorrido/numero", "0021/2026"),
     "/ato_recorrido/numero", Status.INVALID, "art23"),
    ("decision appealed to the Secretário",
     setter("/ato_recorrido/numero", "DEC-SETRANSV nº 0007/2026"), "/ato_recorrido/numero",
     Status.INVALID, "art23"),
    ("auto appealed to the Prefeito",
     chain(to_mayor, setter("/ato_recorrido/numero", "AIF-FRET nº 0021/2026")),
     "/ato_recorrido/numero", Status.INVALID, "art24"),
    ("no infraction date", setter("/ato_recorrido/data", DELETE), "/ato_recorrido/data",
     Status.MISSING, "art23"),
    ("no ciência to the Prefeito", chain(to_mayor, setter("/ato_recorrido/data_ciencia",
     DELETE)), "/ato_recorrido/data_ciencia", Status.MISSING, "art24"),
    ("ciência before the decision", chain(to_mayor, setter("/ato_recorrido/data_ciencia",
     "2026-03-19")), "/ato_recorrido/data_ciencia", Status.INVALID, "art24"),
    ("no reasons", setter("/razoes", DELETE), "/razoes", Status.MISSING, "art23"),
    ("no request", setter("/pedido", DELETE), "/pedido", Status.MISSING, None),
    ("no place", setter("/local", DELETE), "/local", Status.MISSING, None),
    ("no date", setter("/data_recurso", DELETE), "/data_recurso", Status.MISSING, "art23"),
    ("appeal dated after today", setter("/data_recurso", "2026-07-01"), "/data_recurso",
     Status.INVALID, "art23"),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_incompleteness_is_reported(
    engine: Engine, case: str, change: Change, field: str, status: Status,
    fragment: str | None,
) -> None:
    data = example(engine, REC)
    change(data)
    assert_pending(report_of(engine, data), field, status, fragment and F + fragment)


def test_registry_act_cancelled_or_with_another_date_is_invalid(engine: Engine) -> None:
    data = example(engine, REC)
    auto = PriorRecord(
        "AIF-FRET nº 0021/2026", date(2026, 3, 2), {}, form="auto-infracao-fretamento",
        series="AIF-FRET",
    )
    assert report_of(engine, data, history=FakeHistory(auto)).complete
    cancelled = PriorRecord(
        "AIF-FRET nº 0021/2026", date(2026, 3, 2), {}, form="auto-infracao-fretamento",
        cancelled=True, cancel_reason="erro de digitação",
    )
    assert_reported(
        report_of(engine, data, history=FakeHistory(cancelled)),
        "/ato_recorrido/numero", Status.INVALID, F + "art23",
    )
    other_day = PriorRecord(
        "AIF-FRET nº 0021/2026", date(2026, 3, 1), {}, form="auto-infracao-fretamento"
    )
    report = report_of(engine, data, history=FakeHistory(other_day))
    assert_reported(report, "/ato_recorrido/data", Status.INVALID, F + "art23")
    assert "01/03/2026" in at(report, "/ato_recorrido/data").message


def test_draft_prints_the_case_the_act_and_the_last_day(engine: Engine) -> None:
    data = example(engine, REC)
    text = pdf_text(engine.draft(REC, data).pdf)
    assert "Recurso ao Secretário Municipal de Transportes e Sistema Viário" in text
    assert "Ilustríssimo Senhor Secretário" in text
    assert "o auto de infração AIF-FRET nº 0021/2026, de 02/03/2026" in text
    assert "Último dia para a interposição: 17/03/2026" in text
    assert "Americana, 12 de março de 2026" in text
    assert "Maria Exemplo da Silva" in text and "Prefeito" not in text


def test_prefilled_form_names_the_case_shows_the_last_day_and_reads_back(
    engine: Engine,
) -> None:
    data = example(engine, REC)
    pdf = engine.prefill(REC, data)
    text = pdf_text(pdf)
    assert "Recurso ao Secretário Municipal de Transportes e Sistema Viário" in text
    assert "Último dia para protocolar este recurso: 17/03/2026" in text
    assert "Local:" in text and "Assinatura" in text
    back = engine.read(pdf)
    assert back.form == REC
    assert back.data["ato_recorrido"]["numero"] == "AIF-FRET nº 0021/2026"
    assert back.data["instancia"] == "secretario"
    assert back.report.complete, [i.to_json() for i in back.report.pending]
    empty = pdf_text(engine.prefill(REC, {}))
    assert "Recurso Administrativo do Transporte por Fretamento" in empty
    assert "Último dia" not in empty
    assert len(PdfReader(io.BytesIO(pdf)).pages) <= 4

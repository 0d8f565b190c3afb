"""The communication of a substitute driver (art. 4º, parágrafo único, Lei nº 4.515/2007).

Not a licence: the licensed driver, kept from the service by a reason other than
health, may use a substitute who meets art. 7º except IV, VII and IX (I), provided he
communicates it to SETRANSV at once (II) and for at most 48 hours (III). The tests
cover the complete case, each incompleteness, and the boundaries of the 48 hours (a
weekend does not extend them; the alvará's expiry cuts them short) and of the
communication (at the start, not after it; not after the document is issued).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from formcases import DELETE, Change, assert_reported, at, chain, example, pdf_text, setter

from lavra.checking.computations import ComputeInput, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import comunicacao_substituicao
from lavra_americana.transporte_escolar.comunicacao_substituicao import (
    comunicacao_substituicao_condutor,
)

CSC = "comunicacao-substituicao-condutor"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


def report_of(engine: Engine, data: dict[str, Any], issued: date = ISSUED) -> Report:
    return engine.prepare(CSC, data, issued_on=issued).report


def moment(day: str, hour: str) -> dict[str, str]:
    return {"data": day, "hora": hour}


def test_example_is_complete_and_limit_is_48_hours(engine: Engine) -> None:
    prepared = engine.prepare(CSC, example(engine, CSC), issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["limite"] == datetime(2026, 3, 19, 6, 30)
    assert prepared.computed["limitado_pelo_alvara"] is False
    assert prepared.report.on == date(2026, 3, 17)  # the day of the communication


def test_the_form_is_the_holders_communication_not_a_licence(engine: Engine) -> None:
    form = engine.content.form(CSC)
    assert form.series is None and form.fillable  # the licensed driver signs and files it
    assert E + "art4_par1u" in form.basis and E + "art4" not in form.basis
    assert find_computation(pacote(), "comunicacao_substituicao_condutor") is (
        comunicacao_substituicao_condutor
    )
    assert {E + "art4_par1u_inc1", E + "art4_par1u_inc2", E + "art4_par1u_inc3"} <= set(
        comunicacao_substituicao.IMPLEMENTED
    )


def test_weekend_does_not_extend_the_48_hours(engine: Engine) -> None:
    data = example(engine, CSC)
    data["comunicacao"] = moment("2026-03-13", "06:00")
    data["substituicao"] = {"inicio": moment("2026-03-13", "15:00")}  # a Friday
    prepared = engine.prepare(CSC, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["limite"] == datetime(2026, 3, 15, 15, 0)  # Sunday: kept


@pytest.mark.parametrize(
    ("end", "complete"),
    [(moment("2026-03-19", "06:30"), True), (moment("2026-03-19", "06:31"), False)],
    ids=["exactly 48 hours", "one minute beyond"],
)
def test_planned_end_at_the_limit(engine: Engine, end: dict[str, str], complete: bool) -> None:
    data = example(engine, CSC)
    data["substituicao"]["fim"] = end
    report = report_of(engine, data)
    assert report.complete is complete
    if not complete:
        found = at(report, "/substituicao/fim")
        assert found.status is Status.INVALID and E + "art4_par1u_inc3" in found.basis
        assert "19/03/2026, às 06h30" in found.message


@pytest.mark.parametrize(
    ("hour", "complete"), [("06:30", True), ("06:31", False)],
    ids=["at the start", "one minute after the start"],
)
def test_communication_must_come_by_the_start(engine: Engine, hour: str, complete: bool) -> None:
    data = example(engine, CSC)
    data["comunicacao"] = moment("2026-03-17", hour)
    report = report_of(engine, data)
    assert report.complete is complete
    found = at(report, "/comunicacao")
    assert found.status is (Status.MET if complete else Status.INVALID)
    assert E + "art4_par1u_inc2" in found.basis


def test_the_alvara_expiry_cuts_the_48_hours_short(engine: Engine) -> None:
    data = example(engine, CSC)
    data["alvara"]["valido_ate"] = "2026-03-17"
    data["substituicao"].pop("fim")
    prepared = engine.prepare(CSC, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["limite"] == datetime(2026, 3, 18, 0, 0)
    assert prepared.computed["limitado_pelo_alvara"] is True
    assert "vence em 17/03/2026" in prepared.computed["limite_explicacao"]
    data["substituicao"]["fim"] = moment("2026-03-18", "07:00")
    assert at(report_of(engine, data), "/substituicao/fim").status is Status.INVALID


def test_no_substitution_under_an_expired_alvara(engine: Engine) -> None:
    data = example(engine, CSC)
    data["alvara"]["valido_ate"] = "2026-03-16"
    found = at(report_of(engine, data), "/substituicao/inicio")
    assert found.status is Status.INVALID and "vencimento do alvará" in found.message


def test_the_communication_is_not_dated_after_the_document(pack_dir: Path, engine: Engine) -> None:
    result = comunicacao_substituicao_condutor(
        ComputeInput(
            form_id=CSC, data=example(engine, CSC), on=date(2026, 3, 17), pack_dir=pack_dir,
            history=None, draft=True, issued_on=date(2026, 3, 16),
        )
    )
    bad = [i for i in result.items if i.field == "/comunicacao/data"]
    assert bad and bad[0].status is Status.INVALID


CASES: list[tuple[str, Change, str, Status, str]] = [
    ("I c/c art. 7º, I: substituto com 20 anos",
     setter("/condutor_substituto/data_nascimento", "2005-06-01"),
     "/condutor_substituto/data_nascimento", Status.INVALID, "art7_inc1"),
    ("I c/c art. 7º, II: substituto com CNH C", setter("/condutor_substituto/cnh/categoria", "C"),
     "/condutor_substituto/cnh", Status.INVALID, "art7_inc2"),
    ("I c/c art. 7º, III: residência há menos de 3 anos",
     setter("/condutor_substituto/residente_desde", "2024-01-10"),
     "/condutor_substituto/residente_desde", Status.INVALID, "art7_inc3"),
    ("I c/c art. 7º, V: sem atestado de antecedentes",
     setter("/documentos_substituto/antecedentes_criminais", DELETE),
     "/documentos_substituto/antecedentes_criminais", Status.MISSING, "art7_inc5"),
    ("I c/c art. 7º, VI: sem o curso", setter("/documentos_substituto/curso_condutor_escolar",
                                             DELETE),
     "/documentos_substituto/curso_condutor_escolar", Status.MISSING, "art7_inc6"),
    ("I c/c art. 7º, VIII: infração gravíssima nos últimos 12 meses",
     setter("/condutor_substituto/infracoes", [{"data": "2025-10-01", "gravidade": "gravissima"}]),
     "/condutor_substituto/infracoes", Status.INVALID, "art7_inc8"),
    ("II: sem a comunicação", setter("/comunicacao", DELETE), "/comunicacao", Status.MISSING,
     "art4_par1u_inc2"),
    ("III: sem o início da substituição", setter("/substituicao/inicio", DELETE),
     "/substituicao/inicio", Status.MISSING, "art4_par1u_inc3"),
    ("III: término antes do início",
     chain(setter("/substituicao/fim", moment("2026-03-17", "06:00"))),
     "/substituicao/fim", Status.INVALID, "art4_par1u_inc3"),
    ("sem o motivo", setter("/motivo", DELETE), "/motivo", Status.MISSING, "art4_par1u"),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, CSC)
    change(data)
    assert_reported(report_of(engine, data), field, status, E + fragment)


def test_draft_prints_the_limit_and_reads_back(engine: Engine) -> None:
    data = example(engine, CSC)
    text = pdf_text(engine.draft(CSC, data).pdf)
    assert "vem comunicar" in text and "Paulo Exemplo Substituto" in text
    assert "poderá conduzir o veículo até 19/03/2026, às 06h30" in text
    assert "expede" not in text  # the holder communicates: SETRANSV issues nothing
    prefilled = engine.prefill(CSC, data)
    assert prefilled.startswith(b"%PDF")

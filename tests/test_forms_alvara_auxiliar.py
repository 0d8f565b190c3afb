"""The alvará of the auxiliary driver (art. 9º, Lei nº 4.515/2007).

An alvará of his own, "constando esta condição": art. 7º except IV and VII (§ 1º), the
titular's vehicle (§ 3º), at most one auxiliary (caput, from the registry), and a
validity that never outlives the titular's alvará nor the exercise (arts. 3º and 13).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import pytest
from formcases import DELETE, Change, assert_reported, at, example, pdf_text, setter

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.transporte_escolar import alvara_auxiliar
from lavra_americana.transporte_escolar.alvara_auxiliar import alvara_condutor_auxiliar

AUX = "alvara-condutor-auxiliar"
E = "transporte-escolar#"
ISSUED = date(2026, 12, 15)


class Registry:
    """A case history holding earlier auxiliary alvarás (not cancelled)."""

    def __init__(self, *records: PriorRecord) -> None:
        self.records = records
        self.asked: list[tuple[str, str, date, date]] = []

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        self.asked.append((placa, form, since, before))
        return [r for r in self.records if since <= r.reference_date < before]


def report_of(engine: Engine, data: dict[str, Any], history: Any = None) -> Report:
    return engine.prepare(AUX, data, issued_on=ISSUED, history=history).report


def test_example_is_complete_and_ends_with_the_titulars_alvara(engine: Engine) -> None:
    prepared = engine.prepare(AUX, example(engine, AUX), issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["inicio_vigencia"] == date(2026, 3, 16)
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    assert prepared.computed["limitado_por"] == "alvara_titular"
    form = engine.content.form(AUX)
    assert form.series == "ALV-AUX" and form.signer_role == "secretario-transportes"
    assert find_computation(pacote(), "alvara_condutor_auxiliar") is alvara_condutor_auxiliar
    assert {E + "art9", E + "art9_par1", E + "art9_par3"} <= set(alvara_auxiliar.IMPLEMENTED)


@pytest.mark.parametrize(
    ("titular_end", "expected", "limited"),
    [
        ("2026-06-30", date(2026, 6, 30), "alvara_titular"),
        ("2026-03-16", date(2026, 3, 16), "alvara_titular"),  # last day: one day's alvará
        ("2027-03-15", date(2026, 12, 31), "exercicio"),  # never beyond the exercise
    ],
    ids=["titular ends first", "titular ends on the day of issue", "exercise ends first"],
)
def test_validity_is_the_earliest_limit(
    engine: Engine, titular_end: str, expected: date, limited: str
) -> None:
    data = example(engine, AUX)
    data["alvara_titular"]["valido_ate"] = titular_end
    prepared = engine.prepare(AUX, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == expected
    assert prepared.computed["limitado_por"] == limited


def test_the_edital_is_asked_of_the_auxiliary_too(engine: Engine) -> None:
    # issue 23, class 4: § 1º waives IV and VII only; IX is not waived
    data = example(engine, AUX)
    del data["edital"]
    report = report_of(engine, data)
    found = [i for i in report.pending if i.field == "/edital"]
    assert found and any(E + "art7_inc9" in i.basis for i in found)
    rendered = engine.draft(AUX, example(engine, AUX))
    text = " ".join(pdf_text(rendered.pdf).split())
    assert "dispensados apenas os incisos IV e VII." in text
    assert "dispensados os incisos IV e VII e" not in text
    assert "por não haver processo seletivo" not in text
    assert "Edital de Chamamento nº 01/2026: atendidas as demais exigências" in text


def test_no_auxiliary_alvara_under_an_expired_titular_alvara(engine: Engine) -> None:
    data = example(engine, AUX)
    data["alvara_titular"]["valido_ate"] = "2026-03-15"
    found = at(report_of(engine, data), "/alvara_titular/valido_ate")
    assert found.status is Status.INVALID and E + "art9" in found.basis


def _prior(valid_until: str, issued: date = date(2026, 2, 1)) -> PriorRecord:
    return PriorRecord(
        "0001/2026", issued,
        {"auxiliar": {"nome": "Outro Auxiliar"}, "alvara_titular": {"valido_ate": valid_until}},
    )


def test_at_most_one_auxiliary_in_force(engine: Engine) -> None:
    registry = Registry(_prior("2026-12-31"))
    found = at(report_of(engine, example(engine, AUX), registry), "/veiculo/placa")
    assert found.status is Status.INVALID and "Outro Auxiliar" in found.message
    assert registry.asked[0][:2] == ("EXE1A23", AUX)


@pytest.mark.parametrize(
    ("prior", "complete"),
    [(_prior("2026-03-15"), True), (_prior("2026-03-16"), False)],
    ids=["earlier one expired the day before", "earlier one in force on the day of issue"],
)
def test_an_earlier_auxiliary_alvara_counts_while_in_force(
    engine: Engine, prior: PriorRecord, complete: bool
) -> None:
    report = report_of(engine, example(engine, AUX), Registry(prior))
    assert report.complete is complete
    assert at(report, "/veiculo/placa").status is (Status.MET if complete else Status.INVALID)


def test_auxiliary_alvara_may_not_be_post_dated(engine: Engine) -> None:
    data = example(engine, AUX)
    report = engine.prepare(AUX, data, issued_on=date(2026, 3, 15)).report
    assert at(report, "/data_expedicao").status is Status.INVALID


CASES: list[tuple[str, Change, str, Status, str]] = [
    ("art. 7º, I: 21 anos só no dia seguinte à expedição",
     setter("/auxiliar/data_nascimento", "2005-03-17"),
     "/auxiliar/data_nascimento", Status.INVALID, "art7_inc1"),
    ("art. 7º, II: CNH B", setter("/auxiliar/cnh/categoria", "B"), "/auxiliar/cnh/categoria",
     Status.INVALID, "art7_inc2"),
    ("art. 7º, III: residência há menos de 3 anos",
     setter("/auxiliar/residente_desde", "2023-03-17"), "/auxiliar/residente_desde",
     Status.INVALID, "art7_inc3"),
    ("art. 7º, V: sem atestado de antecedentes",
     setter("/documentos/antecedentes_criminais", DELETE),
     "/documentos/antecedentes_criminais", Status.MISSING, "art7_inc5"),
    ("art. 7º, VI: sem o curso", setter("/documentos/curso_condutor_escolar", DELETE),
     "/documentos/curso_condutor_escolar", Status.MISSING, "art7_inc6"),
    ("art. 7º, VIII: infração grave nos últimos 12 meses",
     setter("/infracoes", [{"data": "2025-09-01", "gravidade": "grave"}]), "/infracoes",
     Status.INVALID, "art7_inc8"),
    ("art. 9º: sem inscrição no Cadastro de Atividades",
     setter("/auxiliar/cadastro_atividades", DELETE), "/auxiliar/cadastro_atividades",
     Status.MISSING, "art9"),
    ("art. 9º: sem a validade do alvará do titular", setter("/alvara_titular/valido_ate", DELETE),
     "/alvara_titular", Status.INVALID, "art9"),
    ("art. 9º, § 3º: sem o veículo do titular", setter("/veiculo", DELETE), "/veiculo",
     Status.MISSING, "art9_par3"),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_requirement_is_reported_with_its_article(
    engine: Engine, case: str, change: Change, field: str, status: Status, fragment: str
) -> None:
    data = example(engine, AUX)
    change(data)
    assert_reported(report_of(engine, data), field, status, E + fragment)


def test_exempt_from_vehicle_and_inspection_report(engine: Engine) -> None:
    report = report_of(engine, example(engine, AUX))
    exempt = {c for i in report.items if i.status is Status.NOT_APPLICABLE for c in i.basis}
    assert {E + "art7_inc4", E + "art7_inc7"} <= exempt


def test_draft_states_the_condition_and_reads_back(engine: Engine) -> None:
    text = pdf_text(engine.draft(AUX, example(engine, AUX)).pdf)
    assert "na condição de condutor auxiliar" in text
    assert "O presente alvará é válido de 16/03/2026 a 31/12/2026" in text
    assert "mesmo veículo do condutor titular" in text
    assert "não atende" not in text and "taxa" not in text.lower()

"""Issue 10, class 1 (and issue 11): the decision that revokes an escolar alvará
(Lei nº 4.515/2007, art. 3º, art. 9º, § 2º, art. 23, III, arts. 25 to 27).

The registry is a fixed case history (the alvará and the autos the decision rests on);
every decision is prepared with a fixed moment of issue, so nothing here depends on
today's date or the machine's zone.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from formcases import at, pdf_text
from historycases import FakeHistory

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Report, Status
from lavra.documents import Engine

REV = "decisao-revogacao-alvara"
E = "transporte-escolar#"
CPF = "529.982.247-25"
PLATE = "EXE1A23"
ISSUED = date(2026, 6, 22)


class History(FakeHistory):
    """The fake registry, with the decisions of this form asked by vehicle."""

    def prior_autos(
        self, placa: str, form: str, since: date, before: date
    ) -> Sequence[PriorRecord]:
        return [
            r
            for r in self.records
            if r.form == form and r.data["veiculo"]["placa"] == placa
            and since <= r.reference_date < before and not r.cancelled
        ]


def alvara(*, until: date = date(2026, 12, 31), cpf: str = CPF,
           cancelled: bool = False) -> PriorRecord:
    return PriorRecord(
        "0007/2026", date(2026, 1, 5),
        {"titular": {"cpf": cpf}, "veiculo": {"placa": PLATE}},
        form="alvara-transporte-escolar", series="ALV-ESC", valid_until=until,
        cancelled=cancelled, cancel_reason="erro material" if cancelled else None,
    )


def auto(number: str, day: date, citation: str, *, cpf: str = CPF,
         cancelled: bool = False) -> PriorRecord:
    return PriorRecord(
        number, day,
        {"ocorrencia": {"data": day.isoformat()}, "condutor": {"cpf": cpf},
         "veiculo": {"placa": PLATE}, "infracoes": [{"dispositivo": E + citation}]},
        form="auto-infracao-escolar", series="AIE-ESC", cancelled=cancelled,
    )


FINES = (
    auto("0002/2026", date(2026, 1, 20), "art24_inc2"),
    auto("0005/2026", date(2026, 3, 10), "art24_inc1"),
    auto("0009/2026", date(2026, 5, 4), "art24_inc3"),
)


def registry(*records: PriorRecord) -> History:
    return History(*(records or (alvara(), *FINES)))


def example(engine: Engine) -> dict[str, Any]:
    path = engine.content.form(REV).example
    assert path is not None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def report_of(engine: Engine, data: dict[str, Any], history: Any = None,
              issued: date = ISSUED) -> Report:
    found = registry() if history is None else history
    return engine.prepare(REV, data, issued_on=issued, history=found).report


def pending(report: Report) -> dict[str, Any]:
    return {i.field: i for i in report.items if i.pending}


def without_defence(data: dict[str, Any], notice: date, decided: date) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data["defesa"] = {"apresentada": False, "notificacao": {
        "numero": "nº 113/2026", "data_ciencia": notice.isoformat(),
        "conferencia": {"responsavel": "Ana Exemplo Lima", "data": decided.isoformat()}}}
    data["decisao"]["data"] = decided.isoformat()
    return data


# ------------------------------------------------------------------ the complete case


def test_example_is_complete_over_the_registry(engine: Engine) -> None:
    prepared = engine.prepare(REV, example(engine), issued_on=ISSUED, history=registry())
    assert prepared.report.complete, pending(prepared.report)
    values = prepared.computed
    assert values["alvara"]["numero"] == "ALV-ESC nº 0007/2026"
    assert [a["numero"] for a in values["autos"]] == [
        "AIE-ESC nº 0002/2026", "AIE-ESC nº 0005/2026", "AIE-ESC nº 0009/2026",
    ]
    assert "AIE-ESC nº 0009/2026 (infração de 04/05/2026)" in values["terceira_multa"]
    assert values["recurso"]["ultimo_dia"] is None  # from the recorded ciência
    assert values["titulo_documento"] == "Decisão de Revogação do Alvará para Transporte Escolar"
    assert values["subtitulo_documento"].startswith("Revogação após a terceira multa (art. 23, III")


def test_the_decision_is_the_secretarys_with_its_own_series(engine: Engine) -> None:
    spec = engine.content.form(REV)
    assert spec.signer_role == "secretario-transportes"
    assert spec.series == "REV-ESC"


def test_draft_prints_the_grounds_with_their_series(engine: Engine) -> None:
    text = pdf_text(engine.draft(REV, example(engine), history=registry()).pdf)
    assert "Auto de Infração AIE-ESC nº 0002/2026" in text
    assert "fica revogado, a partir desta data, o Alvará para Transporte Escolar ALV-ESC nº " \
        "0007/2026" in text
    assert ("notificado para apresentar defesa pela notificação nº 113/2026, com "
            "ciência em 01/06/2026 (atestada por Ana Exemplo Lima, matrícula 12.345, em "
            "22/06/2026, em conferência nos autos do processo PA 3.210/2026), no prazo de 10 "
            "dias") in text
    assert "em única instância, ao Prefeito Municipal" in text
    assert "10 (dez) dias contados da data em que o condutor tomar ciência" in text
    assert "Tomei ciência desta decisão em ____/____/________." in text
    assert "encerra-se" not in text.split("Recurso")[-1]


# --------------------------------------------------------------------- the registry


def test_without_the_registry_nothing_is_certified(engine: Engine) -> None:
    found = pending(report_of(engine, example(engine), History()))
    assert found["/alvara/numero"].status is Status.MISSING
    for index in range(3):
        assert found[f"/hipotese/autos/{index}/numero"].status is Status.MISSING


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (alvara(cancelled=True), "foi cancelado"),
        (alvara(until=date(2026, 6, 21)), "não está em vigor em 22/06/2026"),
        (alvara(cpf="111.444.777-35"), "outro condutor"),
    ],
)
def test_the_alvara_revoked_must_stand(
    engine: Engine, record: PriorRecord, words: str
) -> None:
    report = report_of(engine, example(engine), registry(record, *FINES))
    item = at(report, "/alvara/numero")
    assert item.status is Status.INVALID and words in item.message
    assert E + "art3" in item.basis


def test_an_alvara_already_revoked_is_not_revoked_again(engine: Engine) -> None:
    earlier = PriorRecord(
        "0001/2026", date(2026, 6, 1),
        {"alvara": {"numero": "ALV-ESC nº 0007/2026"}, "veiculo": {"placa": PLATE}},
        form=REV, series="REV-ESC",
    )
    item = at(report_of(engine, example(engine), registry(alvara(), *FINES, earlier)),
              "/alvara/numero")
    assert item.status is Status.INVALID
    assert "já foi revogado pela Decisão REV-ESC nº 0001/2026" in item.message


@pytest.mark.parametrize(
    ("index", "record", "words"),
    [
        (1, auto("0005/2026", date(2026, 3, 10), "art24_inc1", cancelled=True), "cancelado"),
        (2, auto("0009/2026", date(2026, 5, 4), "art24_inc3", cpf="111.444.777-35"),
         "outro condutor"),
        (2, auto("0009/2026", date(2026, 6, 23), "art24_inc3"), "posterior à data da decisão"),
    ],
)
def test_each_auto_must_stand_and_be_the_drivers(
    engine: Engine, index: int, record: PriorRecord, words: str
) -> None:
    autos = list(FINES)
    autos[index] = record
    item = at(report_of(engine, example(engine), registry(alvara(), *autos)),
              f"/hipotese/autos/{index}/numero")
    assert item.status is Status.INVALID and words in item.message


def test_two_fines_are_not_the_third(engine: Engine) -> None:
    data = example(engine)
    data["hipotese"]["autos"] = data["hipotese"]["autos"][:2]
    item = at(report_of(engine, data), "/hipotese/autos")
    assert item.status is Status.INVALID and "após a terceira multa" in item.message


def test_fines_more_than_a_year_apart_are_not_counted(engine: Engine) -> None:
    """The first fine more than 1 year before the third is not counted (art. 23, III,
    with the parágrafo único by analogy): 04/05/2025 + 1 year < 05/05/2026."""
    autos = (auto("0002/2025", date(2025, 5, 4), "art24_inc2"), *FINES[1:])
    autos = (*autos[:2], auto("0009/2026", date(2026, 5, 5), "art24_inc3"))
    data = example(engine)
    data["hipotese"]["autos"][0]["numero"] = "AIE-ESC nº 0002/2025"
    item = at(report_of(engine, data, registry(alvara(), *autos)), "/hipotese/autos")
    assert item.status is Status.INVALID


def test_the_act_states_the_reading_and_lists_the_fines_it_counts(engine: Engine) -> None:
    """Art. 23, III, with the 1-year measure of the parágrafo único by analogy (the
    reading beside the rule, revogacao.THIRD_FINE_READING): the act names the period and
    each fine counted, by number and date, and each auto not counted, with the reason."""
    older = auto("0001/2025", date(2025, 3, 2), "art24_inc1")
    data = example(engine)
    data["hipotese"]["autos"].insert(0, {"numero": "AIE-ESC nº 0001/2025"})
    prepared = engine.prepare(REV, data, issued_on=ISSUED,
                              history=registry(alvara(), older, *FINES))
    assert prepared.report.complete, pending(prepared.report)
    text = prepared.computed["terceira_multa"]
    assert "infrações cometidas de 04/05/2025 a 04/05/2026" in text
    assert "aplicada por analogia. São 3 as multas contadas:" in text
    assert ("Auto de Infração AIE-ESC nº 0002/2026 (infração de 20/01/2026), Auto de "
            "Infração AIE-ESC nº 0005/2026 (infração de 10/03/2026) e Auto de Infração "
            "AIE-ESC nº 0009/2026 (infração de 04/05/2026)") in text
    assert ("Não se contam: Auto de Infração AIE-ESC nº 0001/2025 (infração de "
            "02/03/2025), anterior a esse período.") in text
    printed = " ".join(pdf_text(engine.draft(REV, data, history=registry(
        alvara(), older, *FINES)).pdf).split())
    assert "Não se contam: Auto de Infração AIE-ESC nº 0001/2025" in printed


def test_exactly_one_year_still_counts(engine: Engine) -> None:
    autos = (auto("0002/2025", date(2025, 5, 4), "art24_inc2"), FINES[1], FINES[2])
    data = example(engine)
    data["hipotese"]["autos"][0]["numero"] = "AIE-ESC nº 0002/2025"
    assert report_of(engine, data, registry(alvara(), *autos)).complete


# ----------------------------------------------------------------- art. 9º, § 2º


def outro_condutor(engine: Engine, condition: str = "titular") -> dict[str, Any]:
    data = example(engine)
    data["condutor"]["condicao"] = condition
    data["hipotese"] = {"tipo": "veiculo_outro_condutor",
                        "autos": [{"numero": "AIE-ESC nº 0011/2026"}]}
    return data


def test_vehicle_driven_by_another_revokes_the_titulars_alvara(engine: Engine) -> None:
    history = registry(alvara(), auto("0011/2026", date(2026, 5, 20), "art9_par2_inc2"))
    prepared = engine.prepare(REV, outro_condutor(engine), issued_on=ISSUED, history=history)
    assert prepared.report.complete, pending(prepared.report)
    assert prepared.computed["subtitulo_documento"].endswith("(art. 9º, § 2º, II, da Lei nº "
                                                             "4.515/2007)")


def test_the_auto_must_record_the_ground(engine: Engine) -> None:
    history = registry(alvara(), auto("0011/2026", date(2026, 5, 20), "art24_inc1"))
    item = at(report_of(engine, outro_condutor(engine), history), "/hipotese/autos/0/numero")
    assert item.status is Status.INVALID and "não registra a infração" in item.message


def test_the_auxiliary_ground_reaches_only_the_auxiliary(engine: Engine) -> None:
    data = outro_condutor(engine)
    data["hipotese"]["tipo"] = "auxiliar_veiculo_irregular"
    history = registry(alvara(), auto("0011/2026", date(2026, 5, 20), "art9_par2_inc1"))
    item = at(report_of(engine, data, history), "/condutor/condicao")
    assert item.status is Status.INVALID and E + "art9_par2_inc1" in item.basis


# ------------------------------------------------------------------ due process


NOTICE = date(2026, 6, 1)  # a Monday: 10 days → Thursday 11/06/2026


def test_no_notice_no_revocation(engine: Engine) -> None:
    data = example(engine)
    del data["defesa"]["notificacao"]
    report = report_of(engine, data)
    assert not report.complete


def test_defence_presented_needs_its_summary(engine: Engine) -> None:
    data = example(engine)
    del data["defesa"]["sintese"]
    assert not report_of(engine, data).complete


def test_without_defence_not_on_the_last_day(engine: Engine) -> None:
    data = without_defence(example(engine), NOTICE, date(2026, 6, 11))
    item = at(report_of(engine, data, issued=date(2026, 6, 11)), "/decisao/data")
    assert item.status is Status.INVALID
    assert "a partir de 12/06/2026" in item.message
    assert E + "art23_inc3" in item.basis


def test_without_defence_from_the_day_after(engine: Engine) -> None:
    data = without_defence(example(engine), NOTICE, date(2026, 6, 12))
    prepared = engine.prepare(REV, data, issued_on=date(2026, 6, 12), history=registry())
    assert prepared.report.complete, pending(prepared.report)
    assert prepared.computed["defesa"]["texto"] == (
        "O condutor foi notificado para apresentar defesa pela notificação nº "
        "113/2026, com ciência em 01/06/2026 (atestada por Ana Exemplo Lima, em 12/06/2026, "
        "em conferência nos autos do processo PA 3.210/2026), no prazo de 10 dias "
        "(Lei nº 9.784/1999, art. 44, por analogia, à falta de prazo na lei "
        "municipal), encerrado em 11/06/2026, e não a apresentou."
    )


def test_a_last_day_on_saturday_moves_to_monday(engine: Engine) -> None:
    """Notice on 03/06/2026: the 10th day is Saturday 13/06, moved to Monday 15/06."""
    notice = date(2026, 6, 3)
    on_monday = without_defence(example(engine), notice, date(2026, 6, 15))
    assert at(report_of(engine, on_monday, issued=date(2026, 6, 15)),
              "/decisao/data").status is Status.INVALID
    on_tuesday = without_defence(example(engine), notice, date(2026, 6, 16))
    assert report_of(engine, on_tuesday, issued=date(2026, 6, 16)).complete


def test_the_notice_cannot_accuse_a_later_infraction(engine: Engine) -> None:
    data = example(engine)
    data["defesa"]["notificacao"]["data_ciencia"] = "2026-05-03"
    item = at(report_of(engine, data), "/defesa/notificacao/numero")
    assert item.status is Status.INVALID and "04/05/2026" in item.message


# ------------------------------------------------------------- no future facts


def test_a_decision_after_the_issue_is_invalid(engine: Engine) -> None:
    item = at(report_of(engine, example(engine), issued=date(2026, 6, 21)), "/decisao/data")
    assert item.status is Status.INVALID and "posterior à data de emissão" in item.message


def test_a_ciencia_date_typed_in_the_decision_is_invalid(engine: Engine) -> None:
    """Even the day of the decision: the ciência comes after the signature (issue 23)."""
    for day in ("2026-06-21", "2026-06-22", "2026-06-23"):
        typed = example(engine)
        typed["ciencia"]["data"] = day
        found = at(report_of(engine, typed), "/ciencia/data")
        assert found.status is Status.INVALID, day
        assert "fato posterior à assinatura" in found.message


def test_the_appeal_rule_is_printed_without_a_ciencia(engine: Engine) -> None:
    data = example(engine)
    del data["ciencia"]
    prepared = engine.prepare(REV, data, issued_on=ISSUED, history=registry())
    assert prepared.report.complete
    appeal = prepared.computed["recurso"]
    assert appeal["ultimo_dia"] is None
    assert "10 (dez) dias contados da data em que o condutor tomar ciência" in appeal["regra"]
    assert "reconsiderar" in appeal["regra"]


def test_coverage_counts_the_revocation(pack_dir: Path) -> None:
    from lavra_americana.transporte_escolar import revogacao

    assert {E + "art3", E + "art23_inc3", E + "art25", E + "art26", E + "art27"} <= set(
        revogacao.IMPLEMENTED
    )


def test_the_auxiliarys_own_alvara_is_revoked_under_art_9_par_2_i(engine: Engine) -> None:
    data = outro_condutor(engine, "auxiliar")
    data["hipotese"]["tipo"] = "auxiliar_veiculo_irregular"
    data["condutor"].update(nome="Paulo Exemplo Auxiliar", cpf="111.444.777-35")
    data["alvara"]["numero"] = "ALV-AUX nº 0003/2026"
    own = PriorRecord(
        "0003/2026", date(2026, 3, 16),
        {"auxiliar": {"cpf": "111.444.777-35"}, "veiculo": {"placa": PLATE}},
        form="alvara-condutor-auxiliar", series="ALV-AUX", valid_until=date(2026, 12, 31),
    )
    fact = auto("0011/2026", date(2026, 5, 20), "art9_par2_inc1", cpf="111.444.777-35")
    prepared = engine.prepare(REV, data, issued_on=ISSUED, history=registry(own, fact))
    assert prepared.report.complete, pending(prepared.report)
    assert prepared.computed["titulo_documento"] == (
        "Decisão de Revogação do Alvará de Condutor Auxiliar"
    )
    assert prepared.computed["alvara"]["numero"] == "ALV-AUX nº 0003/2026"

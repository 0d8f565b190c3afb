"""The notifications and determinations of SETRANSV to a fretamento company (Lei nº
4.419/2006: art. 10, § 1º; art. 13; art. 15, II, IV and V; art. 16, III; art. 17, II).

Each case says what is required, by when, and what follows from not complying; the
term is at least 3 working days from the receipt (art. 15, II with Lei nº 9.784/1999,
arts. 26, § 2º, and 41, by analogy); a disc of the tachograph is required only within
its 90 days of guard; the act is numbered (NOT-FRET) and signed by the Secretário. The
tests cover the complete case of each kind, each incompleteness, and the boundaries
(the minimum term with a holiday inside it; the 90th day of the guard and the 91st).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
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
from issuers import dev_issuer

from lavra.checking.computations import find_computation
from lavra.checking.report import Report, Status
from lavra.documents import Engine
from lavra_americana import pacote
from lavra_americana.fretamento.notificacao import notificacao_fretamento

NOT = "notificacao-fretamento"
F = "fretamento#"
ISSUED = date(2026, 4, 17)


def report_of(engine: Engine, data: dict[str, Any], issued: date = ISSUED) -> Report:
    return engine.prepare(NOT, data, issued_on=issued).report


def as_case(case: str) -> Change:
    def apply(data: dict[str, Any]) -> None:
        data["hipotese"] = case
        if case != "discos_tacografo":
            data.pop("discos", None)
        if case in ("documentos", "atualizacao_documentos"):
            data["documentos"] = ["Certidão de regularidade do FGTS atualizada"]
        if case == "vistoria_extraordinaria":
            data["vistoria"] = {
                "data": "2026-04-24", "hora": "09:00",
                "local": "Pátio da SETRANSV, Avenida Exemplo, nº 500",
            }
            data.pop("local_atendimento", None)
        if case == "afastamento_preposto":
            data["preposto"] = {
                "nome": "João Exemplo Pereira", "cpf": "529.982.247-25", "funcao": "motorista"
            }
            data.pop("local_atendimento", None)

    return apply


KINDS = {
    "discos_tacografo": ("Notificação para Apresentação de Discos do Tacógrafo", "art16_inc3"),
    "documentos": ("Notificação para Apresentação de Documentos", "art15_inc4"),
    "vistoria_extraordinaria": ("Notificação de Vistoria Extraordinária", "art17_inc6"),
    "atualizacao_documentos": (
        "Notificação para Atualização dos Documentos do Registro", "art21_ali3"
    ),
    "afastamento_preposto": ("Determinação de Afastamento de Preposto", "art17_inc2"),
}


@pytest.mark.parametrize("case", list(KINDS))
def test_each_case_is_complete_with_its_title_and_consequence(
    engine: Engine, case: str
) -> None:
    data = example(engine, NOT)
    as_case(case)(data)
    prepared = engine.prepare(NOT, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    title, consequence = KINDS[case]
    assert prepared.computed["titulo_documento"] == title
    assert F + consequence in prepared.computed["fundamento"]
    assert prepared.computed["consequencia"]
    assert prepared.computed["prazo"]["minimo"] == date(2026, 4, 23)


def test_the_form_is_a_numbered_act_of_the_secretario(engine: Engine) -> None:
    form = engine.content.form(NOT)
    assert form.series == "NOT-FRET" and not form.fillable
    assert form.signer_role == "secretario-transportes"
    assert " ou " not in form.title
    assert find_computation(pacote(), "notificacao_fretamento") is notificacao_fretamento


@pytest.mark.parametrize(
    ("term", "complete"),
    [("2026-04-23", True), ("2026-04-22", False)],
    ids=["the third working day (Tiradentes skipped)", "the day before"],
)
def test_the_term_is_at_least_three_working_days_from_receipt(
    engine: Engine, term: str, complete: bool
) -> None:
    data = example(engine, NOT)
    data["prazo"]["data_limite"] = term
    report = report_of(engine, data)
    assert report.complete is complete
    if not complete:
        assert_reported(report, "/prazo/data_limite", Status.INVALID, F + "art15_inc2")
        assert "23/04/2026" in at(report, "/prazo/data_limite").message


def test_a_receipt_date_typed_in_the_notification_is_invalid(engine: Engine) -> None:
    """The receipt comes after the Secretário signs: a typed day would print as fact
    what has not happened (issue 23, class 1)."""
    data = example(engine, NOT)
    data["ciencia"]["data"] = "2026-04-17"  # the day of the notification and of the issue
    found = at(report_of(engine, data), "/ciencia/data")
    assert_reported(report_of(engine, data), "/ciencia/data", Status.INVALID, F + "art24")
    assert "lavra fato ciencia" in found.message
    assert "«Registrar fato», na página do documento" in found.message  # the web's way too


def test_the_term_is_checked_from_the_notification_day(engine: Engine) -> None:
    """Without a typed receipt the earliest receipt is the notification's own day; a
    later receipt never shortens the term below 3 working days (the act says so)."""
    data = example(engine, NOT)
    data["data"] = "2026-04-22"  # Wednesday: 23, 24, 27
    assert_reported(
        report_of(engine, data, issued=date(2026, 4, 22)), "/prazo/data_limite",
        Status.INVALID, F + "art15_inc2",
    )
    data["prazo"]["data_limite"] = "2026-04-27"
    assert report_of(engine, data, issued=date(2026, 4, 22)).complete


@pytest.mark.parametrize(
    ("recorded", "complete"),
    [("2026-01-17", True), ("2026-01-16", False)],
    ids=["the 90th day of guard", "the 91st"],
)
def test_a_disc_is_required_only_within_its_90_days(
    engine: Engine, recorded: str, complete: bool
) -> None:
    data = example(engine, NOT)
    data["discos"] = [{"data_registro": recorded}]
    report = report_of(engine, data)
    assert report.complete is complete, [i.to_json() for i in report.pending]
    if not complete:
        assert_reported(report, "/discos/0/data_registro", Status.INVALID, F + "art10_par1")


def test_inspection_day_is_the_term(engine: Engine) -> None:
    data = example(engine, NOT)
    as_case("vistoria_extraordinaria")(data)
    data["prazo"]["data_limite"] = "2026-04-27"
    assert_reported(report_of(engine, data), "/prazo/data_limite", Status.INVALID, F + "art13")
    data["vistoria"]["data"] = data["prazo"]["data_limite"] = "2026-04-22"
    assert_reported(
        report_of(engine, data), "/prazo/data_limite", Status.INVALID, F + "art15_inc2"
    )


CASES: list[tuple[str, Change, str, Status, str | None]] = [
    ("no case", setter("/hipotese", DELETE), "/hipotese", Status.MISSING, "art10_par1"),
    ("no reason", setter("/motivo", DELETE), "/motivo", Status.MISSING, None),
    ("no term", setter("/prazo", DELETE), "/prazo", Status.MISSING, "art15_inc2"),
    ("no date", setter("/data", DELETE), "/data", Status.MISSING, "art15_inc2"),
    ("no discs", setter("/discos", DELETE), "/discos", Status.MISSING, "art10_par1"),
    ("no vehicle for discs", setter("/veiculo", DELETE), "/veiculo", Status.MISSING, None),
    ("no place", setter("/local_atendimento", DELETE), "/local_atendimento",
     Status.MISSING, None),
    ("disc after the notification", setter("/discos/0/data_registro", "2026-04-18"),
     "/discos/0/data_registro", Status.INVALID, "art10_par1"),
    ("no documents", chain(as_case("documentos"), setter("/documentos", DELETE)),
     "/documentos", Status.MISSING, "art15_inc4"),
    ("no inspection", chain(as_case("vistoria_extraordinaria"), setter("/vistoria", DELETE)),
     "/vistoria", Status.MISSING, "art13"),
    ("no preposto", chain(as_case("afastamento_preposto"), setter("/preposto", DELETE)),
     "/preposto", Status.MISSING, "art17_inc2"),
    ("notification after today", setter("/data", "2026-04-18"), "/data", Status.INVALID,
     "art15_inc2"),
    ("receipt typed in the act", setter("/ciencia/data", "2026-04-16"),
     "/ciencia/data", Status.INVALID, "art24"),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_incompleteness_is_reported(
    engine: Engine, case: str, change: Change, field: str, status: Status,
    fragment: str | None,
) -> None:
    data = example(engine, NOT)
    change(data)
    assert_pending(report_of(engine, data), field, status, fragment and F + fragment)


def test_draft_prints_what_by_when_and_what_follows(engine: Engine) -> None:
    text = pdf_text(engine.draft(NOT, example(engine, NOT)).pdf)
    assert "Notificação para Apresentação de Discos do Tacógrafo" in text
    assert "disco de 06/04/2026 (guarda obrigatória até 05/07/2026)" in text
    assert "atendida até 24/04/2026" in text
    assert "nunca será inferior a 3 (três) dias úteis" in text
    assert "multa do art. 16, III, da Lei nº 4.419/2006" in text
    assert "15 (quinze) dias contados da ciência" in text
    assert "Último dia" not in text and "encerra-se" not in text
    assert "Recebi a via desta notificação e dela tomei ciência em ____/____/________." in text
    assert "Maria Exemplo da Silva, sócia-administradora" in text
    assert "Secretário Municipal de Transportes e Sistema Viário" in text
    data = example(engine, NOT)
    as_case("afastamento_preposto")(data)
    text = pdf_text(engine.draft(NOT, data).pdf)
    assert "determina à empresa o afastamento do serviço do preposto João Exemplo" in text
    assert "Desta determinação cabe recurso ao Prefeito Municipal" in text
    assert "Recebi a via desta determinação e dela tomei ciência em ____/____/________." in text


def test_issued_in_its_series_and_appealed_to_the_prefeito_by_that_number(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        data = example(engine, NOT)
        as_case("afastamento_preposto")(data)
        result = issuer.issue(NOT, data)
        printed = result.record.printed
        assert printed.startswith("NOT-FRET nº 0001/")
        text = pdf_text(result.pdf)
        assert printed in text and "Determinação de Afastamento de Preposto" in text
        appeal = example(engine, "recurso-fretamento")
        appeal["instancia"] = "prefeito"
        appeal["ato_recorrido"] = {"numero": printed, "data": "2026-04-17",
                                   "data_ciencia": "2026-04-17"}
        appeal["data_recurso"] = "2026-04-30"
        report = engine.prepare("recurso-fretamento", appeal, issued_on=date(2026, 5, 1),
                                history=issuer.history).report
        assert report.complete, [i.to_json() for i in report.pending]
        appeal["ato_recorrido"]["data"] = "2026-04-16"  # not the registry's date
        report = engine.prepare("recurso-fretamento", appeal, issued_on=date(2026, 5, 1),
                                history=issuer.history).report
        assert_reported(report, "/ato_recorrido/data", Status.INVALID, F + "art24")
    finally:
        issuer.close()

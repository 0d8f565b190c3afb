"""The alvará collected against a receipt and given back (Lei nº 4.419/2006, art. 21,
§§ 2º to 4º): ``recibo-recolhimento-alvara`` (REC-ALV-FRET) and
``termo-devolucao-alvara`` (DEV-ALV-FRET), both signed by the agent.

The receipt states its basis (the irregularity, why it could not be remedied on the
spot, the risk to the passengers), the company's duty of § 3º and what gives the alvará
back (§ 4º); it names the termo or auto of the same constatação and the alvará as the
registry prints them, checked there when the registry holds them. The return is
complete only when the receipt is in the registry (same vehicle, same alvará, not
cancelled, not returned already), the vehicle was presented regularised after the
collection and before the return, and the costs were paid in that interval or there
were none. No fact is after the moment of issue. Each boundary is tested on both sides.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
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
from lavra.cli.demo import current_example
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.inputs.reading import TIMEZONE
from lavra.issuing import Issuer
from lavra_americana import pacote
from lavra_americana.fretamento.recolhimento import (
    recibo_recolhimento_alvara,
    termo_devolucao_alvara,
)

REC = "recibo-recolhimento-alvara"
AIF = "auto-infracao-fretamento"
DEV = "termo-devolucao-alvara"
F = "fretamento#"
P2, P3, P4 = F + "art21_par2", F + "art21_par3", F + "art21_par4"
DAY = date(2026, 3, 2)  # the examples' constatação, presentation and return
NEXT = date(2026, 3, 3)


def moment(day: date, hour: str) -> datetime:
    hours, minutes = (int(part) for part in hour.split(":"))
    return datetime(day.year, day.month, day.day, hours, minutes, tzinfo=TIMEZONE)


SEEDED: dict[str, str] = {}
"""form → the printed number of its example, issued over the module's registry."""


def paper_auto(data: dict[str, Any]) -> dict[str, Any]:
    """The termo's example citing its auto on paper: an AIF-FRET of lavra's series must be
    one the registry holds (issue 22, § 3), and the example's is not."""
    if "auto" in data:
        data["auto"]["numero"] = "nº 21/2026"
    return data


@pytest.fixture(scope="module")
def registry(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    """A registry holding the termo, the alvará and the auto of the examples' vehicle."""
    issuer = dev_issuer(engine, tmp_path_factory.mktemp("recolhimento") / "dados")
    try:
        form = "termo-impedimento-fretamento"
        result = issuer.issue(form, paper_auto(example(engine, form)), example_values=True)
        SEEDED[form] = result.record.printed
        # The alvará is from before the occurrence (an act is never dated before what it
        # rests on: lavra.registry.rests_on_dates): imported, with its own date.
        SEEDED["alvara-fretamento"] = imported_alvara(issuer)
        # An auto is issued only within its appeal period: its example is brought to the
        # day of issue, as the demo does (the test then reads its date from the registry).
        auto, _ = current_example(engine.content.form(AIF), example(engine, AIF))
        SEEDED[AIF] = issuer.issue(AIF, auto, example_values=True).record.printed
        yield issuer
    finally:
        issuer.close()
        SEEDED.clear()


ALVARA_ROW = ("alvara-fretamento,ALV-FRET nº 0005/2025,2025-02-10,PA 1.020/2025,"
              "65.563.842/0001-05,Viação Exemplo de Fretamento Ltda.,ABC1D23,80549125947,,"
              "2030-02-09" + "," * 15)


def imported_alvara(issuer: Issuer) -> str:
    """An alvará of the examples' vehicle (ALV-FRET nº 0005/2025, of 10/02/2025) imported
    into the registry; its printed number."""
    from test_cadastro_import import SAMPLE, load

    header = SAMPLE.read_text("utf-8").splitlines()[0]
    load(issuer.registry, f"{header}\n{ALVARA_ROW}\n".encode())
    return "ALV-FRET nº 0005/2025"


def printed(issuer: Issuer, form: str) -> str:
    """The printed number of the example of ``form`` issued over ``issuer``."""
    assert issuer.history.document(form, SEEDED[form]) is not None
    return SEEDED[form]


def receipt(engine: Engine, issuer: Issuer | None = None) -> dict[str, Any]:
    """The receipt's example, naming the registry's termo and alvará when given one."""
    data = example(engine, REC)
    if issuer is not None:
        data["ato"]["numero"] = printed(issuer, "termo-impedimento-fretamento")
        data["alvara"]["numero"] = printed(issuer, "alvara-fretamento")
    return data


def report_of(engine: Engine, form: str, data: dict[str, Any], issuer: Issuer | None = None,
              issued: date = NEXT, at_moment: datetime | None = None) -> Report:
    history = issuer.history if issuer is not None else None
    if at_moment is not None:
        return engine.prepare(form, data, issued_at=at_moment, history=history).report
    return engine.prepare(form, data, issued_on=issued, history=history).report


# ---------------------------------------------------------------- the forms


def test_both_are_numbered_acts_the_agent_signs(engine: Engine) -> None:
    for form_id, series in ((REC, "REC-ALV-FRET"), (DEV, "DEV-ALV-FRET")):
        form = engine.content.form(form_id)
        assert form.series == series and not form.fillable
        assert form.signer_role == "agente-fiscalizacao"
    assert find_computation(pacote(), "recibo_recolhimento_alvara") is recibo_recolhimento_alvara
    assert find_computation(pacote(), "termo_devolucao_alvara") is termo_devolucao_alvara


def test_coverage_counts_the_module_for_paragraphs_2_to_4(engine: Engine) -> None:
    from lavra_americana.fretamento import recolhimento

    assert set(recolhimento.IMPLEMENTED) == {P2, P3, P4}
    assert recolhimento in pacote().rule_modules


# ---------------------------------------------------------------- the receipt (§ 2º)


def test_the_receipt_is_complete_without_the_registry_and_says_so(
    engine: Engine, registry: Issuer
) -> None:
    """Given on the spot before the termo that cites it: not refused for lacking it."""
    prepared = engine.prepare(REC, receipt(engine), issued_on=NEXT, history=registry.history)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["ato"]["no_registro"] is False
    assert prepared.computed["alvara"] == {"numero": "ALV-FRET nº 0012/2025",
                                           "no_registro": False}
    text = pdf_text(engine.draft(REC, receipt(engine), history=registry.history).pdf)
    assert "ainda não consta do registro de documentos emitidos" in text
    assert "não consta do registro de documentos emitidos do sistema" in text


def test_the_receipt_prints_the_registry_numbers_and_its_three_duties(
    engine: Engine, registry: Issuer
) -> None:
    data = receipt(engine, registry)
    data["alvara"]["numero"] = data["alvara"]["numero"].replace(" nº ", " ")  # typed bare
    prepared = engine.prepare(REC, data, issued_on=NEXT, history=registry.history)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    alvara = printed(registry, "alvara-fretamento")
    assert prepared.computed["alvara"] == {"numero": alvara, "no_registro": True}
    text = pdf_text(engine.draft(REC, data, history=registry.history).pdf)
    assert f"recolhe, contra este recibo, o Alvará de Licença de Circulação {alvara}" in text
    assert printed(registry, "termo-impedimento-fretamento") in text
    assert "Por que não pôde ser sanada no local" in text
    assert "Risco à segurança dos passageiros" in text
    assert "continuidade do transporte dos passageiros, de forma satisfatória" in text
    assert "somente após a apresentação do veículo devidamente regularizado" in text
    assert "ainda não consta" not in text


RECEIPT_CASES: list[tuple[str, Change, str, Status, str | None]] = [
    ("no irregularity", setter("/irregularidade", DELETE), "/irregularidade",
     Status.MISSING, None),
    ("not said why not remedied on the spot", setter("/nao_sanavel_no_local", DELETE),
     "/nao_sanavel_no_local", Status.MISSING, None),
    ("no risk", setter("/risco", DELETE), "/risco", Status.MISSING, None),
    ("no act", setter("/ato", DELETE), "/ato", Status.MISSING, None),
    ("no alvará", setter("/alvara", DELETE), "/alvara", Status.MISSING, None),
    ("no agent", setter("/agente", DELETE), "/agente", Status.MISSING, None),
    ("no ciência", setter("/ciencia", DELETE), "/ciencia", Status.MISSING, None),
    ("collection after the issue", chain(setter("/ocorrencia/data", "2026-03-04"),
     setter("/ciencia/data", "2026-03-04")), "/ocorrencia/data", Status.INVALID, P2),
    ("ciência after the issue", setter("/ciencia/data", "2026-03-04"), "/ciencia/data",
     Status.INVALID, P2),
    ("ciência before the collection", setter("/ciencia/data", "2026-03-01"),
     "/ciencia/data", Status.INVALID, P2),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), RECEIPT_CASES,
                         ids=[c[0] for c in RECEIPT_CASES])
def test_each_incompleteness_of_the_receipt(
    engine: Engine, case: str, change: Change, field: str, status: Status,
    fragment: str | None,
) -> None:
    data = receipt(engine)
    change(data)
    assert_pending(report_of(engine, REC, data), field, status, fragment)


@pytest.mark.parametrize(("hour", "complete"), [("14:40", True), ("14:39", False)],
                         ids=["issued at the minute of the collection", "a minute before"])
def test_the_receipt_is_not_issued_before_the_collection(
    engine: Engine, hour: str, complete: bool
) -> None:
    report = report_of(engine, REC, receipt(engine), at_moment=moment(DAY, hour))
    assert report.complete is complete, [i.to_json() for i in report.pending]
    if not complete:
        assert_reported(report, "/ocorrencia/hora", Status.INVALID, P2)


def test_the_act_in_the_registry_must_be_of_the_same_constatacao(
    engine: Engine, registry: Issuer
) -> None:
    data = receipt(engine, registry)
    data["ocorrencia"]["data"] = data["ciencia"]["data"] = "2026-03-03"
    report = report_of(engine, REC, data, registry)
    assert_reported(report, "/ato/numero", Status.INVALID, P2)
    assert "é de 02/03/2026 e o recolhimento de 03/03/2026" in at(report, "/ato/numero").message


def test_an_act_that_released_the_vehicle_collects_nothing(
    engine: Engine, registry: Issuer
) -> None:
    """The example auto records the irregularity remedied on the spot (§ 1º)."""
    data = receipt(engine, registry)
    number = printed(registry, AIF)
    auto = registry.history.document(AIF, number)
    assert auto is not None
    data["ato"] = {"tipo": "auto-infracao", "numero": number}
    data["ocorrencia"]["data"] = data["ciencia"]["data"] = auto.reference_date.isoformat()
    report = report_of(engine, REC, data, registry,
                       issued=auto.reference_date + timedelta(days=1))
    assert_reported(report, "/ato/numero", Status.INVALID, F + "art21_par1")


@pytest.mark.parametrize(("change", "field"), [
    (setter("/veiculo/placa", "XYZ9K88"), "/alvara/numero"),
    (setter("/empresa/cnpj", "11.222.333/0001-81"), "/alvara/numero"),
], ids=["another vehicle", "another company"])
def test_the_alvara_and_the_act_are_of_this_vehicle_and_company(
    engine: Engine, registry: Issuer, change: Change, field: str
) -> None:
    data = receipt(engine, registry)
    change(data)
    report = report_of(engine, REC, data, registry)
    assert_reported(report, field, Status.INVALID, P2)
    assert_reported(report, "/ato/numero", Status.INVALID, P2)


# ---------------------------------------------------------------- the return (§ 4º)


@pytest.fixture(scope="module")
def collected(engine: Engine, registry: Issuer) -> str:
    """The printed number of a receipt issued over the module's registry."""
    return registry.issue(REC, receipt(engine, registry)).record.printed


def giving_back(engine: Engine, registry: Issuer, number: str) -> dict[str, Any]:
    data = example(engine, DEV)
    data["recibo"]["numero"] = number
    data["alvara"]["numero"] = printed(registry, "alvara-fretamento")
    return data


def test_the_return_is_complete_on_the_receipt_in_the_registry(
    engine: Engine, registry: Issuer, collected: str
) -> None:
    data = giving_back(engine, registry, collected)
    prepared = engine.prepare(DEV, data, issued_on=NEXT, history=registry.history)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    assert prepared.computed["recibo"]["numero"] == collected
    assert prepared.computed["custas"] == "Não houve custas decorrentes do recolhimento do alvará."


def test_without_the_receipt_in_the_registry_the_return_is_pending(
    engine: Engine, registry: Issuer
) -> None:
    data = giving_back(engine, registry, "REC-ALV-FRET nº 0099/2026")
    assert_reported(report_of(engine, DEV, data, registry), "/recibo/numero",
                    Status.MISSING, P4)
    assert_reported(report_of(engine, DEV, data), "/recibo/numero", Status.MISSING, P4)


def paid(on: str) -> Change:
    return setter("/custas", {"houve": True, "descricao": "guincho e pátio",
                              "valor": "180.00", "data_pagamento": on,
                              "comprovante": "GR 123/2026"})


RETURN_CASES: list[tuple[str, Change, str, Status, str | None]] = [
    ("no presentation", setter("/apresentacao", DELETE), "/apresentacao",
     Status.MISSING, None),
    # the schema reports a key an object lacks at the object, as invalid
    ("not said what was checked", setter("/apresentacao/verificacao", DELETE),
     "/apresentacao", Status.INVALID, None),
    ("not said who checked", setter("/apresentacao/responsavel", DELETE),
     "/apresentacao", Status.INVALID, None),
    ("not regularised", setter("/apresentacao/regularizado", False),
     "/apresentacao/regularizado", Status.INVALID, P4),
    ("costs not said", setter("/custas", DELETE), "/custas", Status.MISSING, None),
    ("costs without payment", setter("/custas", {"houve": True}), "/custas",
     Status.INVALID, None),
    ("costs paid after the return", paid("2026-03-03"), "/custas/data_pagamento",
     Status.INVALID, P4),
    ("costs paid before the collection", paid("2026-03-01"), "/custas/data_pagamento",
     Status.INVALID, P4),
    ("presented before the collection", setter("/apresentacao/hora", "14:39"),
     "/apresentacao/data", Status.INVALID, P4),
    ("returned before the presentation", setter("/devolucao/hora", "17:29"),
     "/devolucao/data", Status.INVALID, P4),
    ("another alvará", setter("/alvara/numero", "ALV-FRET nº 0007/2025"), "/alvara/numero",
     Status.INVALID, P4),
    ("another vehicle", setter("/veiculo/placa", "XYZ9K88"), "/recibo/numero",
     Status.INVALID, P4),
    ("received on another day", setter("/ciencia/data", "2026-03-03"), "/ciencia/data",
     Status.INVALID, P4),
    ("no agent", setter("/agente", DELETE), "/agente", Status.MISSING, None),
    ("no ciência", setter("/ciencia", DELETE), "/ciencia", Status.MISSING, None),
]


@pytest.mark.parametrize(("case", "change", "field", "status", "fragment"), RETURN_CASES,
                         ids=[c[0] for c in RETURN_CASES])
def test_each_incompleteness_of_the_return(
    engine: Engine, registry: Issuer, collected: str, case: str, change: Change,
    field: str, status: Status, fragment: str | None,
) -> None:
    data = giving_back(engine, registry, collected)
    change(data)
    assert_pending(report_of(engine, DEV, data, registry), field, status, fragment)


@pytest.mark.parametrize("change", [
    setter("/apresentacao/hora", "14:40"),
    setter("/devolucao/hora", "17:30"),
    paid("2026-03-02"),
], ids=["presented at the minute of the collection", "returned at the minute of the "
        "presentation", "costs paid on the day of the collection and of the return"])
def test_the_boundaries_of_the_return_are_allowed(
    engine: Engine, registry: Issuer, collected: str, change: Change
) -> None:
    data = giving_back(engine, registry, collected)
    change(data)
    report = report_of(engine, DEV, data, registry)
    assert report.complete, [i.to_json() for i in report.pending]


@pytest.mark.parametrize(("hour", "field"), [
    ("17:45", None), ("17:44", "/devolucao/hora"),
], ids=["issued at the minute of the return", "a minute before"])
def test_the_return_is_not_issued_before_it_happened(
    engine: Engine, registry: Issuer, collected: str, hour: str, field: str | None
) -> None:
    data = giving_back(engine, registry, collected)
    report = report_of(engine, DEV, data, registry, at_moment=moment(DAY, hour))
    if field is None:
        assert report.complete, [i.to_json() for i in report.pending]
    else:
        assert_reported(report, field, Status.INVALID, P4)


def test_the_return_dated_after_the_issue_is_refused(
    engine: Engine, registry: Issuer, collected: str
) -> None:
    data = giving_back(engine, registry, collected)
    report = report_of(engine, DEV, data, registry, issued=date(2026, 3, 1))
    assert_reported(report, "/devolucao/data", Status.INVALID, P4)


def test_issued_once_per_receipt_and_never_on_a_cancelled_act(
    engine: Engine, tmp_path: Path
) -> None:
    issuer = dev_issuer(engine, tmp_path / "dados")
    try:
        number = issuer.issue(REC, receipt(engine)).record.printed
        assert number.startswith("REC-ALV-FRET nº 0001/")
        text = pdf_text(issuer.issue(REC, receipt(engine)).pdf)  # a second, its own number
        assert "REC-ALV-FRET nº 0002/" in text
        data = example(engine, DEV)
        data["recibo"]["numero"] = number
        result = issuer.issue(DEV, data)
        returned = result.record.printed
        assert returned.startswith("DEV-ALV-FRET nº 0001/")
        text = pdf_text(result.pdf)
        assert f"recolhido pelo recibo {number}, de 02/03/2026, às 14:40" in text
        assert "devolve ao transportador, Viação Exemplo de Fretamento Ltda." in text
        assert "Não houve custas decorrentes do recolhimento do alvará." in text
        assert "constatado devidamente regularizado por Carlos Exemplo Souza" in text
        again = report_of(engine, DEV, data, issuer)
        assert_reported(again, "/recibo/numero", Status.INVALID, P4)
        assert f"já foi devolvido pelo termo {returned}" in at(again, "/recibo/numero").message
        series, _, bare = number.partition(" nº ")
        with pytest.raises(InputError, match=f"o {returned}, que não foi cancelado, o cita"):
            issuer.cancel(bare, "lavrado em duplicidade", "Chefia da fiscalização",
                          series=series)  # the return rests on the receipt
        returned_series, _, returned_bare = returned.partition(" nº ")
        for which, what in ((returned_series, returned_bare), (series, bare)):
            issuer.cancel(what, "lavrado em duplicidade", "Chefia da fiscalização",
                          series=which)
        message = at(report_of(engine, DEV, data, issuer), "/recibo/numero").message
        assert "foi cancelado (lavrado em duplicidade)" in message
        termo = issuer.issue("termo-impedimento-fretamento", paper_auto(
            example(engine, "termo-impedimento-fretamento"))).record.printed
        series, _, bare = termo.partition(" nº ")
        issuer.cancel(bare, "auto anulado", "Chefia da fiscalização", series=series)
        data = receipt(engine)
        data["ato"]["numero"] = termo
        report = report_of(engine, REC, data, issuer)
        assert_reported(report, "/ato/numero", Status.INVALID, P2)
        assert "foi cancelado: o recibo não pode pertencer a ele" in at(
            report, "/ato/numero").message
    finally:
        issuer.close()


def test_costs_paid_are_printed(engine: Engine, registry: Issuer, collected: str) -> None:
    data = giving_back(engine, registry, collected)
    paid("2026-03-02")(data)
    text = pdf_text(engine.draft(DEV, data, history=registry.history).pdf)
    assert ("Custas decorrentes do recolhimento (guincho e pátio) pagas em 02/03/2026, "
            "comprovante nº GR 123/2026.") in text

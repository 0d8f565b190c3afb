"""The guia de recolhimento of an auto's fines to the Fundo Municipal de Trânsito (Lei nº
4.419/2006, arts. 14, parágrafo único, 23, 22, II, and 26): ``guia-recolhimento-multa-
fretamento`` (GUIA-FRET).

Only the date and the auto's number are typed: the payer, the infractions and the
amounts are the registry's auto and the pack's amount rules; the due date is the last day
of the appeal of art. 23 (the pack's reading), or the day of issue once that has passed.
A guia is refused for an auto the registry lacks, and once a payment is recorded on a
guia of the same auto. The issued guia is read back with poppler and its signature
verified. Dates are taken from the registry's auto, never from the clock.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from formcases import example
from issuers import dev_issuer

from lavra.checking.computations import PriorRecord, find_computation
from lavra.checking.report import Item, Status
from lavra.cli.demo import current_example
from lavra.documents import Engine
from lavra.issuing import Issuer
from lavra.recording import FactRecorder
from lavra.registry.records import LOCAL_TZ
from lavra.render.templating import format_moeda_extenso
from lavra_americana import pacote
from lavra_americana.fretamento import guia_multa

GUIA = "guia-recolhimento-multa-fretamento"
AIF = "auto-infracao-fretamento"
CAS = "decisao-cassacao-fretamento"
NUMBER = "/auto/numero"


def poppler_text(pdf: bytes) -> str:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                         check=True).stdout.decode("utf-8")
    return " ".join(out.replace("-\n", "-").split())


@pytest.fixture(scope="module")
def registry(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    """A registry holding the example auto, brought to the day of issue as the demo does."""
    issuer = dev_issuer(engine, tmp_path_factory.mktemp("guia") / "dados")
    try:
        auto, _ = current_example(engine.content.form(AIF), example(engine, AIF))
        issuer.issue(AIF, auto, example_values=True)
        yield issuer
    finally:
        issuer.close()


def the_auto(issuer: Issuer) -> PriorRecord:
    found = issuer.history.by_holder("65563842000105", AIF)
    assert len(found) == 1
    return found[0]


def guia(auto: PriorRecord, on: date) -> dict[str, Any]:
    return {"guia": {"data_emissao": on.isoformat()}, "auto": {"numero": auto.printed},
            "pagador": {"cnpj": "65.563.842/0001-05"}}


def last_appeal_day(engine: Engine, auto: PriorRecord) -> date:
    prepared = engine.prepare(AIF, dict(auto.data), issued_on=auto.reference_date,
                              example_values=True)
    day: date = prepared.computed["recurso"]["ultimo_dia"]
    return day


def test_the_form_is_a_numbered_guia_with_its_computation(engine: Engine) -> None:
    form = engine.content.form(GUIA)
    assert form.series == "GUIA-FRET" and not form.fillable
    assert find_computation(pacote(), "guia_multa_fretamento") is guia_multa.guia_multa_fretamento
    assert guia_multa.IMPLEMENTED == ("fretamento#art26",)
    assert guia_multa in pacote().rule_modules


def test_payer_and_amounts_come_from_the_registry_auto(engine: Engine, registry: Issuer) -> None:
    auto = the_auto(registry)
    day = auto.reference_date
    prepared = engine.prepare(GUIA, guia(auto, day), issued_on=day, history=registry.history,
                              example_values=True)
    assert prepared.report.complete, [i.to_json() for i in prepared.report.pending]
    values = prepared.computed
    assert values["pagador"] == {"razao_social": "Viação Exemplo de Fretamento Ltda.",
                                 "cnpj": "65.563.842/0001-05"}
    fine = engine.prepare(AIF, dict(auto.data), issued_on=day, example_values=True).computed
    assert values["total"] == fine["total"] and values["total"] > 0
    assert values["total_extenso"] == format_moeda_extenso(fine["total"])
    assert len(values["infracoes"]) == 2
    assert values["vencimento"] == last_appeal_day(engine, auto)
    assert "fretamento#art26" in values["fundamento"]


def test_after_the_appeal_period_it_is_due_at_sight(engine: Engine, registry: Issuer) -> None:
    auto = the_auto(registry)
    late = last_appeal_day(engine, auto) + timedelta(days=1)
    prepared = engine.prepare(GUIA, guia(auto, late), issued_on=late,
                              history=registry.history, example_values=True)
    assert prepared.report.complete
    assert prepared.computed["vencimento"] == late
    assert "Multa vencida desde" in prepared.computed["vencimento_explicacao"]


def test_an_auto_the_registry_lacks_is_refused(engine: Engine, registry: Issuer) -> None:
    day = the_auto(registry).reference_date
    data = {"guia": {"data_emissao": day.isoformat()},
            "auto": {"numero": "AIF-FRET nº 0099/2026"},
            "pagador": {"cnpj": "65.563.842/0001-05"}}
    report = engine.prepare(GUIA, data, issued_on=day, history=registry.history).report
    found = [i for i in report.pending if i.field == NUMBER]
    assert found and found[0].status is Status.MISSING
    assert "não consta do registro" in found[0].message
    assert "art. 26" in found[0].message


def test_a_payer_other_than_the_autuado_is_invalid(engine: Engine, registry: Issuer) -> None:
    auto = the_auto(registry)
    data = guia(auto, auto.reference_date)
    data["pagador"]["cnpj"] = "11.222.333/0001-81"
    report = engine.prepare(GUIA, data, issued_on=auto.reference_date,
                            history=registry.history, example_values=True).report
    assert any(i.field == "/pagador/cnpj" and i.status is Status.INVALID
               and "art. 14" in i.message for i in report.pending)


def test_a_guia_before_the_infraction_is_invalid(engine: Engine, registry: Issuer) -> None:
    auto = the_auto(registry)
    before = auto.reference_date - timedelta(days=1)
    report = engine.prepare(GUIA, guia(auto, before), issued_on=auto.reference_date,
                            history=registry.history, example_values=True).report
    assert any(i.field == "/guia/data_emissao" and i.status is Status.INVALID
               for i in report.pending)


def test_issued_read_back_verified_and_paid_once(engine: Engine, registry: Issuer) -> None:
    auto = the_auto(registry)
    day = auto.reference_date
    result = registry.issue(GUIA, guia(auto, day), example_values=True)
    assert result.record.printed.startswith("GUIA-FRET nº ")
    assert registry.verify(result.pdf).valid
    text = poppler_text(result.pdf)
    due = last_appeal_day(engine, auto)
    for expected in ("Guia de Recolhimento de Multa ao Fundo Municipal de Trânsito",
                     f"auto de infração {auto.printed}", "65.563.842/0001-05",
                     "Viação Exemplo de Fretamento Ltda.", f"{due:%d/%m/%Y}",
                     "Fundo Municipal de Trânsito, instituído pela Lei nº 3.564",
                     "Documento de Arrecadação Municipal (DAM) não consta das fontes"):
        assert expected in text, expected
    assert "Total a recolher: R$ " in text and " reais" in text
    assert "art. 21" not in text  # the impediment is not collected by the guia
    # The payment cites the guia's number; a second guia of the same auto is refused, and
    # a cassação for that fine as unpaid (art. 22, II) is refused too.
    assert paid_item(engine, registry, auto) is None
    recorder = FactRecorder(registry.registry, engine.content)
    paid_on = result.record.issued_at.astimezone(LOCAL_TZ).date()
    recorder.record(recorder.document(result.record.printed, None), "pagamento",
                    on=paid_on.isoformat(), by="Servidora Exemplo", amount="1,00")
    paid = guia_multa.paid_guias(registry.history, the_auto(registry))
    assert [(g.printed, on) for g, on in paid] == [(result.record.printed, paid_on)]
    report = engine.prepare(GUIA, guia(auto, day), issued_on=day, history=registry.history,
                            example_values=True).report
    found = [i for i in report.pending if i.field == NUMBER]
    assert found and found[0].status is Status.INVALID
    assert f"na guia {result.record.printed}" in found[0].message
    refused = paid_item(engine, registry, auto)
    assert refused is not None and refused.status is Status.INVALID
    assert "art. 22, II" in refused.message and result.record.printed in refused.message


def paid_item(engine: Engine, registry: Issuer, auto: PriorRecord) -> Item | None:
    """The cassação's item on the auto's recorded payment, the auto listed as unpaid."""
    data = example(engine, CAS)
    data["hipoteses"]["multas_nao_recolhidas"]["autos"] = [
        {"numero": auto.printed, "data_infracao": auto.reference_date.isoformat(),
         "valor": "140.00"}]
    decided = auto.reference_date + timedelta(days=40)
    data["decisao"]["data"] = decided.isoformat()
    report = engine.prepare(CAS, data, issued_on=decided, history=registry.history,
                            example_values=True).report
    wanted = "/hipoteses/multas_nao_recolhidas/autos/0/numero"
    return next((i for i in report.items if i.field == wanted), None)

"""The fretamento alvará never outlives what the law allows, and asserts only what is on
file (issue 10, classes 3 and 8): arts. 7º, 8º and 10, I, of Lei nº 4.419/2006."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import historycases
import pytest
from formcases import at, example, pdf_text
from historycases import FakeHistory
from issuers import dev_issuer

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.issuing import IncompleteError, Issuer

ALV = "alvara-fretamento"
ON = date(2026, 11, 29)


def alvara(engine: Engine, **vehicle: Any) -> dict[str, Any]:
    data = example(engine, ALV)
    data["veiculo"].update(vehicle)
    if vehicle.get("tipo") == "microonibus":
        data["veiculo"].pop("portas", None)
        data["veiculo"].pop("poltronas_rodoviarias", None)
    return data


def registered(number: str, start: date, until: date, **extra: Any) -> PriorRecord:
    return historycases.registered(ALV, number, start, until, **extra)


# ------------------------------------------------------------------ class 3: validity
def test_own_term_when_the_vehicle_is_young(engine: Engine) -> None:
    prepared = engine.prepare(ALV, alvara(engine, ano_fabricacao=2018), ON)
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2031, 11, 28)  # 29/11 included (art. 8º)
    assert prepared.computed["limite_vigencia"] == "prazo"
    assert "prazo de 5 (cinco) anos" in prepared.computed["vigencia_explicacao"]


def test_a_2006_bus_ends_with_its_twentieth_year_not_in_2031(engine: Engine) -> None:
    data = alvara(engine, ano_fabricacao=2006)
    prepared = engine.prepare(ALV, data, ON)
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    assert prepared.computed["limite_vigencia"] == "idade_veiculo"
    text = pdf_text(engine.draft(ALV, data, ON).pdf)
    assert "até 31/12/2026" in text
    assert "2031" in text  # the 5-year term is named as the limit that did not bind
    assert "limite de 20 (vinte) anos de fabricação" in text
    assert "art. 10, I" in text


def test_microonibus_limit_is_ten_years(engine: Engine) -> None:
    prepared = engine.prepare(ALV, alvara(engine, tipo="microonibus", ano_fabricacao=2018), ON)
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2028, 12, 31)


def test_last_day_of_the_vehicles_age_and_the_day_after(engine: Engine) -> None:
    data = alvara(engine, ano_fabricacao=2006)
    data["inspecao_veicular"]["data_emissao"] = "2026-12-01"
    last = engine.prepare(ALV, data, date(2026, 12, 31))
    assert last.report.complete
    assert last.computed["valido_ate"] == date(2026, 12, 31)
    after = engine.prepare(ALV, data, date(2027, 1, 1))
    assert not after.report.complete
    assert at(after.report, "/veiculo/ano_fabricacao").status is Status.INVALID


# ------------------------------------------------------------------ class 8: art. 7º
def test_without_the_attestation_the_alvara_does_not_assert_article_7(engine: Engine) -> None:
    data = alvara(engine)
    del data["processo"]["conferencia_requerimento"]
    prepared = engine.prepare(ALV, data, ON)
    found = at(prepared.report, "/processo/conferencia_requerimento")
    assert found.status is Status.MISSING and "fretamento#art7" in found.basis
    assert "número do processo, sozinho" in found.message
    text = pdf_text(engine.draft(ALV, data, ON).pdf)
    assert "atendidos os requisitos do art. 7º" not in text
    complete = pdf_text(engine.draft(ALV, alvara(engine), ON).pdf)
    assert "atendidos os requisitos do art. 7º" in complete
    # the day, then who checked it: "por <nome>, <cargo> em <dia>" read as the cargo's date
    assert re.search(r"conferido completo em \d{2}/\d{2}/\d{4} por Maria Exemplo da Silva, "
                     r"Agente Administrativo, expede", complete), complete


def test_an_incomplete_or_misdated_attestation_is_invalid(engine: Engine) -> None:
    data = alvara(engine)
    data["processo"]["conferencia_requerimento"]["completo"] = False
    data["processo"]["conferencia_requerimento"]["pendencias"] = "certidão do INSS"
    found = at(engine.prepare(ALV, data, ON).report, "/processo/conferencia_requerimento/completo")
    assert found.status is Status.INVALID and "certidão do INSS" in found.message
    for day in ("2026-11-24", "2026-11-30"):  # before the filing; after the issue
        data = alvara(engine)
        data["processo"]["conferencia_requerimento"]["data"] = day
        report = engine.prepare(ALV, data, ON).report
        assert at(report, "/processo/conferencia_requerimento/data").status is Status.INVALID


# ------------------------------------------------------------------ class 8: renewal
# The renewed alvará is issued on 15/12/2026, after the conference of 10/12 (a signed act
# records only facts already happened: issue 10, class 2).
RENEWAL_ISSUE = date(2026, 12, 15)


def renewal(engine: Engine, filed: str, expiry: str = "2026-12-31") -> dict[str, Any]:
    data = alvara(engine)
    data["processo"].update(
        renovacao=True,
        alvara_anterior="0007/2021",
        vencimento_alvara_anterior=expiry,
        data_requerimento=filed,
    )
    data["processo"]["conferencia_requerimento"]["data"] = "2026-12-10"
    return data


def test_renewal_asked_on_the_thirtieth_day_before_is_timely(engine: Engine) -> None:
    prepared = engine.prepare(ALV, renewal(engine, "2026-12-01"), date(2026, 12, 15),
                              issued_on=RENEWAL_ISSUE)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["inicio_vigencia"] == date(2027, 1, 1)  # follows the old one
    assert prepared.computed["valido_ate"] == date(2031, 12, 31)  # 5 years from 01/01/2027
    text = pdf_text(engine.draft(ALV, renewal(engine, "2026-12-01"), date(2026, 12, 15)).pdf)
    assert "renovando o Alvará nº 0007/2021" in text


def test_renewal_asked_29_days_before_is_late(engine: Engine) -> None:
    report = engine.prepare(ALV, renewal(engine, "2026-12-02"), date(2026, 12, 15),
                            issued_on=RENEWAL_ISSUE).report
    found = at(report, "/processo/data_requerimento")
    assert found.status is Status.INVALID and "fretamento#art8" in found.basis
    assert "novo requerimento" in found.message


def test_renewal_needs_the_current_vencimento(engine: Engine) -> None:
    data = renewal(engine, "2026-12-01")
    del data["processo"]["vencimento_alvara_anterior"]
    report = engine.prepare(ALV, data, date(2026, 12, 15), issued_on=RENEWAL_ISSUE).report
    assert at(report, "/processo/vencimento_alvara_anterior").pending


def test_a_renewal_decided_four_years_before_the_vencimento_is_refused(
    engine: Engine,
) -> None:
    # art. 8º, "documentação atualizada ... na ocasião": within 90 days before the
    # vencimento (renovacao_janela.RENEWAL_WINDOW); 4 years early rests on stale papers.
    early = renewal(engine, "2026-12-01", expiry="2030-12-31")
    found = at(engine.prepare(ALV, early, date(2026, 12, 15),
                              issued_on=RENEWAL_ISSUE).report,
               "/processo/vencimento_alvara_anterior")
    assert found.status is Status.INVALID and "fretamento#art8" in found.basis
    assert "a partir de 02/10/2030" in found.message
    # the 90th day before the vencimento opens the window
    edge = renewal(engine, "2026-12-01", expiry="2027-03-15")
    report = engine.prepare(ALV, edge, date(2026, 12, 15), issued_on=RENEWAL_ISSUE).report
    assert report.complete, [i.message for i in report.pending]
    late = renewal(engine, "2026-12-01", expiry="2027-03-16")
    assert at(engine.prepare(ALV, late, date(2026, 12, 15), issued_on=RENEWAL_ISSUE)
              .report, "/processo/vencimento_alvara_anterior").status is Status.INVALID


def test_renewal_documents_must_be_valid_when_the_new_period_starts(engine: Engine) -> None:
    # expires 10/03/2027, the new period starts 11/03/2027; decided 15/12/2026
    data = renewal(engine, "2026-12-01", expiry="2027-03-10")
    data["inspecao_veicular"]["data_emissao"] = "2026-03-01"  # current today, not then
    report = engine.prepare(ALV, data, date(2026, 12, 15), issued_on=RENEWAL_ISSUE).report
    found = at(report, "/inspecao_veicular/data_emissao")
    assert found.status is Status.INVALID
    assert {"fretamento#art7_inc11", "fretamento#art8"} <= set(found.basis)
    assert "vale até 01/03/2027" in found.message and "11/03/2027" in found.message
    data["inspecao_veicular"]["data_emissao"] = "2026-03-11"
    conference = data["processo"]["conferencia_requerimento"]
    conference["validade_certidoes"] = "2027-03-10"
    report = engine.prepare(ALV, data, date(2026, 12, 15), issued_on=RENEWAL_ISSUE).report
    found = at(report, "/processo/conferencia_requerimento/validade_certidoes")
    assert found.status is Status.INVALID and "fretamento#art7_inc3" in found.basis
    conference["validade_certidoes"] = "2027-03-11"
    report = engine.prepare(ALV, data, date(2026, 12, 15), issued_on=RENEWAL_ISSUE).report
    assert report.complete, [i.message for i in report.pending]


def test_renewal_takes_the_registrys_vencimento(engine: Engine) -> None:
    history = FakeHistory(registered("0007/2021", date(2021, 12, 20), date(2026, 12, 20)))
    data = renewal(engine, "2026-11-20")
    prepared = engine.prepare(ALV, data, date(2026, 12, 15), history=history,
                              issued_on=RENEWAL_ISSUE)
    found = at(prepared.report, "/processo/vencimento_alvara_anterior")
    assert found.status is Status.INVALID and "20/12/2026" in found.message
    assert prepared.computed["inicio_vigencia"] == date(2026, 12, 21)


def test_renewal_of_a_cancelled_or_other_vehicles_alvara_is_invalid(engine: Engine) -> None:
    for record in (
        registered("0007/2021", date(2021, 12, 31), date(2026, 12, 31), cancelled=True),
        registered("0007/2021", date(2021, 12, 31), date(2026, 12, 31), plate="XYZ9A87"),
    ):
        report = engine.prepare(
            ALV, renewal(engine, "2026-12-01"), date(2026, 12, 15), history=FakeHistory(record),
            issued_on=RENEWAL_ISSUE,
        ).report
        assert at(report, "/processo/alvara_anterior").status is Status.INVALID


# ------------------------------------------------------------------ class 8: duplicate
def test_a_second_alvara_for_a_vehicle_in_force_is_refused(engine: Engine) -> None:
    history = FakeHistory(registered("0003/2026", date(2026, 1, 10), date(2031, 1, 10)))
    report = engine.prepare(ALV, alvara(engine), ON, history=history).report
    found = at(report, "/veiculo/placa")
    assert found.status is Status.INVALID and "0003/2026" in found.message
    replacing = alvara(engine)
    replacing["processo"]["substitui_alvara"] = "ALV-FRET nº 0003/2026"
    assert engine.prepare(ALV, replacing, ON, history=history).report.complete
    other = alvara(engine, placa="XYZ9A87")
    assert engine.prepare(ALV, other, ON, history=history).report.complete


# ------------------------------------------------------------------ the registry
@pytest.fixture
def issuer(engine: Engine, tmp_path: Path) -> Any:
    issuer = dev_issuer(engine, tmp_path / "dados")
    yield issuer
    issuer.close()


def test_registry_records_the_printed_validity_and_refuses_a_duplicate(
    issuer: Issuer, engine: Engine
) -> None:
    result = issuer.issue(ALV, alvara(engine, ano_fabricacao=2006), ON)
    assert result.record.valid_until == date(2026, 12, 31)
    assert "até 31/12/2026" in pdf_text(result.pdf)
    with pytest.raises(IncompleteError):
        issuer.issue(ALV, alvara(engine, ano_fabricacao=2006), ON)
    renewed = renewal(engine, "2026-12-01")
    renewed["veiculo"]["ano_fabricacao"] = 2011
    # typed bare, as staff often do: printed with its series, as the registry holds it
    renewed["processo"]["alvara_anterior"] = result.record.formatted
    # issued now: the servant's conference of the requerimento is a fact already happened
    renewed["processo"]["conferencia_requerimento"]["data"] = "2026-12-01"
    second = issuer.issue(ALV, renewed, date(2026, 12, 15))
    assert second.record.valid_until == date(2031, 12, 31)  # the 2011 bus's 20th year
    # the renewal is its own act: its title says so, and it names the alvará it renews
    text = pdf_text(second.pdf)
    assert "Alvará de Licença de Circulação – Renovação" in text
    assert f"renovando o Alvará ALV-FRET nº {result.record.formatted}" in text
    assert "Renovação" not in pdf_text(result.pdf).split("Fundamento legal")[0]


# ------------------------------------------------------------------ renewal requerimento
REN = "requerimento-renovacao-alvara-fretamento"


def renewal_request(engine: Engine, filed: str, year: int = 2018) -> dict[str, Any]:
    data = example(engine, REN)
    data["data_requerimento"] = filed
    data["veiculo"]["ano_fabricacao"] = year
    return data


def test_renewal_requerimento_on_the_thirtieth_day_is_complete(engine: Engine) -> None:
    prepared = engine.prepare(REN, renewal_request(engine, "2026-12-01"))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["inicio_vigencia"] == date(2027, 1, 1)
    assert prepared.computed["valido_ate"] == date(2031, 12, 31)
    text = pdf_text(engine.draft(REN, renewal_request(engine, "2026-12-01")).pdf)
    assert "vencimento em 31/12/2026" in text and "pedido tempestivo" in text


def test_renewal_requerimento_29_days_before_is_late(engine: Engine) -> None:
    found = at(engine.prepare(REN, renewal_request(engine, "2026-12-02")).report,
               "/data_requerimento")
    assert found.status is Status.INVALID and "novo requerimento" in found.message


def test_a_bus_past_its_age_on_the_new_start_cannot_be_renewed(engine: Engine) -> None:
    prepared = engine.prepare(REN, renewal_request(engine, "2026-11-20", year=2006))
    found = at(prepared.report, "/veiculo/ano_fabricacao")
    assert found.status is Status.INVALID and "01/01/2027" in found.message


def test_renewal_requerimento_needs_each_updated_document(engine: Engine) -> None:
    data = renewal_request(engine, "2026-11-20")
    del data["documentos"]["certidao_fgts"]
    report = engine.prepare(REN, data).report
    assert at(report, "/documentos/certidao_fgts").status is Status.MISSING


def test_renewal_requerimento_reads_the_registry(engine: Engine) -> None:
    history = FakeHistory(registered("0007/2021", date(2021, 12, 1), date(2026, 12, 1)))
    prepared = engine.prepare(REN, renewal_request(engine, "2026-11-20"), history=history)
    assert at(prepared.report, "/alvara_anterior/valido_ate").status is Status.INVALID
    late = at(prepared.report, "/data_requerimento")  # 30 days before 01/12 is 01/11
    assert late.status is Status.INVALID

"""The school-transport licences never outlive what the law allows, and check the acts
they rest on in the registry (issue 10, classes 3 and 8): Lei nº 4.515/2007, art. 1º,
§ 1º (microônibus), arts. 4º and 5º (Licença Temporária), art. 13 (renewal), art. 17,
§ 2º (publicidade) and art. 20 (Licença Especial)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from formcases import at, example, pdf_text
from historycases import FakeHistory, alvara_on_file, registered

from lavra.checking.report import Report, Status
from lavra.cli.demo import shift_dates
from lavra.documents import Engine

ALV = "alvara-transporte-escolar"
LTE = "licenca-temporaria-escolar"
LEE = "licenca-especial-escolar"
APE = "autorizacao-publicidade-escolar"
TRO = "requerimento-troca-veiculo-escolar"
INS = "requerimento-inscricao-escolar"
ISSUED = date(2026, 12, 31)


def report(engine: Engine, form: str, data: dict[str, Any], history: Any = None) -> Report:
    return engine.prepare(form, data, issued_on=ISSUED, history=history).report


def alvara(until: date, start: date = date(2026, 1, 5), **extra: Any) -> FakeHistory:
    return FakeHistory(registered(ALV, "0007/2026", start, until, "EXE1A23", **extra))


# ------------------------------------------------------------ the act it rests on
@pytest.mark.parametrize("form", [LTE, APE])
def test_the_alvara_must_be_in_the_registry(engine: Engine, form: str) -> None:
    data = example(engine, form)
    for history in (None, FakeHistory()):
        found = at(report(engine, form, data, history), "/alvara/numero")
        assert found.status is Status.MISSING and "não consta do registro" in found.message
    assert report(engine, form, data, alvara_on_file(data)).complete


@pytest.mark.parametrize("form", [LTE, APE])
def test_a_cancelled_expired_or_other_vehicles_alvara_is_refused(engine: Engine, form: str) -> None:
    data = example(engine, form)
    on = date.fromisoformat(data["data_expedicao"])
    for history in (
        alvara(date(2026, 12, 31), cancelled=True, cancel_reason="cassado"),
        alvara(on - date.resolution),  # expired the day before the issue
        FakeHistory(registered(ALV, "0007/2026", date(2026, 1, 5), date(2026, 12, 31), "XYZ9A87")),
    ):
        found = at(report(engine, form, data, history), "/alvara/numero")
        assert found.status is Status.INVALID, found


@pytest.mark.parametrize("form", [LTE, APE])
def test_the_registrys_validity_wins_over_the_stated_one(engine: Engine, form: str) -> None:
    data = example(engine, form)  # states 31/12/2026
    prepared = engine.prepare(form, data, issued_on=ISSUED, history=alvara(date(2026, 3, 31)))
    found = at(prepared.report, "/alvara/valido_ate")
    assert found.status is Status.INVALID and "31/03/2026" in found.message
    assert prepared.computed["valido_ate"] == date(2026, 3, 31)


def test_vehicle_licence_ends_with_the_alvara(engine: Engine) -> None:
    data = example(engine, LTE)
    data["alvara"]["valido_ate"] = "2026-03-31"
    prepared = engine.prepare(LTE, data, issued_on=ISSUED, history=alvara_on_file(data))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2026, 3, 31)  # not 06/04 (20 days)
    assert "vencimento do alvará" in prepared.computed["vigencia_explicacao"]


@pytest.mark.parametrize(("issued", "until"), [("2026-12-20", date(2026, 12, 31)),
                                               ("2026-12-31", date(2026, 12, 31))])
def test_a_december_licence_stops_on_31_december(engine: Engine, issued: str, until: date) -> None:
    base = example(engine, LTE)
    days = (date.fromisoformat(issued) - date.fromisoformat(base["data_expedicao"])).days
    data = shift_dates(base, days)
    data["alvara"]["valido_ate"] = "2026-12-31"
    prepared = engine.prepare(LTE, data, issued_on=ISSUED, history=alvara_on_file(data))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == until
    text = pdf_text(engine.draft(LTE, data, history=alvara_on_file(data)).pdf)
    start = date.fromisoformat(issued).strftime("%d/%m/%Y")
    assert f"válida de {start} a 31/12/2026" in text


def test_publicidade_lasts_to_the_registered_alvara(engine: Engine) -> None:
    data = example(engine, APE)
    prepared = engine.prepare(APE, data, issued_on=ISSUED, history=alvara_on_file(data))
    assert prepared.report.complete
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)


# ------------------------------------------------------------ Licença Especial
def test_especial_ends_with_the_vehicles_tenth_year(engine: Engine) -> None:
    data = example(engine, LEE)
    data["veiculo"]["ano_fabricacao"] = 2016
    data["documentos"]["alvara_origem"]["validade"] = "2027-06-30"
    prepared = engine.prepare(LEE, data, issued_on=ISSUED)
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    assert prepared.computed["valido_ate"] == date(2026, 12, 31)
    assert "limite de 10 (dez) anos" in prepared.computed["vigencia_explicacao"]
    young = example(engine, LEE)
    assert engine.prepare(LEE, young, issued_on=ISSUED).computed["valido_ate"] == date(
        2026, 12, 31
    )  # the origin alvará's vencimento


# ------------------------------------------------------------ one alvará per vehicle
def test_a_second_alvara_for_the_vehicle_is_refused_unless_it_renews(engine: Engine) -> None:
    data = example(engine, ALV)
    history = alvara(date(2026, 12, 31), start=date(2026, 1, 2))
    found = at(report(engine, ALV, data, history), "/veiculo/placa")
    assert found.status is Status.INVALID and "0007/2026" in found.message
    assert report(engine, ALV, data, FakeHistory()).complete


def test_renewal_checks_the_renewed_alvara_in_the_registry(engine: Engine) -> None:
    data = example(engine, ALV)
    data["modalidade"] = "renovacao"
    data.pop("selecao", None)
    data["alvara_anterior"] = {"numero": "ALV-ESC 0007/2025", "valido_ate": "2026-12-31"}
    data["processo"]["data_requerimento"] = "2026-12-10"
    data["processo"]["data_pagamento_taxa"] = "2026-12-11"
    data["data_expedicao"] = "2026-12-15"
    good = FakeHistory(registered(ALV, "0007/2025", date(2026, 1, 2), date(2026, 12, 31),
                                  "EXE1A23"))
    prepared = engine.prepare(ALV, data, issued_on=ISSUED, history=good)
    assert not [i for i in prepared.report.pending if i.field.startswith("/alvara_anterior")]
    assert not [i for i in prepared.report.pending if i.field == "/veiculo/placa"]
    cancelled = FakeHistory(registered(ALV, "0007/2025", date(2026, 1, 2), date(2026, 12, 31),
                                       "EXE1A23", cancelled=True))
    bad = engine.prepare(ALV, data, issued_on=ISSUED, history=cancelled).report
    assert at(bad, "/alvara_anterior/numero").status is Status.INVALID


# ------------------------------------------------------------ microônibus (art. 1º, § 1º)
@pytest.mark.parametrize(
    ("form", "vehicle"),
    [(ALV, "veiculo"), (LTE, "veiculo_substituto"), (LEE, "veiculo"), (TRO, "veiculo_novo"),
     (INS, "veiculo")],
)
def test_school_transport_only_in_a_microonibus(engine: Engine, form: str, vehicle: str) -> None:
    data = example(engine, form)
    data[vehicle]["tipo"] = "outro"
    found = at(report(engine, form, data), f"/{vehicle}/tipo")
    assert found.status is Status.INVALID and "microônibus" in found.message
    del data[vehicle]["tipo"]
    assert at(report(engine, form, data), f"/{vehicle}/tipo").status is Status.MISSING

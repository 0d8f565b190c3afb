"""The autos a cassação (art. 22, II, Lei nº 4.419/2006) and its defence notice cite are
read from the registry (issue 22, § 3): each of lavra's AIF-FRET series must be an auto
the registry holds, not cancelled, of the company, not after the act; the decision prints
the registry's date of the infraction and total of the fines, and refuses a typed copy
that differs, naming both. Over a fresh SQLite registry signing on a fixed clock; the
typed expiry of art. 22, III over SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest
from formcases import example
from issuers import clocked_issuer, state_registry
from test_licensing_state import alvara_fretamento

from lavra.checking.computations import PriorRecord
from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.issuing import Issuer, RegistryHistory
from lavra.registry.records import LOCAL_TZ
from lavra.registry.store import Registry

AIF = "auto-infracao-fretamento"
CAS = "decisao-cassacao-fretamento"
NOT_CAS = "notificacao-defesa-cassacao"
INFRACTION = date(2026, 3, 2)  # the auto example's date
DECIDED = date(2026, 4, 6)  # the cassação example's date
AUTOS = "/hipoteses/multas_nao_recolhidas/autos/0"


@pytest.fixture(scope="module")
def issuer(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Issuer]:
    """Two autos of the example company drawn up on INFRACTION; the second cancelled."""
    now = datetime(2026, 3, 2, 15, tzinfo=LOCAL_TZ)
    issuer = clocked_issuer(engine, tmp_path_factory.mktemp("cas") / "dados", now)
    try:
        for _ in range(2):
            issuer.issue(AIF, example(engine, AIF), example_values=True)
        issuer.cancel("0002/2026", "Lavrado em duplicidade.", "Chefia", series="AIF-FRET")
        yield issuer
    finally:
        issuer.close()


def autos(issuer: Issuer) -> tuple[PriorRecord, PriorRecord]:
    first, second = sorted(issuer.history.by_holder("65563842000105", AIF),
                           key=lambda r: r.number)
    return first, second


def cassation(engine: Engine, issuer: Issuer, *, number: str, typed: date = INFRACTION,
              valor: str | None = None, cnpj: str | None = None,
              decided: date = DECIDED) -> tuple[Mapping[str, Any], dict[Item, Any]]:
    data = example(engine, CAS)
    auto = {"numero": number, "data_infracao": typed.isoformat(), "valor": valor or "0.00"}
    if valor is None:
        auto["valor"] = registry_total(engine, issuer)
    data["hipoteses"]["multas_nao_recolhidas"]["autos"] = [auto]
    data["decisao"]["data"] = decided.isoformat()
    if cnpj is not None:
        data["empresa"]["cnpj"] = cnpj
    prepared = engine.prepare(CAS, data, issued_on=decided, history=issuer.history,
                              example_values=True)
    return prepared.computed, dict.fromkeys(
        i for i in prepared.report.items if i.field.startswith(AUTOS) and i.pending)


def registry_total(engine: Engine, issuer: Issuer) -> str:
    first = autos(issuer)[0]
    total = engine.prepare(AIF, dict(first.data), issued_on=INFRACTION,
                           example_values=True).computed["total"]
    return f"{Decimal(str(total)):.2f}"


def test_the_registry_auto_prints_its_own_date_and_amount(engine: Engine,
                                                          issuer: Issuer) -> None:
    first, _ = autos(issuer)
    computed, refused = cassation(engine, issuer, number=first.printed)
    assert not refused, [i.message for i in refused]
    (row,) = computed["autos"]
    assert row["data_infracao"] == INFRACTION
    assert row["valor"] == registry_total(engine, issuer)


def test_a_typed_date_other_than_the_registrys_is_refused(engine: Engine,
                                                          issuer: Issuer) -> None:
    first, _ = autos(issuer)
    computed, refused = cassation(engine, issuer, number=first.printed, typed=date(2026, 3, 1))
    (item,) = refused
    assert item.status is Status.INVALID and item.field == f"{AUTOS}/data_infracao"
    assert "01/03/2026" in item.message and "02/03/2026" in item.message
    assert "fretamento#art22_inc2" in item.basis
    assert computed["autos"][0]["data_infracao"] == INFRACTION  # never the typed copy


def test_a_typed_amount_other_than_the_registrys_is_refused(engine: Engine,
                                                            issuer: Issuer) -> None:
    first, _ = autos(issuer)
    computed, refused = cassation(engine, issuer, number=first.printed, valor="1.00")
    (item,) = refused
    assert item.field == f"{AUTOS}/valor" and "R$ 1,00" in item.message
    assert computed["autos"][0]["valor"] == registry_total(engine, issuer)


@pytest.mark.parametrize(("case", "expected"), [
    ("cancelled", "foi cancelado (Lavrado em duplicidade.)"),
    ("other company", "(outro CNPJ), não contra a empresa a que se dirige a cassação"),
    ("later", "posterior à data do ato (01/03/2026)"),
    ("absent", "não consta do registro: o número é da série AIF-FRET"),
])
def test_an_auto_the_cassation_cannot_rest_on_is_refused(
    engine: Engine, issuer: Issuer, case: str, expected: str
) -> None:
    first, second = autos(issuer)
    number = {"cancelled": second.printed, "absent": "AIF-FRET nº 0099/2026"}.get(
        case, first.printed)
    cnpj = "11.222.333/0001-81" if case == "other company" else None
    decided = date(2026, 3, 1) if case == "later" else DECIDED
    _, refused = cassation(engine, issuer, number=number, cnpj=cnpj, decided=decided)
    found = [i for i in refused if i.field == f"{AUTOS}/numero"]
    assert found and found[0].status is Status.INVALID, [i.message for i in refused]
    assert expected in found[0].message


def notice_items(engine: Engine, issuer: Issuer, facts: str) -> list[Item]:
    data = example(engine, NOT_CAS)
    data["acusacao"]["fatos"] = facts
    data["data"] = DECIDED.isoformat()
    report = engine.prepare(NOT_CAS, data, issued_on=DECIDED, history=issuer.history).report
    return [i for i in report.items if i.field == "/acusacao/fatos" and i.pending]


def test_the_defence_notice_facts_cite_autos_the_registry_holds(
    engine: Engine, issuer: Issuer
) -> None:
    first, second = autos(issuer)
    said = "As multas impostas pelo Auto de Infração {} não foram recolhidas no prazo."
    assert notice_items(engine, issuer, said.format(first.printed)) == []
    assert notice_items(engine, issuer, said.format("nº 12/2026 (em papel)")) == []
    (absent,) = notice_items(engine, issuer, said.format("AIF-FRET 99/2026"))
    assert absent.status is Status.INVALID
    assert "AIF-FRET nº 0099/2026 não consta do registro" in absent.message
    assert absent.basis == ("fretamento#art22_inc2",)
    (cancelled,) = notice_items(engine, issuer, said.format(second.printed))
    assert "foi cancelado" in cancelled.message


# ------------------------------------------------- the other acts that cite an auto


def pending_at(engine: Engine, issuer: Issuer, form: str, data: dict[str, Any],
               on: date, prefix: str) -> list[Item]:
    report = engine.prepare(form, data, issued_on=on, history=issuer.history,
                            example_values=True).report
    return [i for i in report.items if i.field.startswith(prefix) and i.pending]


def test_the_appeal_decision_takes_the_appealed_autos_date_from_the_registry(
    engine: Engine, issuer: Issuer
) -> None:
    first, _ = autos(issuer)
    data = example(engine, "decisao-recurso-secretario")
    data["ato_recorrido"]["numero"] = first.printed
    decided = date.fromisoformat(data["decisao"]["data"])
    assert pending_at(engine, issuer, "decisao-recurso-secretario", data, decided,
                      "/ato_recorrido/data") == []
    data["ato_recorrido"]["data"] = "2026-02-27"
    (item,) = pending_at(engine, issuer, "decisao-recurso-secretario", data, decided,
                         "/ato_recorrido/data")
    assert item.status is Status.INVALID and item.field == "/ato_recorrido/data"
    assert "27/02/2026" in item.message and "02/03/2026" in item.message
    assert item.basis == ("fretamento#art23",)


def test_the_impediment_joins_the_registry_auto_its_date_and_infractions(
    engine: Engine, issuer: Issuer
) -> None:
    first, second = autos(issuer)
    form = "termo-impedimento-fretamento"
    data = example(engine, form)
    data["auto"] = {"numero": first.printed, "data": INFRACTION.isoformat()}
    data["infracoes"] = ["fretamento#art15_inc1"]
    assert pending_at(engine, issuer, form, data, INFRACTION, "/auto") == []
    assert pending_at(engine, issuer, form, data, INFRACTION, "/infracoes") == []
    data["infracoes"] = ["fretamento#art16_inc2"]  # not an infraction the auto records
    (item,) = pending_at(engine, issuer, form, data, INFRACTION, "/infracoes/")
    assert "art. 16, II" in item.message and first.printed in item.message
    assert item.basis == ("fretamento#art21",)
    data["auto"]["numero"] = second.printed
    (cancelled,) = pending_at(engine, issuer, form, data, INFRACTION, "/auto/numero")
    assert "foi cancelado" in cancelled.message


# ------------------------------------------------- art. 22, III: the alvará's validity


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


def test_the_typed_expiry_of_art22_iii_must_be_the_registrys(
    engine: Engine, registry: Registry
) -> None:
    alvara = alvara_fretamento(registry, on=date(2021, 4, 1), until=date(2026, 3, 31))
    data = example(engine, CAS)
    data["alvaras"] = [{"numero": alvara.printed, "placa": "ABC1D23"}]
    data["hipoteses"] = {"nao_renovacao": {
        "vencimento": "2026-03-31",
        "exigencia": "Notificação NOT-FRET nº 0002/2026, de 02/02/2026."}}

    def refused() -> list[Item]:
        report = engine.prepare(CAS, data, issued_on=DECIDED, history=RegistryHistory(registry),
                                example_values=True).report
        return [i for i in report.pending if i.field == "/hipoteses/nao_renovacao/vencimento"]

    assert refused() == []
    data["hipoteses"]["nao_renovacao"]["vencimento"] = "2026-02-28"
    (item,) = refused()
    assert item.status is Status.INVALID and item.basis == ("fretamento#art22_inc3",)
    assert item.message == (
        "O vencimento informado (28/02/2026) difere do registrado para o alvará "
        f"({alvara.printed}: 31/03/2026): a decisão deve apoiar-se na validade do "
        "registro; corrija a data informada (art. 22, III).")

"""The licensing state's guards in the completeness report: what the registry would
refuse when it records an act (a barred holder, a vehicle or person holding a licence
in force, an act resting on a licence it lacks or that ended) is an item of the draft,
citing its article, before anything is numbered. Through ``Engine.prepare`` with the
registry as history, over acts recorded with the pack's effects."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from test_licensing_state import act, alvara_fretamento, cassacao, example

from lavra.checking.content import Content
from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.registry.database import database_url
from lavra.registry.store import Registry, open_registry
from lavra_americana import pacote


@pytest.fixture(scope="module")
def engine(pack_dir: Path) -> Engine:
    return Engine(Content(pack_dir))


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    opened = open_registry(database_url(tmp_path / "dados"))
    opened.use_effects(pacote().effects)
    opened.ensure_state()
    yield opened
    opened.close()


def items_at(engine: Engine, registry: Registry, form: str, data: dict[str, Any], on: date,
             field: str) -> list[Item]:
    prepared = engine.prepare(form, data, on, history=RegistryHistory(registry))
    return [i for i in prepared.report.items if i.field == field and i.status != Status.MET]


def test_a_company_barred_by_a_cassacao_gets_no_new_alvara(
    engine: Engine, registry: Registry
) -> None:
    old = alvara_fretamento(registry, on=date(2026, 3, 2))
    cas = cassacao(registry, old, on=date(2026, 4, 20))
    data = example("alvara-fretamento")
    [item] = items_at(engine, registry, "alvara-fretamento", data, date(2026, 12, 1),
                      "/empresa/cnpj")
    assert item.status == Status.INVALID
    assert cas.printed in item.message
    assert "20/04/2027" in item.message
    assert "art. 22, parágrafo único" in item.message
    assert "fretamento#art22_par1u" in item.basis
    # The day after the bar, nothing stands in the way.
    assert items_at(engine, registry, "alvara-fretamento", data, date(2027, 4, 21),
                    "/empresa/cnpj") == []


def alvara_escolar(registry: Registry, *, on: date = date(2026, 3, 2)) -> Any:
    return act(registry, "ALV-ESC", "alvara-transporte-escolar",
               example("alvara-transporte-escolar"), on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-12-31"})


def selo_on(number: str) -> dict[str, Any]:
    data = example("selo-identificacao")
    data["alvara"] = {"numero": number, "valido_ate": "2026-12-31"}
    return data


def test_an_act_resting_on_a_number_of_lavra_the_registry_lacks_is_refused(
    engine: Engine, registry: Registry
) -> None:
    alvara_escolar(registry)
    [item] = items_at(engine, registry, "selo-identificacao", selo_on("ALV-ESC nº 0099/2026"),
                      date(2026, 3, 10), "/alvara/numero")
    assert item.status == Status.INVALID
    assert "ALV-ESC nº 0099/2026 não consta do registro" in item.message
    assert "art. 3º, § 2º" in item.message


def test_an_act_resting_on_a_revoked_alvara_is_refused(
    engine: Engine, registry: Registry
) -> None:
    alvara = alvara_escolar(registry)
    revoke = example("decisao-revogacao-alvara")
    revoke["alvara"] = {**revoke.get("alvara", {}), "numero": alvara.printed}
    rev = act(registry, "REV-ESC", "decisao-revogacao-alvara", revoke, on=date(2026, 5, 4))
    [item] = items_at(engine, registry, "selo-identificacao", selo_on(alvara.printed),
                      date(2026, 6, 1), "/alvara/numero")
    assert item.status == Status.INVALID
    assert f"{alvara.printed} não está em vigor: revogado em 04/05/2026 pelo {rev.printed}" \
        in item.message
    assert "art. 3º, § 2º" in item.message


def test_a_person_holding_a_school_licence_gets_no_second_one(
    engine: Engine, registry: Registry
) -> None:
    held = alvara_escolar(registry)
    data = example("alvara-transporte-escolar")
    data["veiculo"] = {**data["veiculo"], "placa": "OUT2B34", "renavam": "00000000191"}
    [item] = items_at(engine, registry, "alvara-transporte-escolar", data, date(2026, 6, 1),
                      "/titular/cpf")
    assert item.status == Status.INVALID
    assert held.printed in item.message
    assert "art. 14" in item.message


def test_a_vehicle_holding_an_operating_alvara_gets_no_other(
    engine: Engine, registry: Registry
) -> None:
    held = alvara_fretamento(registry)
    data = example("alvara-transporte-escolar")
    data["veiculo"] = {**data["veiculo"], "placa": "ABC1D23"}
    [item] = items_at(engine, registry, "alvara-transporte-escolar", data, date(2026, 6, 1),
                      "/veiculo/placa")
    assert item.status == Status.INVALID
    assert held.printed in item.message
    assert "art. 3º" in item.message

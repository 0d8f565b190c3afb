"""What a renewal plan reads ahead besides :mod:`tests.test_plan_reads`' lookups answers
as the registry's own query (:func:`lavra.batch.plan_reads.read_ahead`): the name each
holder was last registered under (:meth:`lavra.registry.licensing.RegistryState.
party_name`) and, for each act renewed, what the dates of the checks read of it (its
date and the last change on the licence it granted, :mod:`lavra.registry.rests_on_dates`),
over the imported sample (transfers, a cassação), on SQLite and PostgreSQL: read ahead,
the registry is not asked at all; a number or a party not read is asked as before.
Every date is passed explicitly."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from issuers import state_registry
from sqlalchemy import event, select
from test_cadastro_import import load

from lavra.batch.plan_history import PlanHistory
from lavra.batch.plan_reads import read_ahead
from lavra.issuing import RegistryHistory
from lavra.registry.effects import VehicleRef
from lavra.registry.rests_on_dates import _issued, _key
from lavra.registry.store import Registry
from lavra.registry.tables import LicenceRow, PartyRow, VehicleRow

ON = date(2026, 4, 6)
UNKNOWN = "11222333000181"  # a valid CNPJ the sample does not hold
NOT_ISSUED = "ALV-FRET nº 9999/2024"


@dataclass(frozen=True)
class Named:
    """An effect naming a vehicle (what identities reads of any effect)."""

    vehicle: VehicleRef
    citation: str = "fretamento#art22"


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    for opened in state_registry(registry_url):
        load(opened)
        yield opened


def _answers(registry: Registry, docs: list[str], printed: list[str]) -> list[Any]:
    with registry.read_session() as session:
        return [*(registry.party_name(doc) for doc in docs),
                *(_issued(registry, session, key) for key in map(_key, printed)
                  if key is not None)]


def _vehicles(history: RegistryHistory, refs: list[VehicleRef]) -> list[Any]:
    return [history._identity_items([Named(ref)], {}) for ref in refs]  # type: ignore[list-item]


def test_names_dates_and_vehicles_read_ahead_answer_as_the_registry(
        registry: Registry) -> None:
    with registry.engine.connect() as connection:
        printed = list(connection.scalars(select(LicenceRow.printed).order_by(LicenceRow.id)))
        docs = sorted(connection.scalars(select(PartyRow.doc)))
        vehicles = list(connection.execute(select(VehicleRow.placa, VehicleRow.renavam)
                                           .order_by(VehicleRow.id)))
    known = [(placa, renavam) for placa, renavam in vehicles if renavam]
    bare = [placa for placa, renavam in vehicles if not renavam]
    assert len(printed) >= 5 and docs and known and bare
    # its own RENAVAM: no conflict, read ahead
    agree = [VehicleRef(placa, renavam) for placa, renavam in known]
    # another vehicle's RENAVAM, another RENAVAM than its own: the registry is asked
    other = [VehicleRef(bare[0], known[0][1]), VehicleRef(known[0][0], "99")]
    sent: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    with registry.read_scope():
        reads = read_ahead(registry, ON, licences=[*printed, NOT_ISSUED],
                           holders=[*docs, UNKNOWN, "não é CNPJ"],
                           placas=[placa for placa, _ in vehicles])
        history = PlanHistory(registry)
        with history.reading_ahead(reads):
            event.listen(registry.engine, "before_cursor_execute", count)
            try:
                ahead = _answers(registry, [*docs, UNKNOWN], [*printed, NOT_ISSUED])
                ahead_vehicles = _vehicles(history, agree)
            finally:
                event.remove(registry.engine, "before_cursor_execute", count)
            assert sent == []  # every answer read ahead
            ahead_vehicles += _vehicles(history, other)
    with registry.read_scope():
        assert ahead_vehicles == _vehicles(RegistryHistory(registry), [*agree, *other])
    assert ahead_vehicles[:len(agree)] == [[]] * len(agree)
    [elsewhere], [changed] = ahead_vehicles[len(agree):]  # the conflicts, as recorded
    assert elsewhere.message.startswith(
        f"O RENAVAM {known[0][1]} consta do cadastro no veículo de placa {known[0][0]}")
    assert changed.message.startswith(f"O veículo de placa {known[0][0]} consta do cadastro")
    with registry.read_scope():  # a scope of its own: each lookup asks the registry
        event.listen(registry.engine, "before_cursor_execute", count)
        try:
            expected = _answers(registry, [*docs, UNKNOWN], [*printed, NOT_ISSUED])
        finally:
            event.remove(registry.engine, "before_cursor_execute", count)
    assert len([s for s in sent if s.startswith("SELECT")]) == len(expected)  # one a lookup
    assert ahead == expected
    assert expected[len(docs)] is None and expected[-1] is None  # unknown: none
    assert all(expected[:len(docs)])  # every party of the sample has its name
    assert any(found.last for found in expected[len(docs) + 1:-1])  # a transfer, a cassação

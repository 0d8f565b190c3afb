"""Identities and the one school licence per person hold under concurrency (issue 22,
item 6): two clerks recording two new plates with one RENAVAM, or granting two school
licences to one person, at the same moment: exactly one wins, the other gets the pt-BR
refusal naming what holds the RENAVAM or the licence, and nothing of it is written.
SQLite and PostgreSQL, the interleaving forced (:func:`test_licensing_races.race`).

On PostgreSQL the RENAVAM is decided by the unique index ``uq_vehicles_renavam``: the
second's check reads the state before the first commits and finds nothing; its insert
waits on the first's and is refused once the first commits. Without the index both
commit (one RENAVAM on two plates)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import create_engine, text
from test_licensing_races import race
from test_licensing_races import waiting as waiting
from test_licensing_state import act, alvara_fretamento, example
from test_licensing_state import registry as registry
from test_licensing_unique import RENAVAM, alvara_escolar

from lavra.errors import LavraError
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry

SHARED = RENAVAM["ABC1D23"]  # the ALV-FRET example's vehicle


def particular(registry: Registry) -> IssuedRecord:
    """An ALV-PART for a new plate, typed with the RENAVAM of the ALV-FRET's vehicle."""
    data = example("alvara-servico-particular-fretamento")
    data["veiculo"]["renavam"] = SHARED
    return act(registry, "ALV-PART", "alvara-servico-particular-fretamento", data,
               on=date(2026, 4, 1), computed={"valido_ate": "2027-03-31"})


def plates_of(registry_url: str, renavam: str) -> list[str]:
    engine = create_engine(registry_url)
    try:
        with engine.connect() as connection:
            return [row[0] for row in connection.execute(
                text("SELECT placa FROM vehicles WHERE renavam = :r ORDER BY placa"),
                {"r": renavam})]
    finally:
        engine.dispose()


def test_two_new_plates_with_one_renavam_at_once_one_wins(
    registry: Registry, registry_url: str, monkeypatch: pytest.MonkeyPatch,
    waiting: Callable[[], bool],
) -> None:
    first, second = race(monkeypatch, waiting, lambda: alvara_fretamento(registry),
                         lambda: particular(registry))
    assert isinstance(first, IssuedRecord), first
    assert isinstance(second, LavraError), second
    assert second.message == (
        f"O RENAVAM {SHARED} consta do cadastro no veículo de placa ABC1D23, não na placa "
        "PAR1T23: confira a placa e o RENAVAM (um veículo tem um só RENAVAM).")
    assert "INSERT" not in second.message and "vehicles" not in second.message
    assert plates_of(registry_url, SHARED) == ["ABC1D23"]
    assert registry.next_number("ALV-PART", 2026) == 1  # nothing numbered nor recorded
    assert registry.licence_views(placa="PAR1T23") == ()
    assert registry.rebuild_state(apply=False).same


def test_two_school_alvaras_to_one_person_at_once_one_wins(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """Escolar art. 14, one series: the second waits on the series' counter."""
    first, second = race(monkeypatch, waiting, lambda: alvara_escolar(registry),
                         lambda: alvara_escolar(registry, placa="EXE9Z99"))
    assert isinstance(first, IssuedRecord), first
    assert isinstance(second, LavraError), second
    assert f"já é titular de licença em vigor: {first.printed}" in second.message
    assert "art. 14" in second.message
    assert registry.next_number("ALV-ESC", 2026) == 2  # the loser's number not taken
    assert [r.id for r in registry.licences_in_force(
        "alvara-transporte-escolar", date(2026, 6, 1))] == [first.id]
    assert registry.rebuild_state(apply=False).same


def transfer_to_maria(registry: Registry) -> IssuedRecord:
    """José's ALV-ESC 0001/2026 transferred to Maria (escolar art. 15)."""
    data = example("termo-transferencia-licenca")
    data["licenca"]["numero"] = "ALV-ESC 0001/2026"
    data["veiculo"].update(placa="EXE1A23", renavam=RENAVAM["EXE1A23"])
    return act(registry, "TRF-ESC", "termo-transferencia-licenca", data,
               on=date(2026, 11, 27))


def test_a_school_alvara_and_a_transfer_to_the_same_person_at_once_one_wins(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """Two series: nothing but the unique index ``uq_licences_holder_in_force`` stands
    between them on PostgreSQL (the transfer's check reads the state before the grant
    commits)."""
    alvara_escolar(registry)  # José's, ALV-ESC 0001/2026
    first, second = race(
        monkeypatch, waiting,
        lambda: alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35",
                               cnh="29171500766"),  # Maria's
        lambda: transfer_to_maria(registry))
    assert isinstance(first, IssuedRecord), first
    assert isinstance(second, LavraError), second
    assert f"já é titular de licença em vigor: {first.printed}" in second.message
    assert registry.next_number("TRF-ESC", 2026) == 1  # nothing numbered nor recorded
    held = registry.licences_in_force("alvara-transporte-escolar", date(2026, 12, 1),
                                      holder="111.444.777-35")
    assert [r.id for r in held] == [first.id]
    assert registry.rebuild_state(apply=False).same

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

import logging
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from issuers import state_registry
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError
from test_licensing_races import race
from test_licensing_races import waiting as waiting
from test_licensing_state import act, alvara_fretamento, example
from test_licensing_state import registry as registry
from test_licensing_unique import RENAVAM, alvara_escolar

from lavra.errors import LavraError
from lavra.registry import guards, state
from lavra.registry.database import alembic_config, database_url
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_registry

SHARED = RENAVAM["ABC1D23"]  # the ALV-FRET example's vehicle


def particular(registry: Registry) -> IssuedRecord:
    """An ALV-PART for a new plate, typed with the RENAVAM of the ALV-FRET's vehicle, to
    another company (the example's CNPJ is the ALV-FRET's: its row would serialise them)."""
    data = example("alvara-servico-particular-fretamento")
    data["empresa"]["cnpj"] = "11.222.333/0001-81"
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


def particular_on_abc(registry: Registry) -> IssuedRecord:
    """An ALV-PART of another company for the ALV-FRET's vehicle ABC1D23."""
    data = example("alvara-servico-particular-fretamento")
    data["empresa"]["cnpj"] = "11.222.333/0001-81"
    data["veiculo"].update(placa="ABC1D23", renavam=SHARED)
    return act(registry, "ALV-PART", "alvara-servico-particular-fretamento", data,
               on=date(2026, 4, 1), computed={"valido_ate": "2027-03-31"})


def test_two_operating_alvaras_of_one_vehicle_at_once_the_loser_names_the_winner(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """Fretamento arts. 8 and 12, two series and two companies: on PostgreSQL nothing
    serialises them (the vehicle is known, from an ALV-FRET since cancelled) before
    ``uq_licences_vehicle_in_force``, whose refusal is read again into the words of the
    check: the act in force, its term and the articles (the same as a later attempt)."""
    cancelled = alvara_fretamento(registry)
    registry.cancel(cancelled.series, cancelled.year, cancelled.number, reason="erro",
                    by="Chefia")
    reread: list[str] = []  # the index's refusals read again (guards.insert_licence)
    original = guards.grant_refusals
    monkeypatch.setattr(guards, "grant_refusals", lambda *args: (
        reread.append("index"), original(*args))[1])
    first, second = race(monkeypatch, waiting, lambda: alvara_fretamento(registry),
                         lambda: particular_on_abc(registry))
    assert isinstance(first, IssuedRecord), first
    assert isinstance(second, LavraError), second
    assert bool(reread) == (registry.dialect == "postgresql")  # SQLite: BEGIN serialises
    assert (f"O veículo ABC1D23 já tem licença em vigor: {first.printed}, válida até "
            "01/03/2031. O ALV-PART nº 0001/2026 não pode ser expedido enquanto ela "
            "vigorar") in second.message
    assert "Lei nº 4.419/2006" in second.message and "Conflito" not in second.message
    monkeypatch.undo()
    with pytest.raises(LavraError) as later:
        particular_on_abc(registry)
    assert later.value.message == second.message
    assert registry.next_number("ALV-PART", 2026) == 1  # nothing numbered nor recorded
    assert [r.id for r in registry.licences_in_force(
        "alvara-servico-particular-fretamento", date(2026, 6, 1))] == []
    assert registry.rebuild_state(apply=False).same


def test_one_school_licence_per_person_refused_at_the_index_names_the_act(
    registry: Registry, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Escolar art. 14, the check having read the state before the other act committed
    (what a race leaves it, simulated here): ``uq_licences_holder_in_force`` refuses the
    insert and the refusal names the licence in force, as the check would have."""
    held = alvara_escolar(registry)
    with pytest.raises(LavraError) as checked:
        alvara_escolar(registry, placa="EXE9Z99")
    monkeypatch.setattr(state, "grant_refusals", lambda *_: [])  # the racing read
    with pytest.raises(LavraError) as indexed:
        alvara_escolar(registry, placa="EXE9Z99")
    assert indexed.value.message == checked.value.message
    assert f"já é titular de licença em vigor: {held.printed}" in indexed.value.message
    assert "art. 14" in indexed.value.message
    assert registry.next_number("ALV-ESC", 2026) == 2  # nothing numbered nor recorded
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
    """Two series, so no counter serialises them: on PostgreSQL the rows both write
    (Maria's, her CNH's) make the transfer wait for the grant, and the unique index
    ``uq_licences_holder_in_force`` stands behind them."""
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


def test_a_transfer_refused_at_the_index_names_the_act_in_force(
    registry: Registry, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Escolar arts. 14 and 15 (issue 22): the check having read the state before Maria's
    alvará committed (a race, simulated), ``uq_licences_holder_in_force`` refuses the
    transfer; the refusal is read again into the check's words, naming her alvará."""
    alvara_escolar(registry)  # José's, ALV-ESC 0001/2026
    maria = alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35",
                           cnh="29171500766")
    with pytest.raises(LavraError) as checked:
        transfer_to_maria(registry)
    reads: list[object] = []
    original = state.transfer_refusal

    def racing(*args: Any) -> object:
        reads.append(args)
        return None if len(reads) == 1 else original(*args)

    monkeypatch.setattr(state, "transfer_refusal", racing)
    with pytest.raises(LavraError) as indexed:
        transfer_to_maria(registry)
    assert len(reads) == 2  # the check, then the index's refusal read again
    assert indexed.value.message == checked.value.message
    assert (f"já é titular de licença em vigor: {maria.printed}, válida até "
            in indexed.value.message)
    assert "mesmo instante" not in indexed.value.message
    assert registry.next_number("TRF-ESC", 2026) == 1  # nothing numbered nor recorded
    assert registry.rebuild_state(apply=False).same


def test_the_migration_leaves_a_renavam_on_the_plate_recorded_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A registry at 0023 holding one RENAVAM on two plates (what the race left on
    PostgreSQL before the index): 0024 keeps it on the plate recorded first, says so in
    the log, and the view rebuilt from the acts records the divergência of the later
    act; the index then refuses a third plate."""
    url = database_url(tmp_path)
    old = next(state_registry(url))
    engine = create_engine(url)
    with engine.begin() as connection:  # back to 0023 (open_registry would migrate)
        command.downgrade(alembic_config(connection), "0023")
        # this version's tables write the column 0026 adds: lent for the acts, then dropped
        connection.execute(text("ALTER TABLE licences ADD COLUMN facts JSON"))
    plate_only = state.plate_and_renavam  # the racing read: the plate's vehicle alone
    monkeypatch.setattr(state, "plate_and_renavam",
                        lambda *args: (plate_only(*args)[0], None))
    fret, part = alvara_fretamento(old), particular(old)
    old.close()
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE licences DROP COLUMN facts"))
    assert plates_of(url, SHARED) == ["ABC1D23", "PAR1T23"]
    monkeypatch.undo()

    with caplog.at_level(logging.WARNING, "lavra.registry"):
        open_registry(url).close()  # migrated to head
    assert plates_of(url, SHARED) == ["ABC1D23"]
    assert (f"o RENAVAM {SHARED} constava das placas ABC1D23 e PAR1T23. Fica na placa "
            "ABC1D23, registrada primeiro") in caplog.text
    migrated = next(state_registry(url))  # the view built again from the acts
    try:
        assert plates_of(url, SHARED) == ["ABC1D23"]
        timeline = " ".join(change.detail for change in migrated.timeline(placa="ABC1D23"))
        assert part.printed in timeline and "RENAVAM" in timeline, timeline
        diff = migrated.rebuild_state(apply=False)
        assert diff.same and [d for d in diff.divergences if part.printed in d]
    finally:
        migrated.close()
    assert fret.placa == "ABC1D23"
    try:
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(text("INSERT INTO vehicles (placa, renavam) VALUES "
                                    "('XYZ9A87', :r)"), {"r": SHARED})
    finally:
        engine.dispose()

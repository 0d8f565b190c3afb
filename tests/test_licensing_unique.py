"""Uniqueness where the law implies it, decided by the licensing state: one operating
alvará in force per vehicle (across ALV-FRET, ALV-PART and ALV-ESC), one school licence
per person (escolar art. 14), no new alvará while a bar runs (fretamento art. 22,
parágrafo único); a licence past its last day gives way. Two clerks granting at the same
moment: exactly one wins, by a unique index, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import date
from typing import Any

import pytest
from test_licensing_state import act, alvara_fretamento, cassacao, example
from test_licensing_state import registry as registry

from lavra.errors import InputError, LavraError
from lavra.registry.effects import LicenceStatus
from lavra.registry.records import Built
from lavra.registry.store import Registry

ESC = {"inicio_vigencia": "2026-03-10", "valido_ate": "2026-12-31"}
RENAVAM = {"ABC1D23": "80549125947", "EXE1A23": "84868913830", "EXE9Z99": "02261642487",
           "DEF4G56": "92134546140"}
"""Each plate's RENAVAM, as the pack's examples give them (one vehicle, one RENAVAM)."""


def alvara_escolar(registry: Registry, *, placa: str = "EXE1A23",
                   cpf: str = "529.982.247-25", cnh: str | None = None,
                   named: bool = True) -> Any:
    data = example("alvara-transporte-escolar")
    if not named:
        del data["titular"]["nome"]
    data["veiculo"]["placa"] = placa
    data["veiculo"]["renavam"] = RENAVAM[placa]
    data["titular"]["cpf"] = cpf
    if cnh is not None:
        data["titular"]["cnh"]["numero"] = cnh
    return act(registry, "ALV-ESC", "alvara-transporte-escolar", data, on=date(2026, 3, 10),
               computed=ESC)


def test_a_vehicle_holds_one_operating_alvara_across_both_laws(registry: Registry) -> None:
    first = alvara_fretamento(registry)
    particular = example("alvara-servico-particular-fretamento")
    particular["veiculo"]["placa"] = "ABC1D23"
    particular["veiculo"]["renavam"] = RENAVAM["ABC1D23"]
    with pytest.raises(InputError) as refused:
        act(registry, "ALV-PART", "alvara-servico-particular-fretamento", particular,
            on=date(2026, 4, 1), computed={"valido_ate": "2027-03-31"})
    message = refused.value.message
    assert f"O veículo ABC1D23 já tem licença em vigor: {first.printed}" in message
    assert "Lei nº 4.419/2006" in message
    assert registry.next_number("ALV-PART", 2026) == 1  # nothing numbered nor recorded
    with pytest.raises(InputError, match=first.printed):
        alvara_escolar(registry, placa="ABC1D23")
    assert registry.rebuild_state(apply=False).same


def test_a_licence_past_its_last_day_gives_way_and_is_marked_vencido(registry: Registry) -> None:
    old = alvara_fretamento(registry, on=date(2021, 3, 2), until=date(2026, 3, 1))
    new = alvara_fretamento(registry, on=date(2026, 4, 2), until=date(2031, 4, 1))
    view = registry.licence_of(old.id)
    assert view is not None and view.status == "expired"
    assert view.describe(date(2026, 4, 2)).startswith("vencido")
    assert [r.id for r in registry.licences_in_force(
        "alvara-fretamento", date(2026, 5, 1), placa="ABC1D23")] == [new.id]
    assert registry.rebuild_state(apply=False).same
    # cancelling the new alvará gives the old one back its status
    registry.cancel(new.series, new.year, new.number, reason="erro", by="Chefia")
    back = registry.licence_of(old.id)
    assert back is not None and back.status == "active"


def test_a_person_holds_one_school_licence(registry: Registry) -> None:
    first = alvara_escolar(registry)
    with pytest.raises(InputError) as refused:
        alvara_escolar(registry, placa="EXE9Z99")
    assert f"já é titular de licença em vigor: {first.printed}" in refused.value.message
    assert "art. 14" in refused.value.message
    alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35",  # someone else may
                   cnh="29171500766")


def test_a_cassated_company_is_barred_for_twelve_months(registry: Registry) -> None:
    alvara = alvara_fretamento(registry)
    cassacao(registry, alvara, on=date(2026, 4, 20))  # bar until 20/04/2027
    data = example("alvara-fretamento")
    data["veiculo"]["placa"] = "DEF4G56"
    data["veiculo"]["renavam"] = RENAVAM["DEF4G56"]
    with pytest.raises(InputError) as refused:
        act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2026, 4, 20),
            computed={"inicio_vigencia": "2026-04-20", "valido_ate": "2031-04-19"})
    assert "impedido" in refused.value.message and "até 20/04/2027" in refused.value.message
    assert "art. 22, parágrafo único" in refused.value.message
    act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2027, 4, 21),
        computed={"inicio_vigencia": "2027-04-21", "valido_ate": "2032-04-20"})


def test_two_clerks_granting_the_same_vehicle_at_once_one_wins(registry: Registry) -> None:
    postgresql = registry.dialect == "postgresql"
    # On PostgreSQL both transactions reach the record before either commits (each holds
    # its own series' counter); SQLite's writer lock serialises them at BEGIN.
    barrier = threading.Barrier(2, timeout=30) if postgresql else None
    outcomes: list[Any] = []

    def clerk(series: str, form: str, data: dict[str, Any], computed: dict[str, Any]) -> None:
        def build(number: int, formatted: str) -> Built:
            if barrier is not None:
                barrier.wait()
            return inner(number, formatted)

        inner: Any = None

        def capture(series: str, year: int, form: str, given: Any, *a: Any, **k: Any) -> Any:
            nonlocal inner
            inner = given
            return original(series, year, form, build, *a, **k)

        original = registry.issue
        try:
            outcomes.append(_issue_with(registry, capture, series, form, data, computed))
        except LavraError as error:
            outcomes.append(error)

    fret = example("alvara-fretamento")
    esc = example("alvara-transporte-escolar")
    esc["veiculo"]["placa"] = "ABC1D23"
    esc["veiculo"]["renavam"] = RENAVAM["ABC1D23"]
    threads = [
        threading.Thread(target=clerk, args=("ALV-FRET", "alvara-fretamento", fret,
                                             {"valido_ate": "2031-03-01"})),
        threading.Thread(target=clerk, args=("ALV-ESC", "alvara-transporte-escolar", esc, ESC)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    errors = [o for o in outcomes if isinstance(o, LavraError)]
    won = [o for o in outcomes if not isinstance(o, LavraError)]
    assert len(won) == 1 and len(errors) == 1, outcomes
    assert "veículo" in errors[0].message
    in_force = [r.id for kind in ("alvara-fretamento", "alvara-transporte-escolar")
                for r in registry.licences_in_force(kind, date(2026, 6, 1), placa="ABC1D23")]
    assert in_force == [won[0].id]
    assert registry.rebuild_state(apply=False).same


def _issue_with(registry: Registry, issue: Any, series: str, form: str,
                data: dict[str, Any], computed: dict[str, Any]) -> Any:
    """act(), issuing through ``issue`` (which puts the barrier inside the build)."""

    class Proxy:
        def __getattr__(self, name: str) -> Any:
            return issue if name == "issue" else getattr(registry, name)

    return act(Proxy(), series, form, data, on=date(2026, 3, 10),  # type: ignore[arg-type]
               computed=computed)


def test_a_vehicle_has_one_renavam_and_a_cnh_one_holder(registry: Registry) -> None:
    alvara_fretamento(registry)  # ABC1D23, RENAVAM 80549125947
    stolen = example("alvara-transporte-escolar")
    stolen["veiculo"]["renavam"] = RENAVAM["ABC1D23"]  # on EXE1A23
    with pytest.raises(InputError) as refused:
        act(registry, "ALV-ESC", "alvara-transporte-escolar", stolen, on=date(2026, 3, 10),
            computed=ESC)
    assert "O RENAVAM 80549125947 consta do cadastro no veículo de placa ABC1D23" \
        in refused.value.message
    assert refused.value.field == "/veiculo/renavam"
    other = example("alvara-fretamento")
    other["veiculo"]["renavam"] = RENAVAM["EXE9Z99"]  # ABC1D23 with another RENAVAM
    with pytest.raises(InputError, match="consta do cadastro com o RENAVAM 80549125947"):
        act(registry, "ALV-FRET", "alvara-fretamento", other, on=date(2026, 3, 10),
            computed={"valido_ate": "2031-03-01"})
    first = alvara_escolar(registry)  # José, CNH 85263635330
    assert first.printed
    borrowed = example("alvara-transporte-escolar")
    borrowed["veiculo"].update(placa="EXE9Z99", renavam=RENAVAM["EXE9Z99"])
    borrowed["titular"].update(cpf="111.444.777-35", nome="Outra Pessoa")
    with pytest.raises(InputError) as refused:  # José's CNH on someone else
        act(registry, "ALV-ESC", "alvara-transporte-escolar", borrowed, on=date(2026, 3, 10),
            computed=ESC)
    assert "A CNH nº 85263635330 consta do cadastro em nome de José Exemplo dos Santos" \
        in refused.value.message
    assert registry.rebuild_state(apply=False).same


def test_an_old_plate_and_its_mercosul_form_are_one_vehicle(registry: Registry) -> None:
    data = example("alvara-fretamento")
    data["veiculo"].update(placa="ABC1323", renavam=RENAVAM["ABC1D23"])  # → ABC1D23
    old = act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2021, 3, 2),
              computed={"valido_ate": "2026-03-01"})
    converted = alvara_fretamento(registry, on=date(2026, 4, 2), until=date(2031, 4, 1))
    view = registry.licence_of(old.id)
    assert view is not None and view.status == "expired"  # the same vehicle's place
    assert registry.licence_of(converted.id) is not None


def test_a_plate_converted_to_mercosul_finds_the_whole_history(registry: Registry) -> None:
    data = example("alvara-fretamento")
    data["veiculo"].update(placa="ABC1323", renavam=RENAVAM["ABC1D23"])
    old = act(registry, "ALV-FRET", "alvara-fretamento", data, on=date(2021, 3, 2),
              computed={"valido_ate": "2026-03-01"})
    converted = alvara_fretamento(registry, on=date(2026, 4, 2), until=date(2031, 4, 1))
    for plate in ("ABC1D23", "ABC-1323"):  # the current plate, and the old one still
        assert [v.printed for v in registry.licence_views(placa=plate)] == \
            [old.printed, converted.printed]
        assert {v.placa for v in registry.licence_views(placa=plate)} == {"ABC1D23"}
        assert [r.id for r in registry.licences(
            "alvara-fretamento", placa=plate, statuses=tuple(LicenceStatus))] == \
            [old.id, converted.id]
    lines = [detail for _, _, detail in registry.state_changes(placa="ABC1D23")]
    assert lines[0].startswith(f"Expedição do {old.printed}")
    assert "Placa ABC1323 convertida para o padrão Mercosul (ABC1D23)" in " ".join(lines)
    assert registry.rebuild_state(apply=False).same
    registry.cancel(converted.series, converted.year, converted.number, reason="erro",
                    by="Chefia")  # the conversion is undone with the act that made it
    assert {v.placa for v in registry.licence_views(placa="ABC1D23")} == {"ABC1323"}


def test_a_holder_without_name_is_named_by_the_cpf_formatted(registry: Registry) -> None:
    alvara_escolar(registry, cpf="52998224725", named=False)
    with pytest.raises(InputError) as refused:
        alvara_escolar(registry, placa="EXE9Z99", cpf="52998224725", named=False)
    message = refused.value.message
    assert message.startswith("529.982.247-25 já é titular de licença em vigor"), message
    assert "52998224725" not in message
    with pytest.raises(InputError) as refused:  # the nameless holder's CNH on another person
        alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35")
    message = refused.value.message
    assert "consta do cadastro em nome de 529.982.247-25, não de José" in message, message
    assert "52998224725" not in message


def test_a_transfer_to_a_holder_of_a_school_licence_is_refused(registry: Registry) -> None:
    """Escolar art. 15 with art. 14: the cessionário who already holds a school licence
    in force cannot receive another one; refused naming it (not by the unique index)."""
    alvara_escolar(registry)  # José's, ALV-ESC 0001/2026
    held = alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35",  # Maria's
                          cnh="29171500766")
    data = example("termo-transferencia-licenca")
    data["licenca"]["numero"] = "ALV-ESC 0001/2026"
    data["veiculo"].update(placa="EXE1A23", renavam=RENAVAM["EXE1A23"])
    with pytest.raises(InputError) as refused:
        act(registry, "TRF-ESC", "termo-transferencia-licenca", data, on=date(2026, 11, 27))
    message = refused.value.message
    assert f"Maria Exemplo Cessionária já é titular de licença em vigor: {held.printed}" \
        in message
    assert "art. 14" in message and refused.value.field == "/cessionario"
    assert registry.next_number("TRF-ESC", 2026) == 1  # nothing numbered nor recorded
    assert registry.rebuild_state(apply=False).same

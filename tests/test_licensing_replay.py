"""Rebuilding the licensing state replays history: an act issued before a guard existed
(an ALV-PART to a company under the cassação's bar of fretamento art. 22, parágrafo
único, refused only since) is recorded as issued and reported as a divergência naming
the act and the article, by ``lavra cadastro reconstruir`` and by the build from the
documents of a registry older than the state; a new act is still refused. SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

import pytest
from click.testing import CliRunner
from issuers import state_registry
from test_licensing_state import act, alvara_fretamento, cassacao, example

import lavra.cli.cadastro as cadastro_cli
from lavra.cli.main import main
from lavra.errors import InputError
from lavra.registry.effects import Act, Effect, Grant
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry, open_registry
from lavra_americana import pacote

FORM = "alvara-servico-particular-fretamento"
ALV = "alvara-transporte-escolar"
TSV = "termo-substituicao-veiculo-escolar"


@pytest.fixture
def url(registry_url: str) -> str:
    """The registry's database: each test runs on SQLite and on PostgreSQL."""
    return registry_url


@pytest.fixture
def registry(url: str) -> Iterator[Registry]:
    """The registry with today's pack's effects and its state (the tests then put an
    older version of the pack's effects in their place to issue what it allowed)."""
    yield from state_registry(url)
VALIDITY = {"inicio_vigencia": "2026-12-01", "valido_ate": "2031-11-30"}


def particular(registry: Registry, placa: str = "OUT2B34") -> IssuedRecord:
    """An ALV-PART to the cassated company (the example's CNPJ), on another vehicle."""
    data = example(FORM)
    data["veiculo"] = {**data["veiculo"], "placa": placa, "renavam": None}
    return act(registry, "ALV-PART", FORM, data, on=date(2026, 12, 1), computed=VALIDITY)


def before_the_guard() -> dict[str, Any]:
    """The pack's effects as a version before the guard declared them: the ALV-PART's
    grant not barred by the cassação."""
    effects = dict(pacote().effects)
    current = effects[FORM]

    def unguarded(act: Act) -> Sequence[Effect]:
        return [dataclasses.replace(e, barred_by=None) if isinstance(e, Grant) else e
                for e in current(act)]

    effects[FORM] = unguarded
    return effects


def shared_vehicles() -> dict[str, Any]:
    """The pack's effects as a version before one operating alvará per vehicle: the
    ALV-FRET's grant in no vehicle group."""
    effects = dict(pacote().effects)
    current = effects["alvara-fretamento"]

    def unguarded(act: Act) -> Sequence[Effect]:
        return [dataclasses.replace(e, exclusive=None) if isinstance(e, Grant) else e
                for e in current(act)]

    return {**effects, "alvara-fretamento": unguarded}


def replayed(registry: Registry) -> str:
    """Rebuild the state with today's pack: the one divergência it reports."""
    registry.use_effects(pacote().effects)
    [line] = registry.rebuild_state(apply=True).divergences
    return line


def barred_history(registry: Registry) -> IssuedRecord:
    """ALV-FRET, its cassação (bar to 20/04/2027), and the ALV-PART issued meanwhile."""
    alvara = alvara_fretamento(registry, on=date(2026, 3, 2))
    cassacao(registry, alvara, on=date(2026, 4, 20))
    return particular(registry)


def assert_divergence(lines: Sequence[str], printed: str) -> None:
    [line] = lines
    assert line.startswith(f"Divergência: o {printed} (emitido em 01/12/2026) contraria "
                           "regra hoje em vigor")
    assert "CAS-FRET nº 0001/2026" in line and "20/04/2027" in line
    assert "art. 22, parágrafo único" in line
    assert line.endswith("O ato permanece registrado como emitido.")


def test_rebuild_records_an_act_issued_before_its_guard_and_reports_it(
    url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch,
) -> None:
    registry.use_effects(before_the_guard())
    issued = barred_history(registry)
    registry.use_effects(pacote().effects)  # today's pack: the guard in force
    diff = registry.rebuild_state(apply=False)
    assert diff.same and diff.acts == 3
    assert_divergence(diff.divergences, issued.printed)
    registry.rebuild_state(apply=True)
    view = registry.licence_of(issued.id)
    assert view is not None and view.status == "active" and view.placa == "OUT2B34"
    timeline = [e.detail for e in registry.timeline(licence_document=issued.id)]
    assert timeline[0].startswith(f"Expedição do {issued.printed}")
    assert_divergence(timeline[1:], issued.printed)
    # The public wording (the verification page, its API and lavra verify), naming nobody.
    assert registry.public_divergences(issued.id) == (
        "Este ato foi registrado em desacordo com o impedimento imposto pelo CAS-FRET nº "
        "0001/2026, em vigor até 20/04/2027 (art. 22, parágrafo único, da Lei nº "
        "4.419/2006); consta como divergência no cadastro.",)
    # A new act is still refused by the guard.
    with pytest.raises(InputError) as refused:
        particular(registry, "NEW3C45")
    assert "CAS-FRET nº 0001/2026" in refused.value.message

    # The command's report (the registry opened with today's pack, without loading the
    # whole engine: the command's own test does that).
    def with_pack(_: str | None) -> Registry:
        opened = open_registry(url)
        opened.use_effects(pacote().effects)
        return opened

    monkeypatch.setattr(cadastro_cli, "_registry", with_pack)
    checked = CliRunner().invoke(main, ["cadastro", "reconstruir", "--apenas-verificar",
                                        "--registro", url])
    assert checked.exit_code == 0, checked.output
    assert "divergências, 1" in checked.output and "confere" in checked.output
    assert f"Divergência: o {issued.printed}" in checked.output


def test_the_build_from_the_documents_does_not_stop_at_a_barred_act(url: str) -> None:
    """A registry older than the state (no effects recorded) holding the same history:
    the first opening with the pack builds the state to the end."""
    older = open_registry(url)
    try:
        issued = barred_history(older)
    finally:
        older.close()
    for reopened in state_registry(url):  # closed when the loop ends
        view = reopened.licence_of(issued.id)
        assert view is not None and view.status == "active"
        assert reopened.bars_of("65.563.842/0001-05", date(2026, 12, 1))
        assert_divergence([e.detail for e in reopened.timeline(licence_document=issued.id)
                           if e.detail.startswith("Divergência")], issued.printed)


def test_a_second_alvara_on_one_vehicle_is_replayed_without_taking_its_place(
    registry: Registry,
) -> None:
    """One operating alvará per vehicle, a rule a registry may predate: the second ALV-FRET
    on the vehicle is recorded and reported; the first keeps the vehicle's place."""
    registry.use_effects(shared_vehicles())
    first = alvara_fretamento(registry, on=date(2026, 3, 2))
    second = alvara_fretamento(registry, on=date(2026, 6, 1))
    line = replayed(registry)
    assert line.startswith(f"Divergência: o {second.printed} (emitido em 01/06/2026)")
    assert f"O veículo ABC1D23 já tem licença em vigor: {first.printed}" in line
    held = registry.licences_held(date(2026, 7, 1), placa="ABC1D23")
    assert [v.printed for v in held] == [first.printed, second.printed]
    assert [v.exclusive for v in held] == ["operacao-veiculo", None]
    assert registry.rebuild_state(apply=False).same


def test_a_change_of_vehicle_onto_a_held_vehicle_is_replayed_out_of_its_group(
    registry: Registry,
) -> None:
    """The change of vehicle's guard (the new vehicle holds no other operating licence)
    replays as the grant's does: the ALV-ESC takes the vehicle its TSV-ESC gave it, out
    of the vehicle's group, and the ALV-FRET in force there keeps its place."""
    registry.use_effects(shared_vehicles())
    school = act(registry, "ALV-ESC", ALV, example(ALV), on=date(2026, 3, 2),
                 computed={"inicio_vigencia": "2026-03-02", "valido_ate": "2026-12-31"})
    fret = alvara_fretamento(registry, on=date(2026, 4, 1))
    data = example(TSV)
    data["alvara"] = {"numero": school.printed}
    data["veiculo_novo"].update(placa="ABC1D23", renavam=None)
    termo = act(registry, "TSV-ESC", TSV, data, on=date(2026, 5, 14))
    line = replayed(registry)
    assert line.startswith(f"Divergência: o {termo.printed} (emitido em 14/05/2026)")
    assert f"O veículo ABC1D23 já tem licença em vigor: {fret.printed}" in line
    held = registry.licences_held(date(2026, 6, 1), placa="ABC1D23")
    assert [(v.printed, v.exclusive) for v in held] == [
        (school.printed, None), (fret.printed, "operacao-veiculo")]
    assert registry.rebuild_state(apply=False).same

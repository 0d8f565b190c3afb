"""The change of vehicle of the school alvará (Lei nº 4.515/2007, art. 17, § 1º, with
art. 3º, "modificado"): the Termo de Substituição de Veículo, issued over a real SQLite
registry, puts the new vehicle in the alvará's place and frees the old one, ends the
old vehicle's selo, shows in ``cadastro mostrar``; its guards read the alvará from the
state; cancelling it undoes the change. Every date is passed explicitly."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from issuers import state_registry
from test_licensing_state import act, alvara_fretamento, example

from lavra.checking.report import Item, Status
from lavra.cli.main import main
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry.database import database_url
from lavra.registry.store import Registry
from lavra_americana import pacote

TSV = "termo-substituicao-veiculo-escolar"
ALV = "alvara-transporte-escolar"
OLD, NEW = "EXE1A23", "NOV4D56"
GRANTED = date(2026, 3, 2)
CHANGED = date(2026, 5, 14)


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    """A SQLite registry with the pack's effects (the licensing state)."""
    yield from state_registry(database_url(tmp_path / "dados"))


def alvara(registry: Registry, *, until: str = "2026-12-31") -> Any:
    return act(registry, "ALV-ESC", ALV, example(ALV), on=GRANTED,
               computed={"inicio_vigencia": GRANTED.isoformat(), "valido_ate": until})


def termo(number: str, **vehicle: Any) -> dict[str, Any]:
    data = example(TSV)
    data["alvara"] = {"numero": number}
    data["veiculo_novo"].update(vehicle)
    return data


def pending(engine: Engine, registry: Registry, data: dict[str, Any], on: date,
            field: str) -> list[Item]:
    prepared = engine.prepare(TSV, data, on, history=RegistryHistory(registry))
    return [i for i in prepared.report.items if i.field == field and i.status != Status.MET]


def test_the_example_is_complete_over_the_registry_and_signed_by_the_secretario(
    engine: Engine, registry: Registry
) -> None:
    held = alvara(registry)
    prepared = engine.prepare(TSV, termo(held.printed), CHANGED,
                              history=RegistryHistory(registry))
    assert prepared.report.complete, [i.message for i in prepared.report.pending]
    form = engine.content.form(TSV)
    assert form.series == "TSV-ESC" and form.signer_role == "secretario-transportes"
    assert "perde a validade nesta data" in prepared.computed["selo_explicacao"]


def test_issued_the_alvara_names_the_new_vehicle_the_old_is_free_and_cancel_undoes_it(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from issuers import dev_issuer

    monkeypatch.chdir(tmp_path)
    for name in ("LAVRA_DATABASE_URL", "LAVRA_DATA", "LAVRA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    issuer = dev_issuer(engine, tmp_path / "lavra-dados")
    try:
        registry = issuer.registry
        registry.use_effects(pacote().effects)
        held = alvara(registry)
        selo = example("selo-identificacao")
        selo["alvara"] = {"numero": held.printed, "valido_ate": "2026-12-31"}
        old_selo = act(registry, "SELO-ESC", "selo-identificacao", selo, on=GRANTED)
        issued = issuer.issue(TSV, termo(held.printed), CHANGED)
        printed = issued.record.printed
        view = registry.licence_by_number(held.printed, ALV)
        assert view is not None and view.placa == NEW and view.status == "active"
        assert registry.licences_held(CHANGED, placa=OLD) == ()
        ended = registry.licence_by_number(old_selo.printed, "selo-identificacao")
        assert ended is not None and ended.status == "ended"
        # A new selo for the new vehicle rests on the same alvará, now of that vehicle.
        new_selo = example("selo-identificacao")
        new_selo["alvara"] = {"numero": held.printed, "valido_ate": "2026-12-31"}
        new_selo["veiculo"] = {**new_selo["veiculo"], "placa": NEW, "renavam": "35333304201"}
        got = engine.prepare("selo-identificacao", new_selo, CHANGED,
                             history=RegistryHistory(registry))
        assert [i.message for i in got.report.items
                if i.field == "/alvara/numero" and i.status != Status.MET] == []
        pdf = tmp_path / "termo.pdf"
        pdf.write_bytes(issued.pdf)
        text = " ".join(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                                       capture_output=True, text=True).stdout.split())
        assert "Termo de Substituição de Veículo" in text and "TSV-ESC" in text
        assert "modifica o referido alvará" in text and "art. 17, § 1º" in text
        assert "a partir de 14/05/2026" in text and "novo selo, numerado" in text
        url = database_url(tmp_path / "lavra-dados")
        shown = CliRunner().invoke(main, ["cadastro", "mostrar", NEW, "--registro", url,
                                          "--on", "2026-06-01"])
        assert shown.exit_code == 0, shown.output
        assert (f"{held.printed}: veículo {OLD} substituído pelo de placa {NEW}, pelo "
                f"{printed}.") in " ".join(shown.output.split())
        checked = CliRunner().invoke(main, ["verify", "--code", held.verification_code,
                                            "--on", "2026-06-01"])
        assert (f"Situação da licença: em vigor; veículo substituído pelo de placa {NEW} a "
                f"partir de 14/05/2026, pelo {printed}.") in checked.output, checked.output
        issuer.cancel(printed.split()[-1], "erro material", "Servidor de Teste",
                      series="TSV-ESC")
        back = registry.licence_by_number(held.printed, ALV)
        assert back is not None and back.placa == OLD
        restored = registry.licence_by_number(old_selo.printed, "selo-identificacao")
        assert restored is not None and restored.status == "active"
        assert registry.licences_held(CHANGED, placa=NEW) == ()
    finally:
        issuer.close()


def test_refused_when_the_alvara_is_revoked_or_expired(
    engine: Engine, registry: Registry
) -> None:
    held = alvara(registry, until="2026-04-30")
    [expired] = pending(engine, registry, termo(held.printed), CHANGED, "/alvara/numero")
    assert expired.status == Status.INVALID and "não está em vigor em 14/05/2026" in expired.message
    revoke = example("decisao-revogacao-alvara")
    revoke["alvara"] = {**revoke.get("alvara", {}), "numero": held.printed}
    rev = act(registry, "REV-ESC", "decisao-revogacao-alvara", revoke, on=date(2026, 4, 10))
    [revoked] = pending(engine, registry, termo(held.printed), date(2026, 4, 20),
                        "/alvara/numero")
    assert f"revogado em 10/04/2026 pelo {rev.printed}" in revoked.message
    assert "art. 17, § 1º" in revoked.message


def test_refused_when_the_new_vehicle_is_over_age_or_holds_another_licence(
    engine: Engine, registry: Registry
) -> None:
    held = alvara(registry)
    [old_car] = pending(engine, registry, termo(held.printed, ano_fabricacao=2014), CHANGED,
                        "/veiculo_novo/ano_fabricacao")
    assert old_car.status == Status.INVALID and "art. 17, I" in old_car.message
    fret = alvara_fretamento(registry)
    busy = termo(held.printed, placa="ABC1D23", renavam="80549125947")
    [taken] = pending(engine, registry, busy, CHANGED, "/veiculo_novo/placa")
    assert taken.status == Status.INVALID and fret.printed in taken.message
    assert "art. 3º" in taken.message
    # The registry refuses it too, when it records the act, naming the licence.
    with pytest.raises(InputError, match=fret.printed.replace(" ", ".")):
        act(registry, "TSV-ESC", TSV, busy, on=CHANGED)


def test_the_requerente_must_be_the_titular(engine: Engine, registry: Registry) -> None:
    held = alvara(registry)
    data = termo(held.printed)
    data["requerente"]["cpf"] = "111.444.777-35"
    [item] = pending(engine, registry, data, CHANGED, "/requerente/cpf")
    # the holder the registry holds, named (acts on a licence: comum/guards.py)
    assert item.status == Status.INVALID and item.message.startswith(
        "O titular informado não é o do ALV-ESC nº 0001/2026: segundo o registro, o titular "
        "é José Exemplo dos Santos."), item.message
    assert "art. 17, § 1º" in item.message


def test_the_registry_refuses_a_change_on_an_ended_alvara_and_an_undo_on_a_taken_vehicle(
    registry: Registry
) -> None:
    held = alvara(registry)
    change = act(registry, "TSV-ESC", TSV, termo(held.printed), on=CHANGED)
    # The old vehicle, now free, takes a fretamento alvará: the change cannot be undone.
    fret = example("alvara-fretamento")
    fret["veiculo"].update(placa=OLD, renavam="84868913830")
    taken = act(registry, "ALV-FRET", "alvara-fretamento", fret, on=date(2026, 6, 1),
                computed={"valido_ate": "2031-05-31"})
    number, year = change.printed.split()[-1].split("/")
    with pytest.raises(InputError, match=f"tem hoje o {taken.printed}"):
        registry.cancel("TSV-ESC", int(year), int(number), reason="erro", by="Servidor")
    revoke = example("decisao-revogacao-alvara")
    revoke["alvara"] = {**revoke.get("alvara", {}), "numero": held.printed}
    act(registry, "REV-ESC", "decisao-revogacao-alvara", revoke, on=date(2026, 7, 1))
    with pytest.raises(InputError, match=f"{held.printed} não está em vigor .revogado."):
        act(registry, "TSV-ESC", TSV, termo(held.printed, placa="OUT2B34",
                                             renavam="00000000191"), on=date(2026, 7, 2))

"""Acts on a licence name the holder the state holds (issue 22, § 3): after a transfer
the alvará's own act still names the cedente; an accessory act naming him is refused at
the field, the status line says to whom and by which act it was transferred, the
accessories the cedente held follow the alvará, and the auto started from the plate is
filled with the cessionário. Over a fresh registry and over the imported sample, on
SQLite; every date is fixed."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from formcases import example
from test_cadastro_import import load
from test_licensing_guards import registry as registry
from test_licensing_state import act

from lavra.checking.report import Item, Status
from lavra.documents import Engine
from lavra.issuing import RegistryHistory
from lavra.registry.prefill import PlateFinding, StaffMember
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra.verifying import licence_situation
from lavra_americana.comum.auto_placa import auto_escolar
from lavra_americana.comum.guards import series_of

ALV, TERMO, SELO = "alvara-transporte-escolar", "termo-transferencia-licenca", "selo-identificacao"
PUBLICIDADE = "autorizacao-publicidade-escolar"
ON = date(2026, 4, 6)
CEDENTE, CESSIONARIA = "529.982.247-25", "111.444.777-35"
MARIA = "Maria Exemplo Cessionária"


def transferred(engine: Engine, registry: Registry, *, same_vehicle: bool = False
                ) -> tuple[IssuedRecord, IssuedRecord, IssuedRecord]:
    """José's alvará of 10/03/2024 with its selo, transferred to Maria on 02/03/2026 with
    her own vehicle (the termo's example), or with the alvará's."""
    granted = example(engine, ALV)
    alvara = act(registry, "ALV-ESC", ALV, granted, on=date(2024, 3, 10),
                 computed={"inicio_vigencia": "2024-03-10", "valido_ate": "2026-12-31"})
    selo = example(engine, SELO)
    selo["alvara"]["numero"] = alvara.printed
    sealed = act(registry, series_of(SELO) or "", SELO, selo, on=date(2024, 3, 10),
                 computed={"valido_ate": "2026-12-31"})
    termo = example(engine, TERMO)
    termo["licenca"]["numero"] = alvara.printed
    if same_vehicle:
        termo["veiculo"] = granted["veiculo"]
    return alvara, sealed, act(registry, "TRF-ESC", TERMO, termo, on=date(2026, 3, 2))


def refused_at(engine: Engine, registry: Registry, form: str, data: dict[str, Any],
               field: str) -> list[Item]:
    report = engine.prepare(form, data, issued_on=ON, history=RegistryHistory(registry)).report
    return [i for i in report.items if i.field == field and i.status is Status.INVALID]


def test_an_accessory_act_naming_the_cedente_is_refused(
    engine: Engine, registry: Registry
) -> None:
    alvara, sealed, termo = transferred(engine, registry)
    # The selo identifies the vehicle the alvará left: it ended, the cedente's.
    kept = registry.licence_of(sealed.id)
    assert kept is not None and (kept.holder, kept.status) == ("52998224725", "ended")
    data = example(engine, PUBLICIDADE)
    data["alvara"]["numero"] = alvara.printed
    found = refused_at(engine, registry, PUBLICIDADE, data, "/titular/cpf")
    assert len(found) == 1, found
    message = found[0].message
    assert MARIA in message and termo.printed in message and "02/03/2026" in message
    assert "art. 17, § 2º" in message and "transporte-escolar#art17_par2" in found[0].basis
    data["titular"] = {"nome": MARIA, "cpf": CESSIONARIA, "prontuario": "TE-0042"}
    assert refused_at(engine, registry, PUBLICIDADE, data, "/titular/cpf") == []
    selo = example(engine, SELO)
    selo["alvara"]["numero"] = alvara.printed
    assert refused_at(engine, registry, SELO, selo, "/titular/cpf")


@pytest.mark.parametrize("registry_url", ["sqlite", "postgresql"], indirect=True)
def test_the_status_line_names_the_cessionario_and_the_accessories_follow(
    engine: Engine, registry_url: str
) -> None:
    from issuers import state_registry

    for opened in state_registry(registry_url):
        status_line_and_accessories(engine, opened)


def status_line_and_accessories(engine: Engine, registry: Registry) -> None:
    alvara, sealed, termo = transferred(engine, registry, same_vehicle=True)
    line = f"em vigor, transferido a {MARIA} pelo {termo.printed}, em 02/03/2026"
    view = registry.licence_of(alvara.id)
    assert view is not None and view.describe(ON) == line
    situation = licence_situation(registry, alvara.id, ON)
    assert situation is not None and situation.text == line
    public = licence_situation(registry, alvara.id, ON, personal=False)  # the public page
    assert public is not None
    assert public.text == f"em vigor, transferido pelo {termo.printed}, em 02/03/2026"
    selo = registry.licence_of(sealed.id)
    assert selo is not None and selo.holder == "11144477735" and selo.status == "active"
    registry.cancel("TRF-ESC", 2026, 1, reason="Termo lavrado por engano.", by="Servidor")
    view, selo = registry.licence_of(alvara.id), registry.licence_of(sealed.id)
    assert view is not None and view.describe(ON) == "em vigor"
    assert selo is not None and view.holder == selo.holder == "52998224725"


@pytest.mark.parametrize("registry_url", ["postgresql"], indirect=True)
def test_with_another_vehicle_the_old_selo_ends_in_the_termos_transaction(
    engine: Engine, registry_url: str
) -> None:
    """On PostgreSQL (SQLite: tests/test_transfer_vehicle.py): the selo of the vehicle the
    alvará left ends with the termo, in the cedente's name, and comes back with its
    cancellation."""
    from issuers import state_registry

    for opened in state_registry(registry_url):
        _, sealed, termo = transferred(engine, opened)
        ended = opened.licence_of(sealed.id)
        assert ended is not None and (ended.status, ended.holder) == ("ended", "52998224725")
        assert ended.status_act == termo.printed
        opened.cancel("TRF-ESC", 2026, 1, reason="Termo lavrado por engano.", by="Servidor")
        back = opened.licence_of(sealed.id)
        assert back is not None and (back.status, back.holder) == ("active", "52998224725")


def test_the_auto_from_the_plate_names_the_cessionario(
    engine: Engine, registry: Registry
) -> None:
    alvara, _, _ = transferred(engine, registry)
    view = registry.licence_of(alvara.id)
    record = registry.get_by_id(alvara.id)
    assert view is not None and record is not None
    finding = PlateFinding(placa="EXE1A23", in_force=view, latest=view,
                           act_data=record.data, status=view.describe(ON))
    filled = auto_escolar(finding, StaffMember("Agente Exemplo", "M-1"))
    assert filled["condutor"]["nome"] == MARIA
    assert filled["condutor"]["cpf"] == "11144477735"
    assert "endereco" not in filled["condutor"]  # only the cedente's act recorded one


@pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
def test_over_the_imported_sample_the_cedente_is_refused(
    engine: Engine, registry_url: str
) -> None:
    from issuers import state_registry

    for imported in state_registry(registry_url):  # the module's own is a fresh SQLite
        load(imported)
        view = imported.licence_by_number("ALV-ESC nº 0019/2023")
        assert view is not None
        assert view.describe(ON) == ("em vigor, transferido a Marta Exemplo Cessionária "
                                     "pelo TRF-ESC nº 0003/2025, em 02/06/2025")
        data = example(engine, PUBLICIDADE)
        data["alvara"] = {"numero": "ALV-ESC nº 0019/2023", "valido_ate": "2027-12-31"}
        data["titular"]["cpf"] = "043.048.184-57"
        data["veiculo"]["placa"] = "ESC5E55"
        found = refused_at(engine, imported, PUBLICIDADE, data, "/titular/cpf")
        assert len(found) == 1 and "TRF-ESC nº 0003/2025" in found[0].message


def test_the_revocation_is_decided_against_the_holder_the_state_holds(
    engine: Engine, registry: Registry
) -> None:
    """The revogação (art. 3º) compared the driver with the alvará's own act, which names
    the cedente: now with the state, so the cessionária is the one it may revoke."""
    alvara, _, termo = transferred(engine, registry, same_vehicle=True)
    form = "decisao-revogacao-alvara"
    data = example(engine, form)
    data["alvara"]["numero"] = alvara.printed
    found = refused_at(engine, registry, form, data, "/condutor/cpf")
    assert len(found) == 1 and MARIA in found[0].message and termo.printed in found[0].message
    data["condutor"].update(nome=MARIA, cpf=CESSIONARIA)
    assert refused_at(engine, registry, form, data, "/condutor/cpf") == []
    assert not [i for i in refused_at(engine, registry, form, data, "/alvara/numero")
                if "outro condutor" in i.message]

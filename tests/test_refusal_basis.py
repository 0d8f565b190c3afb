"""Each refusal of the licensing state cites the provision of the rule it refuses (issue
22, § 6), not every provision of the grant, and the draft's item for the same rule cites
the same provision (the clerk reads one article in the draft and at signing): one
operating alvará per vehicle (fretamento art. 8º for the ALV-FRET and the ALV-PART;
escolar art. 1º, § 1º, for the ALV-ESC), one school licence per person (escolar
art. 14), the bar (its own article, from the act that imposed it). The same words for a
new act, a transfer, the divergência of a replayed act and the licence's return to force
(the grant's change keeps each group's provision; one kept before, the grant's single
provision, is still read). SQLite; every date passed."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from issuers import state_registry
from sqlalchemy import select, update
from test_licensing_state import act, alvara_fretamento, cassacao, example
from test_licensing_unique import RENAVAM, alvara_escolar

from lavra.checking.report import Status
from lavra.documents import Engine
from lavra.errors import InputError
from lavra.issuing import RegistryHistory
from lavra.registry.database import database_url
from lavra.registry.effects import Act, Effect, Grant
from lavra.registry.guards import granted_basis
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra.registry.tables import LicenceRow, StateChangeRow
from lavra_americana import pacote
from lavra_americana.fretamento.estado import OPERATION_BASIS
from lavra_americana.transporte_escolar.estado import VEHICLE_BASIS

CHARTER = "art. 8º da Lei nº 4.419/2006"
SCHOOL_VEHICLE = "art. 1º, § 1º, da Lei nº 4.515/2007"
SCHOOL_HOLDER = "art. 14 da Lei nº 4.515/2007"
BAR = "art. 22, parágrafo único, da Lei nº 4.419/2006"
END = ("; encerre-a antes (renovação, cassação, revogação, devolução ou "
       "transferência).")
OTHER = {"cnpj": "11.222.333/0001-81", "razao_social": "Outra Viação Ltda."}


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    yield from state_registry(database_url(tmp_path / "dados"))


def charter(registry: Registry, *, on: date, placa: str = "ABC1D23",
            company: dict[str, str] | None = None) -> IssuedRecord:
    data = example("alvara-fretamento")
    data["empresa"].update(company or {})
    data["veiculo"].update(placa=placa, renavam=RENAVAM.get(placa, "05797496743"))
    return act(registry, "ALV-FRET", "alvara-fretamento", data, on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2031-04-06"})


def refused(issue: Any) -> str:
    with pytest.raises(InputError) as caught:
        issue()
    return caught.value.message


def test_a_vehicle_holding_an_alvara_is_refused_with_the_article_of_each_law(
    registry: Registry,
) -> None:
    """The ALV-FRET and the ALV-PART cite art. 8º ("para cada veículo"), the ALV-ESC
    its law's art. 1º, § 1º; never the bar's art. 22, parágrafo único."""
    held = alvara_fretamento(registry)
    vehicle = (f"O veículo ABC1D23 já tem licença em vigor: {held.printed}, válida até "
               "01/03/2031. O {} não pode ser expedido enquanto ela vigorar")
    assert refused(lambda: charter(registry, on=date(2026, 4, 7), company=OTHER)) == (
        f"{vehicle.format('ALV-FRET nº 0002/2026')} ({CHARTER}){END}")
    private = example("alvara-servico-particular-fretamento")
    private["veiculo"].update(placa="ABC1D23", renavam=RENAVAM["ABC1D23"])
    assert refused(lambda: act(
        registry, "ALV-PART", "alvara-servico-particular-fretamento", private,
        on=date(2026, 4, 7), computed={"valido_ate": "2027-04-06"},
    )) == f"{vehicle.format('ALV-PART nº 0001/2026')} ({CHARTER}){END}"
    assert refused(lambda: alvara_escolar(registry, placa="ABC1D23")) == (
        f"{vehicle.format('ALV-ESC nº 0001/2026')} ({SCHOOL_VEHICLE}){END}")
    assert registry.next_number("ALV-FRET", 2026) == 2  # nothing else numbered
    assert registry.next_number("ALV-ESC", 2026) == 1


def test_a_person_holding_a_school_licence_is_refused_with_art_14(
    registry: Registry,
) -> None:
    """A second ALV-ESC to the titular, and a transfer to a cessionário who holds one,
    cite art. 14 alone; a transfer moving the licence to a vehicle that holds another
    operating alvará, art. 1º, § 1º (not the transfer's art. 15)."""
    first = alvara_escolar(registry)
    name = example("alvara-transporte-escolar")["titular"]["nome"]
    assert refused(lambda: alvara_escolar(registry, placa="DEF4G56")) == (
        f"{name} já é titular de licença em vigor: {first.printed}, válida até 31/12/2026. "
        f"O ALV-ESC nº 0002/2026 não pode ser expedido enquanto ela vigorar "
        f"({SCHOOL_HOLDER}){END}")
    maria = alvara_escolar(registry, placa="EXE9Z99", cpf="111.444.777-35",
                           cnh="29171500766")
    transfer = example("termo-transferencia-licenca")
    transfer["licenca"]["numero"] = first.printed
    transfer["veiculo"].update(placa="EXE1A23", renavam=RENAVAM["EXE1A23"])

    def issue() -> IssuedRecord:
        return act(registry, "TRF-ESC", "termo-transferencia-licenca", transfer,
                   on=date(2026, 11, 27))

    assert refused(issue) == (
        f"Maria Exemplo Cessionária já é titular de licença em vigor: {maria.printed}, "
        "válida até 31/12/2026. O TRF-ESC nº 0001/2026 não pode ser expedido enquanto ela "
        f"vigorar ({SCHOOL_HOLDER}){END}")
    registry.cancel(maria.series, maria.year, maria.number, reason="erro", by="Chefia")
    taken = charter(registry, on=date(2026, 4, 7), placa="EXE2B34")
    transfer["veiculo"].update(placa="EXE2B34", renavam="05797496743")
    assert refused(issue) == (
        f"O veículo EXE2B34 já tem licença em vigor: {taken.printed}, válida até "
        "06/04/2031. O TRF-ESC nº 0001/2026 não pode ser expedido enquanto ela vigorar "
        f"({SCHOOL_VEHICLE}){END}")
    assert registry.next_number("TRF-ESC", 2026) == 1


def unguarded() -> dict[str, Any]:
    """The pack's effects as a version before the ALV-FRET's guards."""
    effects = dict(pacote().effects)
    current = effects["alvara-fretamento"]

    def without(act: Act) -> Sequence[Effect]:
        return [dataclasses.replace(e, exclusive=None, barred_by=None)
                if isinstance(e, Grant) else e for e in current(act)]

    return {**effects, "alvara-fretamento": without}


def test_a_barred_company_and_a_held_vehicle_each_cite_their_own_article(
    registry: Registry,
) -> None:
    """The bar's refusal cites the cassação's art. 22, parágrafo único; an ALV-FRET
    issued against both rules (before its guards) diverges from each, citing each."""
    cas = cassacao(registry, alvara_fretamento(registry), on=date(2026, 4, 20))
    taken = charter(registry, on=date(2026, 4, 27), company=OTHER)
    assert refused(lambda: charter(registry, on=date(2026, 5, 4), placa="DEF4G56")) == (
        "Viação Exemplo de Fretamento Ltda. está impedido de obter o ALV-FRET nº "
        f"0003/2026 até 20/04/2027, pelo {cas.printed} ({BAR}).")
    registry.use_effects(unguarded())
    issued = charter(registry, on=date(2026, 5, 4))
    registry.use_effects(pacote().effects)
    registry.rebuild_state(apply=True)
    assert registry.public_divergences(issued.id) == tuple(
        f"Este ato foi registrado em desacordo com {rule}; consta como divergência no "
        "cadastro." for rule in (
            f"a regra de uma só licença em vigor por veículo ({CHARTER})",
            f"o impedimento imposto pelo {cas.printed}, em vigor até 20/04/2027 ({BAR})"))
    assert taken.printed != issued.printed


def test_the_grant_keeps_each_groups_provision_and_an_older_one_is_read(
    registry: Registry,
) -> None:
    """What a restore refusal cites (tests/test_restore_refusals.py): each group's own
    provision, kept with the grant; a grant kept before (the one ``fundamento``) still
    read for both groups."""
    alvara = alvara_escolar(registry)

    def kept() -> tuple[str, str]:
        with registry.read_session() as session:
            licence = session.scalars(select(LicenceRow).where(
                LicenceRow.document_id == alvara.id)).one()
            return (granted_basis(session, licence, "exclusive"),
                    granted_basis(session, licence, "per_holder"))

    assert kept() == (SCHOOL_VEHICLE, SCHOOL_HOLDER)
    with registry.write_session() as session:  # as the previous lavra kept it
        session.execute(update(StateChangeRow).where(StateChangeRow.kind == "grant")
                        .values(before={"fundamento": "art. 3º da Lei nº 4.515/2007"}))
    assert kept() == ("art. 3º da Lei nº 4.515/2007",) * 2
    registry.rebuild_state(apply=True)  # lavra cadastro reconstruir: each its own again
    assert kept() == (SCHOOL_VEHICLE, SCHOOL_HOLDER)


def cited(message: str) -> str:
    """The provision a "licença em vigor" message cites, as printed."""
    found = re.search(r"enquanto ela vigorar \((.+?)\); encerre-a antes", message)
    assert found is not None, message
    return found.group(1)


def drafted(engine: Engine, registry: Registry, form: str, data: dict[str, Any], on: date,
            field: str) -> tuple[tuple[str, ...], str]:
    """The basis and the printed provision of the draft's one "licença em vigor" item at
    ``field`` (invalid)."""
    prepared = engine.prepare(form, data, on, history=RegistryHistory(registry))
    [item] = [i for i in prepared.report.items
              if i.field == field and "licença em vigor" in i.message]
    assert item.status == Status.INVALID
    return tuple(item.basis), cited(item.message)


def test_the_draft_cites_the_provision_the_registry_refuses_with(
    engine: Engine, registry: Registry,
) -> None:
    """ALV-FRET, ALV-PART and ALV-ESC on a vehicle that holds an operating alvará, and an
    ALV-ESC to a titular who holds one: the draft's item and the record's refusal cite
    the same provision, from the constant the grant's group cites."""
    alvara_fretamento(registry)
    on = date(2026, 4, 7)
    data = example("alvara-fretamento")
    data["empresa"].update(OTHER)
    data["veiculo"].update(placa="ABC1D23", renavam=RENAVAM["ABC1D23"])
    assert drafted(engine, registry, "alvara-fretamento", data, on, "/veiculo/placa") == (
        (OPERATION_BASIS,), CHARTER)
    assert cited(refused(lambda: charter(registry, on=on, company=OTHER))) == CHARTER
    private = example("alvara-servico-particular-fretamento")
    private["veiculo"].update(placa="ABC1D23", renavam=RENAVAM["ABC1D23"])
    form = "alvara-servico-particular-fretamento"
    assert drafted(engine, registry, form, private, on, "/veiculo/placa") == (
        (OPERATION_BASIS,), CHARTER)
    assert cited(refused(lambda: act(registry, "ALV-PART", form, private, on=on,
                                     computed={"valido_ate": "2027-04-06"}))) == CHARTER
    school = example("alvara-transporte-escolar")
    school["veiculo"].update(placa="ABC1D23", renavam=RENAVAM["ABC1D23"])
    form, on = "alvara-transporte-escolar", date(2026, 3, 10)
    assert drafted(engine, registry, form, school, on, "/veiculo/placa") == (
        (VEHICLE_BASIS,), SCHOOL_VEHICLE)
    assert cited(refused(lambda: alvara_escolar(registry, placa="ABC1D23"))) == (
        SCHOOL_VEHICLE)
    alvara_escolar(registry)  # the titular's one school licence
    school["veiculo"].update(placa="DEF4G56", renavam=RENAVAM["DEF4G56"])
    assert drafted(engine, registry, form, school, on, "/titular/cpf") == (
        ("transporte-escolar#art14",), SCHOOL_HOLDER)
    assert cited(refused(lambda: alvara_escolar(registry, placa="DEF4G56"))) == (
        SCHOOL_HOLDER)

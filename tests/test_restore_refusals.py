"""A licence returning to force while another holds its place (issue 22, §§ 2 and 6): the
refusal names the licence in force, its validity, and the provision of the group it
collides with, in the words a grant of the licence's kind is refused with (the basis its
own grant printed, kept with the grant's change): for a decision on appeal reversing a
revogação, for the cancellation that would restore the licence, for a devolução, when
the check sees the other licence and when the unique index decides the race
(PostgreSQL, a real race). The pack's accessories declare no group, so the indexes never
hold them; an accessory a pack puts in one gets the same named refusal. SQLite, and one
race on PostgreSQL. Every date is passed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import date
from typing import Any

import pytest
from issuers import state_registry
from sqlalchemy import select, update
from test_licensing_races import race
from test_licensing_races import waiting as waiting
from test_licensing_state import act, alvara_fretamento, example

from lavra.errors import InputError, LavraError
from lavra.registry.effects import Act, Effect, Grant, PartyRef, VehicleRef
from lavra.registry.guards import granted_basis
from lavra.registry.records import IssuedRecord
from lavra.registry.store import Registry
from lavra.registry.tables import LicenceRow, StateChangeRow
from lavra_americana import pacote

SCHOOL = "(art. 14 da Lei nº 4.515/2007)"
"""What a second school alvará to the same person is refused with (escolar art. 14)."""
CHARTER = "(art. 8º da Lei nº 4.419/2006)"
"""What a second operating alvará for the vehicle is refused with (fretamento art. 8º)."""
SQLITE_ONLY = pytest.mark.parametrize("registry_url", ["sqlite"], indirect=True)
POSTGRESQL_ONLY = pytest.mark.parametrize("registry_url", ["postgresql"], indirect=True)


@pytest.fixture
def registry(registry_url: str) -> Iterator[Registry]:
    yield from state_registry(registry_url)


def school_alvara(registry: Registry, *, on: date, placa: str | None = None,
                  renavam: str | None = None) -> IssuedRecord:
    data = example("alvara-transporte-escolar")
    if placa is not None:
        data["veiculo"].update(placa=placa, renavam=renavam)
    return act(registry, "ALV-ESC", "alvara-transporte-escolar", data, on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2026-12-31"})


def revogacao(registry: Registry, alvara: IssuedRecord, *, on: date) -> IssuedRecord:
    data = example("decisao-revogacao-alvara")
    data["alvara"]["numero"] = alvara.printed
    return act(registry, "REV-ESC", "decisao-revogacao-alvara", data, on=on)


def granted_appeal(registry: Registry, appealed: IssuedRecord, *, on: date) -> IssuedRecord:
    """The Prefeito grants the appeal of escolar art. 25 against ``appealed``."""
    data = example("decisao-recurso-prefeito")
    data["recurso"].update(hipotese="transporte-escolar#art25", data_protocolo="2026-07-06")
    data["ato_recorrido"] = {"especie": "decisao", "numero": appealed.printed,
                             "data": "2026-07-01", "data_ciencia": "2026-07-01"}
    data["decisao"].update(data=on.isoformat(), resultado="provido")
    return act(registry, "DEC-GP", "decisao-recurso-prefeito", data, on=on,
               computed={"resultado": "provido", "conhecido": True,
                         "resultado_rotulo": "Recurso conhecido e provido"})


@SQLITE_ONLY
def test_a_school_alvara_restored_while_its_holder_holds_another_cites_art_14(
    registry: Registry,
) -> None:
    """Escolar art. 14: the revoked alvará's holder obtained another school alvará (another
    vehicle) before the appeal was granted. The reversal, and the cancellation of the
    revogação, would give one person two: refused naming the one in force and the
    article, nothing recorded."""
    revoked = school_alvara(registry, on=date(2026, 3, 10))
    revocation = revogacao(registry, revoked, on=date(2026, 7, 1))
    held = school_alvara(registry, on=date(2026, 7, 10), placa="DEF4G56",
                         renavam="92134546140")
    with pytest.raises(InputError) as refused:
        granted_appeal(registry, revocation, on=date(2026, 8, 3))
    name = example("alvara-transporte-escolar")["titular"]["nome"]
    assert refused.value.message == (
        f"{name} já é titular de licença em vigor: {held.printed}, válida "
        f"até 31/12/2026. O {revoked.printed} não pode ser restabelecido pelo DEC-GP nº "
        f"0001/2026 enquanto ela vigorar {SCHOOL}; encerre-a antes (renovação, cassação, "
        "revogação, devolução ou transferência).")
    assert registry.next_number("DEC-GP", 2026) == 1  # nothing numbered nor recorded
    with pytest.raises(InputError) as cancelled:
        registry.cancel(revocation.series, revocation.year, revocation.number,
                        reason="erro", by="Chefia")
    assert (f"licença em vigor: {held.printed}, válida até 31/12/2026. O {revoked.printed} "
            f"não pode ser restabelecido pelo cancelamento do {revocation.printed} enquanto "
            f"ela vigorar {SCHOOL}") in cancelled.value.message
    assert registry.licence_of(revoked.id).status == "revoked"  # type: ignore[union-attr]
    assert registry.rebuild_state(apply=False).same


def recall(registry: Registry, alvara: str, *, on: date) -> IssuedRecord:
    receipt = example("recibo-recolhimento-alvara")
    receipt["alvara"]["numero"] = alvara
    receipt["veiculo"]["placa"] = "ABC1D23"
    return act(registry, "REC-ALV-FRET", "recibo-recolhimento-alvara", receipt, on=on)


def give_back(registry: Registry, alvara: str, receipt: IssuedRecord, *,
              on: date) -> IssuedRecord:
    back = example("termo-devolucao-alvara")
    back["recibo"]["numero"] = receipt.printed
    back["alvara"]["numero"] = alvara
    back["veiculo"]["placa"] = "ABC1D23"
    return act(registry, "DEV-ALV-FRET", "termo-devolucao-alvara", back, on=on)


def other_company(registry: Registry, *, on: date) -> IssuedRecord:
    """Another company's ALV-FRET for the same vehicle (ABC1D23)."""
    other = example("alvara-fretamento")
    other["empresa"].update(cnpj="11.222.333/0001-81", razao_social="Outra Viação Ltda.")
    return act(registry, "ALV-FRET", "alvara-fretamento", other, on=on,
               computed={"inicio_vigencia": on.isoformat(), "valido_ate": "2031-04-06"})


@POSTGRESQL_ONLY
def test_a_devolucao_and_a_new_alvara_for_the_vehicle_at_once(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, waiting: Callable[[], bool],
) -> None:
    """Fretamento art. 21, § 4º: while the alvará is recalled, another company's alvará for
    the vehicle and its devolução are issued at the same moment. The devolução's write
    waits on the other's uncommitted row in ``uq_licences_vehicle_in_force`` and is
    refused once it commits: the state read again names it and the article."""
    alvara = alvara_fretamento(registry).printed
    receipt = recall(registry, alvara, on=date(2026, 4, 6))
    taken, refused = race(monkeypatch, waiting,
                          lambda: other_company(registry, on=date(2026, 4, 7)),
                          lambda: give_back(registry, alvara, receipt, on=date(2026, 4, 7)))
    assert isinstance(taken, IssuedRecord), taken
    assert isinstance(refused, LavraError), refused
    assert (f"O veículo ABC1D23 já tem licença em vigor: {taken.printed}, válida até "
            f"06/04/2031. O {alvara} não pode ser devolvido pelo DEV-ALV-FRET nº 0001/2026 "
            f"enquanto ela vigorar {CHARTER}") in refused.message
    assert "mesmo instante" not in refused.message
    assert registry.next_number("DEV-ALV-FRET", 2026) == 1  # nothing numbered nor recorded
    assert registry.rebuild_state(apply=False).same


ACCESSORIES = ("selo-identificacao", "alvara-condutor-auxiliar",
               "autorizacao-publicidade-escolar", "autorizacao-veiculo-terceiro",
               "licenca-temporaria-escolar")


def effects_of(form: str, data: dict[str, Any]) -> Sequence[Effect]:
    found = pacote().effects[form]
    return found(Act(document_id=1, form=form, series="X", printed="X nº 0001/2026",
                     data=data, computed={}, reference_date=date(2026, 4, 6),
                     valid_until=date(2026, 12, 31)))


def test_the_packs_accessories_hold_no_place() -> None:
    """Each accessory the devolução (or a reversal) gives back with its alvará rests on it
    and declares neither group: the partial unique indexes (``exclusive`` or
    ``per_holder`` not null) never hold it, so it cannot collide; its operating alvará
    does (the test would fail if one were put in a group unseen)."""
    for form in ACCESSORIES:
        grants = [e for e in effects_of(form, example(form)) if isinstance(e, Grant)]
        assert grants and all(g.rests_on for g in grants), form
        assert all(g.exclusive is None and g.per_holder is None for g in grants), form
    [alvara] = [e for e in effects_of("alvara-transporte-escolar",
                                      example("alvara-transporte-escolar"))
                if isinstance(e, Grant)]
    assert alvara.exclusive and alvara.per_holder
    assert alvara.per_holder_basis == SCHOOL[1:-1]


def grouped_accessory(act: Act) -> Sequence[Effect]:
    """A pack whose selo is one per vehicle (group ``selo``), to show the engine's words."""
    return [Grant(kind=act.form, holder=PartyRef("65.563.842/0001-05"),
                  vehicle=VehicleRef("ABC1D23"), valid_from=act.reference_date,
                  valid_until=None, rests_on="ALV-FRET nº 0001/2026", exclusive="selo",
                  citation="lei#art9", basis="art. 9º da Lei de Teste")]


def lone_selo(act: Act) -> Sequence[Effect]:
    return [Grant(kind=act.form, holder=PartyRef("65.563.842/0001-05"),
                  vehicle=VehicleRef("ABC1D23"), valid_from=act.reference_date,
                  valid_until=None, exclusive="selo", citation="lei#art9",
                  basis="art. 9º da Lei de Teste")]


@SQLITE_ONLY
def test_an_accessory_given_back_into_a_taken_place_is_refused_by_name(
    registry: Registry,
) -> None:
    """Engine level: a pack declaring an accessory in a group. The recolhimento ends it
    with its alvará; meanwhile another selo of the group took the vehicle; the devolução
    gives the alvará back but not the selo: refused naming the selo in force and the
    selo's provision, never the database's conflict, nothing written."""
    effects = dict(pacote().effects)
    effects["selo-identificacao"] = grouped_accessory
    effects["autorizacao-publicidade-escolar"] = lone_selo
    registry.use_effects(effects)
    alvara = alvara_fretamento(registry).printed
    selo = act(registry, "SELO-X", "selo-identificacao", {}, on=date(2026, 3, 3))
    receipt = recall(registry, alvara, on=date(2026, 4, 6))
    assert registry.licence_of(selo.id).status == "ended"  # type: ignore[union-attr]
    other = act(registry, "PUB-X", "autorizacao-publicidade-escolar", {},
                on=date(2026, 4, 6))
    with pytest.raises(InputError) as refused:
        give_back(registry, alvara, receipt, on=date(2026, 4, 7))
    assert refused.value.message == (
        f"O veículo ABC1D23 já tem licença em vigor: {other.printed}. O {selo.printed} não "
        f"pode ser restabelecido com o {alvara}, devolvido pelo DEV-ALV-FRET nº 0001/2026, "
        "enquanto ela vigorar (art. 9º da Lei de Teste); encerre-a antes (renovação, "
        "cassação, revogação, devolução ou transferência).")
    assert registry.next_number("DEV-ALV-FRET", 2026) == 1
    assert registry.licence_of(selo.id).status == "ended"  # type: ignore[union-attr]


@SQLITE_ONLY
def test_a_licence_granted_before_the_basis_was_kept_names_the_rule_alone(
    registry: Registry,
) -> None:
    """A registry whose grants predate the kept basis (no migration): the refusal names
    the licence in force and its validity, and no raw citation id; ``lavra cadastro
    reconstruir`` replays the grant, which then keeps it."""
    revoked = school_alvara(registry, on=date(2026, 3, 10))
    revocation = revogacao(registry, revoked, on=date(2026, 7, 1))
    held = school_alvara(registry, on=date(2026, 7, 10), placa="DEF4G56",
                         renavam="92134546140")
    with registry.write_session() as session:  # as an older lavra recorded the grant
        session.execute(update(StateChangeRow).where(StateChangeRow.kind == "grant")
                        .values(before=None))
    with pytest.raises(InputError) as refused:
        granted_appeal(registry, revocation, on=date(2026, 8, 3))
    assert refused.value.message.endswith(
        "enquanto ela vigorar; encerre-a antes (renovação, cassação, revogação, devolução "
        "ou transferência).")
    assert held.printed in refused.value.message and "#" not in refused.value.message
    registry.rebuild_state(apply=True)
    with registry.read_session() as session:
        licence = session.scalars(select(LicenceRow).where(
            LicenceRow.document_id == revoked.id)).one()
        assert granted_basis(session, licence, "per_holder") == SCHOOL[1:-1]

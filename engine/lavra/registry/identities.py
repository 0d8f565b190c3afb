"""The identities the licensing state keeps consistent: a vehicle has one RENAVAM (and a
RENAVAM one vehicle), a CNH one person.

The same lookups serve two moments. When an act is recorded, the state's writer
refuses an act that breaks them (:meth:`lavra.registry.state.StateWriter.vehicle` and
``driver``), or, replaying history, records the divergência. Before that, the draft
shows them as completeness items (:func:`identity_conflicts`, through
:meth:`lavra.draftstate.DraftStateChecks.state_items`): the pack's effects of the
form are run over the draft, and each vehicle and driver they would write is looked up,
so that staff see the conflict before signing and a run refuses before numbering. Each
item cites the provision of the effect that names the vehicle or the driver.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from lavra.errors import InputError, LavraError
from lavra.inputs.formats import mask_cpf_cnpj
from lavra.registry.effects import Act, DriverRef, Effect, EffectsOf, VehicleRef
from lavra.registry.identifiers import plate_forms
from lavra.registry.licence_reads import plate_renavam_key
from lavra.registry.records import normalize_cpf_cnpj, normalize_plate
from lavra.registry.statements import (
    DRIVER_AND_PERSON,
    RENAVAM_ELSEWHERE,
    VEHICLE_BY_PLATE_OR_RENAVAM,
)
from lavra.registry.tables import DriverRow, PartyRow, VehicleRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["Conflict", "cnh_conflict", "digits", "draft_effects", "effect_identity_conflicts",
           "identity_conflicts",
           "plate_and_renavam", "renavam_elsewhere", "renavam_other"]


VEHICLES_BY_PLATE = select(VehicleRow).where(
    VehicleRow.placa.in_(bindparam("forms", expanding=True))).order_by(VehicleRow.id)
"""The vehicles of a plate (``forms``: its forms), first registered first."""


def digits(value: str) -> str:
    return "".join(ch for ch in value if ch.isdigit())


@dataclass(frozen=True)
class Conflict:
    """An identity the draft contradicts: ``error`` (pt-BR, the record-time refusal's
    words), ``typed`` (the value as the draft types it, to find its field) and
    ``citation`` (the provision of the effect that names it; "" when it has none)."""

    error: InputError
    typed: str
    citation: str


def renavam_elsewhere(session: Session, placa: str,
                      renavam: str) -> tuple[VehicleRow, InputError] | None:
    """The vehicle of another plate that holds ``renavam`` (digits), with the refusal."""
    found = session.scalars(
        RENAVAM_ELSEWHERE, {"renavam": renavam, "placas": plate_forms(placa)}).first()
    return None if found is None else (found, _elsewhere(found, placa, renavam))


def plate_and_renavam(session: Session, placa: str, renavam: str
                      ) -> tuple[VehicleRow | None, tuple[VehicleRow, InputError] | None]:
    """The vehicle of ``placa`` (any of its forms; the first registered) and what
    :func:`renavam_elsewhere` answers, read by one statement: the RENAVAM (digits; none:
    the plate alone) is unique, at most one row holds it."""
    forms = plate_forms(placa)
    if not renavam:
        return session.scalars(VEHICLES_BY_PLATE, {"forms": list(forms)}).first(), None
    rows = session.scalars(VEHICLE_BY_PLATE_OR_RENAVAM,
                           {"placas": forms, "renavam": renavam}).all()
    other = next((r for r in rows if r.renavam == renavam and r.placa not in forms), None)
    return (next((r for r in rows if r.placa in forms), None),
            None if other is None else (other, _elsewhere(other, placa, renavam)))


def _elsewhere(found: VehicleRow, placa: str, renavam: str) -> InputError:
    """The refusal of :func:`renavam_elsewhere`: ``found`` holds ``renavam`` under its
    own plate."""
    return InputError(
        f"O RENAVAM {renavam} consta do cadastro no veículo de placa {found.placa}, não na "
        f"placa {placa}: confira a placa e o RENAVAM (um veículo tem um só RENAVAM).",
        field="/veiculo/renavam",
    )


def renavam_other(row: VehicleRow, placa: str, renavam: str) -> InputError | None:
    """The refusal when the plate's vehicle ``row`` holds another RENAVAM than ``renavam``."""
    if not renavam or row.renavam is None or row.renavam == renavam:
        return None
    return InputError(
        f"O veículo de placa {placa} consta do cadastro com o RENAVAM {row.renavam}, não "
        f"{renavam}: confira a placa e o RENAVAM.",
        field="/veiculo/renavam",
    )


def cnh_conflict(session: Session, row: DriverRow | None, person: PartyRow | None,
                 cnh: str) -> InputError | None:
    """The refusal when the CNH's driver ``row`` belongs to another person than ``person``."""
    if row is None or person is None or row.party_id is None or row.party_id == person.id:
        return None
    holder = session.get(PartyRow, row.party_id)
    return InputError(
        f"A CNH nº {cnh} consta do cadastro em nome de "
        f"{(holder.name or mask_cpf_cnpj(holder.doc)) if holder is not None else 'outra pessoa'}, "
        f"não de {person.name or mask_cpf_cnpj(person.doc)}: confira o número da CNH.",
        field="/cnh/numero",
    )


def _named(effects: Sequence[Effect]) -> Iterator[tuple[VehicleRef | DriverRef, str]]:
    """Each vehicle and driver the effects name, with the citation of its effect."""
    for effect in effects:
        if not is_dataclass(effect):
            continue
        citation = getattr(effect, "citation", "")
        for spec in fields(effect):
            value = getattr(effect, spec.name)
            for ref in value if isinstance(value, tuple) else (value,):
                if isinstance(ref, (VehicleRef, DriverRef)):
                    yield ref, citation if isinstance(citation, str) else ""


def _vehicle(session: Session, ref: VehicleRef, citation: str) -> Conflict | None:
    try:
        placa = normalize_plate(ref.placa)
    except InputError:
        return None
    renavam = digits(ref.renavam) if isinstance(ref.renavam, str) else ""
    if not renavam:
        return None
    # One query for both questions of renavam_elsewhere and the plate's own vehicle (the
    # RENAVAM is unique: at most one row holds it).
    forms = plate_forms(placa)
    rows = session.scalars(VEHICLE_BY_PLATE_OR_RENAVAM,
                           {"placas": forms, "renavam": renavam}).all()
    other = next((r for r in rows if r.renavam == renavam and r.placa not in forms), None)
    if other is not None:
        return Conflict(_elsewhere(other, placa, renavam), str(ref.renavam), citation)
    row = next((r for r in rows if r.placa in forms), None)
    error = None if row is None else renavam_other(row, placa, renavam)
    return None if error is None else Conflict(error, str(ref.renavam), citation)


def _agrees(registry: Registry, ref: VehicleRef) -> bool:
    """Whether the read scope already holds the RENAVAM of the first vehicle registered
    under ``ref``'s plate (:func:`lavra.registry.licence_reads.plate_renavam_key`, read
    with its licences) and it is ``ref``'s: then :func:`_vehicle` finds no conflict (the
    plate's vehicle holds it; unique, no vehicle of another plate does)."""
    renavam = digits(ref.renavam) if isinstance(ref.renavam, str) else ""
    if not renavam:
        return False
    try:
        key = plate_renavam_key(plate_forms(normalize_plate(ref.placa)))
    except InputError:
        return False
    return bool(registry.recalled(key) == renavam)


def _driver(session: Session, ref: DriverRef, citation: str) -> Conflict | None:
    cnh = digits(ref.cnh) if isinstance(ref.cnh, str) else ""
    doc = ref.person.doc if ref.person is not None else None
    if not cnh or not isinstance(doc, str) or not digits(doc):
        return None
    try:
        wanted = normalize_cpf_cnpj(doc)
    except InputError:
        return None
    # the CNH's driver and the draft's person in one statement (both unique)
    found = session.execute(DRIVER_AND_PERSON, {"cnh": cnh, "doc": wanted}).one_or_none()
    row, person = (None, None) if found is None else (found[0], found[1])
    if row is None or row.party_id is None:
        return None
    if person is None:  # a person the registry does not know yet: not the CNH's holder
        name = ref.person.name if ref.person is not None else None
        person = PartyRow(id=-1, doc=wanted, name=name if isinstance(name, str) else None)
    error = cnh_conflict(session, row, person, cnh)
    return None if error is None else Conflict(error, str(ref.cnh), citation)


def draft_effects(effects_of: EffectsOf | None, form: str, data: Mapping[str, Any],
                  computed: Mapping[str, Any], on: date) -> list[Effect]:
    """The pack's effects of ``form`` run over a draft dated ``on``; none when it declares
    none or they cannot be read from a draft still incomplete (its own checks say what
    lacks)."""
    if effects_of is None:
        return []
    act = Act(document_id=0, form=form, series="", printed="", data=data,
              computed=computed, reference_date=on, valid_until=None)
    try:
        return list(effects_of(act))
    except (LavraError, KeyError, TypeError, ValueError, AttributeError):
        return []


def identity_conflicts(registry: Registry, effects_of: EffectsOf | None, form: str,
                       data: Mapping[str, Any], computed: Mapping[str, Any],
                       on: date) -> list[Conflict]:
    """The RENAVAM and CNH conflicts the draft of ``form`` would be refused for when
    recorded (module doc). Nothing when the pack declares no effects for the form or
    they cannot be read from a draft still incomplete (its own checks say what lacks)."""
    return effect_identity_conflicts(registry,
                                     draft_effects(effects_of, form, data, computed, on))


def effect_identity_conflicts(registry: Registry, effects: Sequence[Effect]) -> list[Conflict]:
    """:func:`identity_conflicts` of the effects already run over the draft (the checks
    of one draft share one run of them, :mod:`lavra.draftstate`)."""
    found: list[Conflict] = []
    with registry.database_errors(), registry.read_session() as session:
        for ref, citation in _named(effects):
            if isinstance(ref, VehicleRef) and _agrees(registry, ref):
                continue  # what _vehicle would answer: no conflict
            # once per read scope: one holder's checks in a plan name the same refs
            lookup = (partial(_vehicle, session, ref, citation) if isinstance(ref, VehicleRef)
                      else partial(_driver, session, ref, citation))
            conflict = registry.remembered(("identity", ref, citation), lookup)
            if conflict is not None and conflict.error.message not in {
                    c.error.message for c in found}:
                found.append(conflict)
    return found

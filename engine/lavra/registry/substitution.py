"""A change of vehicle (:class:`~lavra.registry.effects.ChangeVehicle`): another vehicle
takes a licence's place from the act's date.

The licence keeps its number, holder and validity; its vehicle becomes the new one
(the old one is then free: no licence in force names it). The new vehicle may hold no
licence in force of the licence's exclusive group (the same refusal as a grant's). The
accessories resting on the licence that named the old vehicle end with the change
(their own acts identified that vehicle). Each change keeps what the licence was
before, so that cancelling the act undoes it (:meth:`StateWriter.undo`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from lavra.errors import InputError
from lavra.registry.accessories import end_vehicle_bound
from lavra.registry.effects import STATUS_TEXT, Act, ChangeVehicle, LicenceStatus
from lavra.registry.guards import Refusal, held_refusal
from lavra.registry.licence_facts import replaced
from lavra.registry.reversal import snapshot
from lavra.registry.tables import LicenceRow, VehicleRow

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["change_vehicle", "refuse_undo"]

IN_FORCE = "a regra que só admite a troca do veículo de licença em vigor"
OTHER_VEHICLE = "a regra de que a troca de veículo indica outro veículo"


def change_vehicle(writer: StateWriter, act: Act, effect: ChangeVehicle) -> None:
    """Put ``effect.vehicle`` in the place of the licence ``effect.target``."""
    session = writer.session
    licence = writer.licence(effect.target)
    if licence is None:
        return
    cited = f" ({effect.basis})" if effect.basis else ""
    if licence.status != LicenceStatus.ACTIVE.value:
        writer.refuse_or_diverge(act, Refusal(InputError(
            f"O {licence.printed} não está em vigor "
            f"({STATUS_TEXT.get(licence.status, licence.status)}): o veículo de uma licença "
            f"encerrada não se substitui{cited}.",
            field="/alvara/numero",
        ), IN_FORCE, effect.basis), licence=licence)
    vehicle = writer.vehicle(effect.vehicle, act)
    if vehicle is None:
        return
    if writer.refuse_or_diverge(act, None if vehicle.id != licence.vehicle_id else Refusal(
        InputError(f"O veículo de placa {vehicle.placa} já é o do {licence.printed}: a troca "
                   "de veículo indica outro veículo.", field="/veiculo_novo/placa"),
        OTHER_VEHICLE, effect.basis), licence=licence):
        return  # replayed: nothing changes
    before = snapshot(licence)
    if licence.exclusive and writer.refuse_or_diverge(act, held_refusal(
        writer, act, (LicenceRow.vehicle_id == vehicle.id)
        & (LicenceRow.exclusive == licence.exclusive) & (LicenceRow.id != licence.id),
        act.reference_date, f"O veículo {vehicle.placa} já tem", "/veiculo_novo/placa",
        effect.basis), licence=licence):
        # Replayed: the licence takes the vehicle the act gave it, out of its group, so
        # that the licence in force there keeps its place (as a grant replayed).
        before["exclusive"] = licence.exclusive
        licence.exclusive = None
    old = None if licence.vehicle_id is None else session.get(VehicleRow, licence.vehicle_id)
    licence.vehicle_id = vehicle.id
    licence.facts = replaced(licence.facts, effect.facts, effect.replaces)
    session.flush()
    was = "" if old is None else f" {old.placa}"
    writer.change(act, "vehicle",
                  f"{licence.printed}: veículo{was} substituído pelo de placa "
                  f"{vehicle.placa}, pelo {act.printed}.",
                  licence=licence, vehicle=vehicle, before=before)
    if old is not None:
        writer.change(act, "vehicle-released",
                      f"Veículo {old.placa} desvinculado do {licence.printed} pelo "
                      f"{act.printed} (troca de veículo).", vehicle=old)
    if effect.ends_accessories and old is not None:
        end_vehicle_bound(writer, act, licence, old.id,
                          f"com a troca de veículo do {licence.printed}")


def refuse_undo(writer: StateWriter, licence: LicenceRow, before: object,
                printed: str) -> None:
    """Cancelling a change of vehicle gives the licence its old vehicle back: refused
    while another licence of its group holds that vehicle in force."""
    kept = before if isinstance(before, dict) else {}
    old_id = kept.get("vehicle_id")
    group = kept.get("exclusive", licence.exclusive)  # kept when replayed out of it
    if not isinstance(old_id, int) or not group:
        return
    taken = writer.session.scalars(
        select(LicenceRow).where(LicenceRow.vehicle_id == old_id, LicenceRow.id != licence.id,
                                 LicenceRow.exclusive == group,
                                 LicenceRow.status == LicenceStatus.ACTIVE.value)
        .limit(1)
    ).first()
    if taken is not None:
        raise InputError(
            f"O documento {printed} não pode ser cancelado: o veículo que ele substituiu "
            f"tem hoje o {taken.printed}. Encerre antes essa licença.",
            field="/numero",
        )

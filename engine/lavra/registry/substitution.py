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
from lavra.registry.effects import STATUS_TEXT, Act, ChangeVehicle, LicenceStatus
from lavra.registry.reversal import snapshot
from lavra.registry.tables import LicenceRow, VehicleRow

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["change_vehicle"]


def change_vehicle(writer: StateWriter, act: Act, effect: ChangeVehicle) -> None:
    """Put ``effect.vehicle`` in the place of the licence ``effect.target``."""
    session = writer.session
    licence = writer.licence(effect.target)
    if licence is None:
        return
    if licence.status != LicenceStatus.ACTIVE.value:
        raise InputError(
            f"O {licence.printed} não está em vigor "
            f"({STATUS_TEXT.get(licence.status, licence.status)}): o veículo de uma licença "
            f"encerrada não se substitui ({effect.citation}).",
            field="/alvara/numero",
        )
    vehicle = writer.vehicle(effect.vehicle, act)
    if vehicle is None:
        return
    if vehicle.id == licence.vehicle_id:
        raise InputError(
            f"O veículo de placa {vehicle.placa} já é o do {licence.printed}: a troca "
            "de veículo indica outro veículo.",
            field="/veiculo_novo/placa",
        )
    if licence.exclusive:
        writer.refuse_held(
            act, (LicenceRow.vehicle_id == vehicle.id)
            & (LicenceRow.exclusive == licence.exclusive) & (LicenceRow.id != licence.id),
            act.reference_date, f"O veículo {vehicle.placa} já tem", "/veiculo_novo/placa",
            f" ({effect.basis})" if effect.basis else "")
    old = None if licence.vehicle_id is None else session.get(VehicleRow, licence.vehicle_id)
    before = snapshot(licence)
    licence.vehicle_id = vehicle.id
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
    if not effect.ends_accessories or old is None:
        return
    for accessory in session.scalars(
        select(LicenceRow).where(LicenceRow.base_id == licence.id,
                                 LicenceRow.vehicle_id == old.id,
                                 LicenceRow.status == LicenceStatus.ACTIVE.value)
    ).all():
        writer.set_status(act, accessory, LicenceStatus.ENDED.value, "ended",
                          f"{accessory.printed} encerrado com a troca de veículo do "
                          f"{licence.printed} pelo {act.printed}.")


def refuse_undo(writer: StateWriter, licence: LicenceRow, before: object,
                printed: str) -> None:
    """Cancelling a change of vehicle gives the licence its old vehicle back: refused
    while another licence of its group holds that vehicle in force."""
    old_id = before.get("vehicle_id") if isinstance(before, dict) else None
    if not isinstance(old_id, int) or not licence.exclusive:
        return
    taken = writer.session.scalars(
        select(LicenceRow).where(LicenceRow.vehicle_id == old_id, LicenceRow.id != licence.id,
                                 LicenceRow.exclusive == licence.exclusive,
                                 LicenceRow.status == LicenceStatus.ACTIVE.value)
        .limit(1)
    ).first()
    if taken is not None:
        raise InputError(
            f"O documento {printed} não pode ser cancelado: o veículo que ele substituiu "
            f"tem hoje o {taken.printed}. Encerre antes essa licença.",
            field="/numero",
        )

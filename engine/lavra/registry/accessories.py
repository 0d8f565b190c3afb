"""The accessories of a licence when its holder or its vehicle changes.

An accessory is a licence granted resting on another (``Grant.rests_on``: a selo, an
authorisation bound to the licence, which ends with it). Two rules:

- **Vehicle-bound accessories end with the vehicle** (:func:`end_vehicle_bound`): when
  another vehicle takes the licence's place, by a change of vehicle
  (:class:`lavra.registry.effects.ChangeVehicle`) or by a transfer that brings another
  vehicle (:class:`lavra.registry.effects.Transfer` with ``ends_accessories``), the
  accessories in force that named the old vehicle end in the same transaction (their
  own acts identified that vehicle: a selo, a publicity authorisation for it).
- **The others follow the licence** (:func:`follow_transfer`): a transfer moves the
  licence to another holder; the accessories the cedente held in his own name and in
  force move with it to the cessionário: they correspond to the licence, not to the
  person (the selo "correspondente à licença", for instance). An accessory in another
  person's name (an auxiliary driver's alvará) keeps its holder.

Each end or move is a change of the act, undone with it (cancelling the termo gives the
old vehicle's selo back in force, in the cedente's name).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from lavra.registry.effects import Act, LicenceStatus
from lavra.registry.reversal import snapshot
from lavra.registry.tables import LicenceRow, PartyRow, VehicleRow

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["end_vehicle_bound", "follow_transfer"]


def end_vehicle_bound(writer: StateWriter, act: Act, licence: LicenceRow, old_vehicle: int,
                      why: str) -> None:
    """End the accessories in force of ``licence`` that name ``old_vehicle`` (the vehicle
    the act took from it); ``why`` completes the history line ("com a troca de veículo
    do …")."""
    for accessory in writer.session.scalars(
        select(LicenceRow).where(LicenceRow.base_id == licence.id,
                                 LicenceRow.vehicle_id == old_vehicle,
                                 LicenceRow.status == LicenceStatus.ACTIVE.value)
        .order_by(LicenceRow.id)
    ).all():
        writer.set_status(act, accessory, LicenceStatus.ENDED.value, "ended",
                          f"{accessory.printed} encerrado {why} pelo {act.printed}.")


def follow_transfer(writer: StateWriter, act: Act, licence: LicenceRow, cedente: int | None,
                    vehicle: int | None, holder: PartyRow, *, ends_accessories: bool) -> None:
    """After the transfer of ``licence`` to ``holder``: with another vehicle (``vehicle``
    is the licence's vehicle before the transfer), the old vehicle's history says it
    left the licence and, with ``ends_accessories``, its accessories end; then those
    still in force that ``cedente`` (party id) held move to ``holder``."""
    moved = vehicle is not None and vehicle != licence.vehicle_id
    old = writer.session.get(VehicleRow, vehicle) if moved else None
    if old is not None:
        writer.change(act, "vehicle-released",
                      f"Veículo {old.placa} desvinculado do {licence.printed} pelo "
                      f"{act.printed} (transferência com outro veículo).", vehicle=old)
    if ends_accessories and old is not None:
        end_vehicle_bound(writer, act, licence, old.id,
                          f"com a transferência do {licence.printed} com outro veículo,")
    if cedente is None or cedente == holder.id:
        return
    for accessory in writer.session.scalars(
        select(LicenceRow).where(LicenceRow.base_id == licence.id,
                                 LicenceRow.status == LicenceStatus.ACTIVE.value,
                                 LicenceRow.holder_id == cedente)
        .order_by(LicenceRow.id)
    ).all():
        before = snapshot(accessory)
        accessory.holder_id = holder.id
        writer.change(act, "transferred",
                      f"{accessory.printed} acompanha o {licence.printed}, transferido pelo "
                      f"{act.printed}.", licence=accessory, party=holder, before=before)

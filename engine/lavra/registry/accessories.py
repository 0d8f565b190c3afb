"""The accessories of a transferred licence follow it to the new holder.

An accessory is a licence granted resting on another (``Grant.rests_on``: a selo, an
authorisation bound to the licence, which ends with it). A transfer moves the licence
to another holder (:class:`lavra.registry.effects.Transfer`); the accessories the
cedente held in his own name, in force and of the licence's own vehicle, move with it
to the cessionário: they correspond to the licence, not to the person (the selo
"correspondente à licença", for instance). An accessory in another person's name (an
auxiliary driver's alvará) keeps its holder; one whose licence the transfer put on
another vehicle stays as it was (it identifies the vehicle it was granted for). Each
move is a change of the transfer act, undone with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from lavra.registry.effects import Act, LicenceStatus
from lavra.registry.reversal import snapshot
from lavra.registry.tables import LicenceRow, PartyRow

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["follow_transfer"]


def follow_transfer(writer: StateWriter, act: Act, licence: LicenceRow, cedente: int | None,
                    vehicle: int | None, holder: PartyRow) -> None:
    """Move to ``holder`` the accessories of ``licence`` held by ``cedente`` (party id)
    while ``licence`` keeps the vehicle ``vehicle`` (its vehicle before the transfer)."""
    if cedente is None or cedente == holder.id or licence.vehicle_id != vehicle:
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

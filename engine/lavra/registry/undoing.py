"""Undoing an act's effects on the licensing state, when the act is cancelled.

What the act changed is read back from its :class:`~lavra.registry.tables.StateChangeRow`
rows (each holding what the licence was before) and put back, latest first; a
cancellation is refused while a later act rests on what this one did (a change of a
licence it touched, an accessory granted on a licence it granted, a citation of it).
The writer is :class:`lavra.registry.state.StateWriter` (its method ``undo``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.citations import refuse_cited, undo_citations
from lavra.registry.guards import DIVERGENCE, GRANT
from lavra.registry.reversal import put_back_kept, undo_annulments, undo_lifted
from lavra.registry.substitution import refuse_undo
from lavra.registry.tables import (
    BarRow,
    DocumentRow,
    LicenceRow,
    PartyNameRow,
    PartyRow,
    ProcessoActRow,
    StateChangeRow,
    VehicleRow,
)

if TYPE_CHECKING:
    from lavra.registry.state import StateWriter

__all__ = ["undo_act"]


def undo_act(writer: StateWriter, document_id: int, printed: str) -> None:
    """Undo what the act did; InputError naming the later act that rests on it."""
    session = writer.session
    refuse_cited(session, document_id, printed)
    changes = session.scalars(
        select(StateChangeRow).where(StateChangeRow.document_id == document_id)
        .order_by(StateChangeRow.id)
    ).all()
    touched = {c.licence_id for c in changes if c.licence_id is not None}
    if changes and touched:
        later = session.execute(
            select(StateChangeRow.detail, DocumentRow.series, DocumentRow.number,
                   DocumentRow.year)
            .join(DocumentRow, DocumentRow.id == StateChangeRow.document_id)
            .where(StateChangeRow.licence_id.in_(touched),
                   StateChangeRow.id > changes[0].id,
                   StateChangeRow.document_id != document_id)
            .order_by(StateChangeRow.id).limit(1)
        ).first()
        granted = {c.licence_id for c in changes if c.kind == GRANT and c.licence_id}
        detail = later[0] if later is not None else _resting(session, granted, document_id)
        if detail is not None:
            raise InputError(
                f"O documento {printed} não pode ser cancelado: um ato posterior se "
                f"apoia nele ({detail.rstrip('.')}). Cancele antes o ato posterior.",
                field="/numero",
            )
    for change in changes:
        if change.kind == "vehicle" and change.licence_id is not None:
            licence = session.get(LicenceRow, change.licence_id)
            if licence is not None:
                refuse_undo(writer, licence, change.before, printed)
    undo_lifted(session, document_id, printed, list(changes))
    undo_annulments(session, document_id, list(changes))
    undo_citations(session, document_id, list(changes))
    for change in reversed(changes):
        if change.kind == "plate" and isinstance(change.before, dict):
            vehicle = session.get(VehicleRow, change.vehicle_id)
            if vehicle is not None and isinstance(change.before.get("placa"), str):
                vehicle.placa = change.before["placa"]
            continue
        if change.licence_id is None:
            continue
        licence = session.get(LicenceRow, change.licence_id)
        if licence is None:
            continue
        if change.kind == GRANT:
            session.delete(change)
            session.flush()
            session.delete(licence)
        elif change.kind != DIVERGENCE and isinstance(change.before, dict):
            put_back_kept(writer, licence, change.before, printed)
    session.flush()
    session.execute(delete(StateChangeRow).where(
        StateChangeRow.document_id == document_id))
    session.execute(delete(BarRow).where(BarRow.document_id == document_id))
    session.execute(delete(ProcessoActRow).where(
        ProcessoActRow.document_id == document_id))
    _forget_names(session, document_id)

def _resting(session: Session, touched: Iterable[int], document_id: int) -> str | None:
    """An accessory granted on a licence this act granted (it rests on it)."""
    row = session.scalars(
        select(LicenceRow).where(LicenceRow.base_id.in_(list(touched)),
                                 LicenceRow.document_id != document_id)
        .order_by(LicenceRow.id).limit(1)
    ).first()
    return None if row is None else f"{row.printed} vinculado a ele"

def _forget_names(session: Session, document_id: int) -> None:
    rows = session.scalars(
        select(PartyNameRow).where(PartyNameRow.document_id == document_id)
    ).all()
    for row in rows:
        party = session.get(PartyRow, row.party_id)
        session.delete(row)
        session.flush()
        if party is not None and party.name == row.name:
            latest = session.scalars(
                select(PartyNameRow.name).where(PartyNameRow.party_id == party.id)
                .order_by(PartyNameRow.since.desc().nulls_last(), PartyNameRow.id.desc())
                .limit(1)
            ).first()
            party.name = latest

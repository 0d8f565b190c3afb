"""The cancelled acts of a timeline (:meth:`lavra.registry.licensing.RegistryState.timeline`):
the history is act by act, so an act cancelled stays in it, marked «cancelado em
DD/MM/AAAA (motivo: …)», with what it had changed in the cadastro shown as undone,
while the licence's current status is the one restored.

Readings chosen:

* Cancelling an act deletes its changes of the state (:meth:`lavra.registry.state.
  StateWriter.undo`: every reader of ``state_changes`` then sees only what stands), so
  the cancelled act is found through the documents' own indexes, which keep it with its
  cancellation: ``documents.cpf_cnpj`` for a party's history, ``documents.placa`` for a
  vehicle's, either for a licence's (its holder's CPF/CNPJ or its vehicle's plate),
  never a scan of the documents.
* What it had changed: the licences its effects named (the pack's effects run again
  over its data, as ``lavra cadastro reconstruir`` does); a licence's history lists a
  cancelled act only when its effects named that licence. A party's or a vehicle's
  lists every cancelled act naming it, even one that had changed nothing.
* Dated by its reference date, as its changes of the state were.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from lavra.registry.effects import Effect, Grant, Mention
from lavra.registry.identifiers import same_plate
from lavra.registry.records import Status, local_date, printed_number
from lavra.registry.tables import DocumentRow, LicenceRow, PartyRow, VehicleRow
from lavra.textutil import format_date

__all__ = ["cancelled_acts"]

CancelledAct = tuple[date, str, str, int]
"""(reference date, act printed, what the timeline says of it, registry id)."""


def _targets(effects: Sequence[Effect], printed: str) -> tuple[str, ...]:
    """The licences (as printed) the effects changed, in their order, once each: the
    act's own (``printed``) for a :class:`~lavra.registry.effects.Grant`; a
    :class:`~lavra.registry.effects.Mention` names an act and changes nothing."""
    named = (printed if isinstance(effect, Grant) else getattr(effect, "target", None)
             for effect in effects if not isinstance(effect, Mention))
    return tuple(dict.fromkeys(t for t in named if isinstance(t, str)))


def _detail(row: DocumentRow, targets: tuple[str, ...]) -> str:
    when = ("" if row.cancelled_at is None
            else f" em {format_date(local_date(row.cancelled_at, '/cancelado_em'))}")
    reason = (row.cancel_reason or "").strip().rstrip(".")
    undone = (f"; desfeito o que alterou no cadastro ({', '.join(targets)})"
              if targets else "")
    return f"Ato cancelado{when}" + (f" (motivo: {reason})" if reason else "") + f"{undone}."


def cancelled_acts(session: Session, effects_of: Callable[[DocumentRow], Sequence[Effect]],
                   *, doc: str | None = None, placa: str | None = None,
                   licence_document: int | None = None,
                   document_ids: Iterable[int] | None = None) -> list[CancelledAct]:
    """The cancelled acts of the party ``doc`` (normalized), of the vehicle ``placa``, of
    the licence granted by ``licence_document``, or among ``document_ids``, oldest first
    (the module's readings); ``effects_of``: the pack's effects of a document's act."""
    stmt = select(DocumentRow).where(DocumentRow.status == Status.CANCELLED.value)
    licence: str | None = None
    if doc is not None:
        stmt = stmt.where(DocumentRow.cpf_cnpj == doc)
    elif licence_document is not None:
        found = session.execute(
            select(LicenceRow.printed, PartyRow.doc, VehicleRow.placa)
            .outerjoin(PartyRow, PartyRow.id == LicenceRow.holder_id)
            .outerjoin(VehicleRow, VehicleRow.id == LicenceRow.vehicle_id)
            .where(LicenceRow.document_id == licence_document)).first()
        if found is None:
            return []
        licence, holder, plate = found
        keys = [*([DocumentRow.cpf_cnpj == holder] if holder else []),
                *([same_plate(DocumentRow.placa, plate)] if plate else [])]
        if not keys:
            return []
        stmt = stmt.where(or_(*keys))
    elif document_ids is not None:
        stmt = stmt.where(DocumentRow.id.in_(list(document_ids)))
    elif placa is not None:
        stmt = stmt.where(same_plate(DocumentRow.placa, placa))
    else:
        return []
    found_acts = []
    for row in session.scalars(stmt.order_by(DocumentRow.reference_date, DocumentRow.id)):
        printed = printed_number(row.series, row.number, row.year)
        targets = _targets(effects_of(row), printed)
        if licence is not None and licence not in targets:
            continue
        if row.origin is not None:
            printed = f"{printed} (importado: {row.origin})"
        found_acts.append((row.reference_date, printed, _detail(row, targets), row.id))
    return found_acts

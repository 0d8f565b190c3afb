"""The acts of the registry an act cites and rests on that are not licences (a
cassação its autos and the notice of defence; a decision on appeal the act appealed;
a guia de multa its auto), declared by the pack
(:class:`~lavra.registry.effects.Cites`): used by :class:`lavra.registry.state.
StateWriter`, in the session of the act's record.

Each cited act the registry holds (issued, with its series) gets a mark (kind
:data:`CITED`) under its own id, naming the citing act: the lookup when it is
cancelled is by the indexed ``document_id`` of ``state_changes``, no new table. The
citing act records, kind :data:`CITES`, which acts it marked, so that cancelling it
removes its marks; the rebuild replays them with the acts.

Cancelling an act that a live (not cancelled) act cites is refused, naming that act:
it must be cancelled first (or the matter decided otherwise). An act citing one of
lavra's acts already cancelled is refused (a replayed one records a divergência). A
number the registry lacks, or one without a series (a paper act, a notice numbered
outside lavra's series), is the form's to check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.errors import InputError
from lavra.registry.effects import Cites
from lavra.registry.guards import Refusal
from lavra.registry.identifiers import parse_printed
from lavra.registry.records import printed_number
from lavra.registry.standing import locked
from lavra.registry.tables import DocumentRow, StateChangeRow

if TYPE_CHECKING:
    from lavra.registry.effects import Act
    from lavra.registry.state import StateWriter

__all__ = ["CITED", "CITES", "cite", "refuse_cited", "undo_citations"]

CITED = "cited"
CITES = "cites"
RULE = "a regra de que o ato não se apoia em ato cancelado"


def _cancelled(session: Session, printed: str) -> DocumentRow | None:
    parsed = parse_printed(printed)
    if parsed is None or parsed[0] is None:
        return None
    return session.scalars(select(DocumentRow).where(
        DocumentRow.series == parsed[0].upper(), DocumentRow.number == parsed[1],
        DocumentRow.year == parsed[2], DocumentRow.status == "cancelled")
        .order_by(DocumentRow.id).limit(1)).first()


def _refuse_cancelled(writer: StateWriter, act: Act, effect: Cites, gone: DocumentRow) -> None:
    printed = printed_number(gone.series, gone.number, gone.year)
    writer.refuse_or_diverge(act, Refusal(InputError(
        f"O {printed}, que o {act.printed} cita, foi cancelado: o "
        f"{act.printed} não pode se apoiar nele.", field="/numero"),
        RULE, effect.basis))


def cite(writer: StateWriter, act: Act, effect: Cites) -> None:
    """Mark each act ``effect`` cites as resting under ``act`` (see the module doc)."""
    session = writer.session
    marked: list[int] = []
    names: list[str] = []
    for number in dict.fromkeys(effect.numbers):
        target = writer.document(number)
        if target is None:
            gone = _cancelled(session, number)
            if gone is not None:
                _refuse_cancelled(writer, act, effect, gone)
            continue
        if target.id == act.document_id or target.id in marked:
            continue
        # Locked and read again: a cancellation committed meanwhile is seen here.
        target = locked(session, target)
        if target.status != "issued":
            _refuse_cancelled(writer, act, effect, target)
            continue
        marked.append(target.id)
        names.append(printed_number(target.series, target.number, target.year))
        session.add(StateChangeRow(
            document_id=target.id, kind=CITED, on=act.reference_date,
            detail=f"Citado pelo {act.printed}.",
            before={"by": act.document_id, "printed": act.printed}))
    if marked:
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} e {names[-1]}"
        writer.change(act, CITES, f"O {act.printed} cita e se apoia em: {listed}.",
                      before={"cited": marked})


def refuse_cited(session: Session, document_id: int, printed: str) -> None:
    """Refuse cancelling the act ``document_id`` while an act not cancelled cites it."""
    for before in session.scalars(select(StateChangeRow.before).where(
            StateChangeRow.document_id == document_id, StateChangeRow.kind == CITED)
            .order_by(StateChangeRow.id)).all():
        by = before.get("by") if isinstance(before, dict) else None
        citing = None if not isinstance(by, int) else session.get(DocumentRow, by)
        if citing is None or citing.status == "cancelled":
            continue
        name = printed_number(citing.series, citing.number, citing.year)
        raise InputError(
            f"O documento {printed} não pode ser cancelado: o {name}, que não foi "
            f"cancelado, o cita e se apoia nele. Cancele antes o {name} (ou decida de "
            "outro modo sobre ele).",
            field="/numero",
        )


def undo_citations(session: Session, document_id: int,
                   changes: list[StateChangeRow]) -> None:
    """Before cancelling a citing act: remove the marks it left on the acts it cites."""
    for change in changes:
        if change.kind != CITES or not isinstance(change.before, dict):
            continue
        cited = change.before.get("cited")
        for mark in session.scalars(select(StateChangeRow).where(
                StateChangeRow.document_id.in_(cited if isinstance(cited, list) else []),
                StateChangeRow.kind == CITED)).all():
            if isinstance(mark.before, dict) and mark.before.get("by") == document_id:
                session.delete(mark)

"""The statuses of a filed requerimento, and its settling when its act is issued.

Kept apart from :mod:`lavra.registry.inbox` so that the drafts' store can settle a
filing in the transaction that marks a draft issued without importing the inbox.

Two ways an act settles a filing, each inside the transaction that records the act:

- :func:`settle`: the act was prepared from the filing in the inbox ("Preparar ato"),
  its draft now issued;
- :func:`settle_joined`: an act a batch run records joins the processo the filing
  opened (its data names the protocol as its processo, the licensing state's
  ``InProcesso``): a decision makes the filing ``decidido`` with that act, as the inbox
  path does; a notice (the caller says which: the registry knows no kinds of act) makes
  it ``pendente`` until the notice's last day (its computed ``prazo_final``). A filing
  already decided by the run's act for the same holder (a seal beside its alvará) stays
  so. A filing decided by another act, or whose act staff are preparing in the inbox,
  refuses the run's act (:class:`FilingAnswered`): the run voids its number instead
  (:func:`lavra.batch.work.work_items`), so that one act answers one request. Being in
  the act's transaction, a run resumed after a ``kill -9`` finds the item done and the
  filing settled, or neither.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from lavra.errors import LavraError
from lavra.registry.records import printed_number
from lavra.registry.tables import (
    DocumentRow,
    DraftRow,
    FilingProgressRow,
    FilingRow,
    ProcessoActRow,
)

__all__ = ["FilingAnswered", "FilingStatus", "settle", "settle_joined"]


class FilingStatus(StrEnum):
    RECEIVED = "recebido"
    REVIEWING = "em_analise"
    PENDING = "pendente"
    DECIDED = "decidido"

    @property
    def label(self) -> str:
        """How staff and applicants read the status (pt-BR)."""
        return _LABELS[self]


_LABELS = {
    FilingStatus.RECEIVED: "recebido",
    FilingStatus.REVIEWING: "em análise",
    FilingStatus.PENDING: "pendente",
    FilingStatus.DECIDED: "decidido",
}


def settle(session: Session, draft_id: int, document_id: int, moment: datetime) -> None:
    """Inside the transaction that marks draft ``draft_id`` issued as ``document_id``:
    the filing whose act the draft prepared becomes ``decidido`` with that act."""
    progress = session.scalars(select(FilingProgressRow).where(
        FilingProgressRow.draft_id == draft_id)).first()
    if progress is None:
        return
    progress.act_id, progress.decided_at = document_id, moment
    progress.missing, progress.deadline = [], None
    session.execute(update(FilingRow).where(FilingRow.id == progress.filing_id)
                    .values(status=FilingStatus.DECIDED.value)
                    .execution_options(synchronize_session=False))


def _last_day(computed: Mapping[str, Any]) -> date | None:
    value = computed.get("prazo_final")
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


class FilingAnswered(LavraError):
    """The act a run is recording answers a filing another act already answers: decided
    by an act that is not the run's for that holder, or with an act staff are
    preparing from it in the inbox. The act is not recorded (module docstring)."""


def _answered(session: Session, filing: FilingRow, progress: FilingProgressRow | None,
              siblings: Callable[[], Collection[int]]) -> str | None:
    """Why ``filing`` is answered by another act than the run's (pt-BR), or None."""
    if progress is None:
        return None
    if filing.status == FilingStatus.DECIDED.value:
        if progress.act_id is None or progress.act_id in siblings():
            return None
        act = session.get(DocumentRow, progress.act_id)
        named = printed_number(act.series, act.number, act.year) if act is not None \
            else f"documento nº {progress.act_id}"
        return f"O requerimento {filing.protocol} já foi decidido pelo {named}"
    if progress.draft_id is not None:
        draft = session.get(DraftRow, progress.draft_id)
        if draft is not None and draft.status in ("rascunho", "encaminhado"):
            return (f"O requerimento {filing.protocol} tem ato preparado pela equipe na "
                    f"minuta nº {draft.id}, antes que o lote o emitisse")
    return None


# Built once (every act of a batch run asks it): the filings whose processo the act joined.
_JOINED = select(FilingRow).join(
    ProcessoActRow, ProcessoActRow.processo_id == FilingRow.processo_id).where(
    ProcessoActRow.document_id == bindparam("document")).with_for_update()


def settle_joined(session: Session, document_id: int, moment: datetime, *, notice: bool,
                  computed: Mapping[str, Any], by: str,
                  siblings: Callable[[], Collection[int]] = tuple) -> None:
    """Inside the transaction that records act ``document_id`` (a batch run's): each
    filing whose processo the act joined is decided by it or, for a ``notice``, pending
    until its last day (module docstring). ``by`` names who settled it (the run).
    FilingAnswered when a filing it joined is answered by another act than ``siblings``
    (the acts the run recorded for the same holder, read only when a filing was
    decided): decided by it, or with a draft of staff open (a draft prepared before
    the run held the filing, or by a run planned before runs held filings): one act
    answers one request."""
    filings = session.scalars(_JOINED, {"document": document_id}).all()
    for filing in filings:
        progress = session.get(FilingProgressRow, filing.id)
        reason = _answered(session, filing, progress, siblings)
        if reason is not None:
            raise FilingAnswered(reason)
        if filing.status == FilingStatus.DECIDED.value:
            continue
        if progress is None:
            progress = FilingProgressRow(filing_id=filing.id, missing=[], updated_by=by,
                                         updated_at=moment)
            session.add(progress)
        if notice:
            progress.deadline = _last_day(computed)
            filing.status = FilingStatus.PENDING.value
        else:
            progress.act_id, progress.decided_at = document_id, moment
            progress.missing, progress.deadline = [], None
            filing.status = FilingStatus.DECIDED.value
    session.flush()

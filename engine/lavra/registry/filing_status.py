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
  already decided stays so. Being in the act's transaction, a run resumed after a
  ``kill -9`` finds the item done and the filing settled, or neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from lavra.registry.tables import FilingProgressRow, FilingRow, ProcessoActRow

__all__ = ["FilingStatus", "settle", "settle_joined"]


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


def settle_joined(session: Session, document_id: int, moment: datetime, *, notice: bool,
                  computed: Mapping[str, Any], by: str) -> None:
    """Inside the transaction that records act ``document_id`` (a batch run's): each
    filing whose processo the act joined is decided by it or, for a ``notice``, pending
    until its last day (module docstring). ``by`` names who settled it (the run)."""
    filings = session.scalars(select(FilingRow).join(
        ProcessoActRow, ProcessoActRow.processo_id == FilingRow.processo_id).where(
        ProcessoActRow.document_id == document_id,
        FilingRow.status != FilingStatus.DECIDED.value)).all()
    for filing in filings:
        progress = session.get(FilingProgressRow, filing.id)
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

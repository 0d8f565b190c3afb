"""The statuses of a filed requerimento, and its settling when its act is issued.

Kept apart from :mod:`lavra.registry.inbox` so that the drafts' store can settle a
filing in the transaction that marks a draft issued without importing the inbox.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from lavra.registry.tables import FilingProgressRow, FilingRow

__all__ = ["FilingStatus", "settle"]


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

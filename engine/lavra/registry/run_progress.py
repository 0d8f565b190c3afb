"""How far a batch run has got: its items by state, in one query (the run's page)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from lavra.registry.runs import ABANDONED, DONE, PENDING, REFUSED
from lavra.registry.store import Registry
from lavra.registry.tables import BatchItemRow

__all__ = ["RunProgress", "run_progress"]


@dataclass(frozen=True)
class RunProgress:
    """Items of a run by state: done (refused records included), pending, and, among
    the pending, failed (their building failed, the reason noted; a rerun retries
    them)."""

    done: int
    pending: int
    failed: int
    refused: int
    abandoned: int = 0
    """Items abandoned by staff (their numbers voided), apart from ``done``."""

    @property
    def total(self) -> int:
        return self.done + self.pending + self.abandoned


def run_progress(registry: Registry, run_id: int) -> RunProgress:
    """What a progress page shows of the run, in one query."""
    failed = (BatchItemRow.status == PENDING) & BatchItemRow.reason.is_not(None)
    with registry.database_errors(), registry.read_session() as session:
        rows = session.execute(
            select(BatchItemRow.status, BatchItemRow.role, failed.label("failed"),
                   func.count())
            .where(BatchItemRow.run_id == run_id)
            .group_by(BatchItemRow.status, BatchItemRow.role, failed)
        ).all()
    done = pending = broken = refused = abandoned = 0
    for status, role, is_failed, count in rows:
        if status == ABANDONED:
            abandoned += count
        elif status == DONE:
            done += count
            refused += count if role == REFUSED else 0
        else:
            pending += count
            broken += count if is_failed else 0
    return RunProgress(done, pending, broken, refused, abandoned)

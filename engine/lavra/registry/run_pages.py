"""A run's items a page at a time, for the web page and the API of a run: a run of
20,000 lines is never loaded whole to show a hundred of them (issue 24, bounded
summaries). The failed items (the correction forms) are read apart: they are few.
"""

from __future__ import annotations

from sqlalchemy import func, select

from lavra.registry.runs import PENDING, REFUSED, ItemRecord, item_of
from lavra.registry.store import Registry
from lavra.registry.tables import BatchItemRow

__all__ = ["failed_items", "item_count", "items_page"]


def item_count(registry: Registry, run_id: int) -> int:
    """How many items the run has (refused lines included)."""
    with registry.database_errors(), registry.read_session() as session:
        return int(session.scalar(
            select(func.count()).select_from(BatchItemRow)
            .where(BatchItemRow.run_id == run_id)) or 0)


def items_page(registry: Registry, run_id: int, offset: int,
               limit: int) -> tuple[ItemRecord, ...]:
    """The run's items from ``offset``, at most ``limit``, in input order."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.scalars(
            select(BatchItemRow)
            .where(BatchItemRow.run_id == run_id)
            .order_by(BatchItemRow.position, BatchItemRow.seq)
            .offset(max(offset, 0)).limit(max(limit, 0))
        ).all()
        return tuple(item_of(row) for row in rows)


def failed_items(registry: Registry, run_id: int) -> tuple[ItemRecord, ...]:
    """The run's pending items whose building failed (a reason noted), in input order."""
    with registry.database_errors(), registry.read_session() as session:
        rows = session.scalars(
            select(BatchItemRow)
            .where(BatchItemRow.run_id == run_id, BatchItemRow.status == PENDING,
                   BatchItemRow.role != REFUSED, BatchItemRow.reason.is_not(None))
            .order_by(BatchItemRow.position, BatchItemRow.seq)
        ).all()
        return tuple(item_of(row) for row in rows)

"""A new document and its first event, written by one statement on PostgreSQL.

:meth:`lavra.registry.store.Registry.record_reserved` writes the act's row and its
``issued`` event. On PostgreSQL both go in one data-modifying ``WITH``: the document's
INSERT returns its id, the event's INSERT takes it; the same rows, columns and values as
the two INSERTs (:func:`lavra.registry.plain_rows.insert_row`, then the event's), in the
same order (the document's unique number first, then its event). SQLite has no INSERT
inside a ``WITH``: there the two statements stay.
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from sqlalchemy import CTE, Table, bindparam, insert, select
from sqlalchemy.orm import DeclarativeBase, Session

from lavra.registry.plain_rows import table_insert
from lavra.registry.tables import DocumentRow, EventRow

__all__ = ["EVENT_COLUMNS", "bound_insert", "insert_with_event"]

EVENT_COLUMNS = ("kind", "actor", "at", "detail")
"""The first event's values besides its document (``issued``, who, when, the words)."""


def bound_insert(entity: type[DeclarativeBase], prefix: str,
                 name: str) -> tuple[CTE, tuple[str, ...]]:
    """The INSERT of one row of ``entity``'s table returning its id, as the ``WITH``
    named ``name``, its values bound as ``<prefix><column>``; and its columns."""
    table = cast(Table, entity.__table__)
    columns = table_insert(entity)[1]  # the columns but the primary key, as plain_rows
    return insert(table).values({
        column: bindparam(f"{prefix}{column}", type_=table.c[column].type)
        for column in columns
    }).returning(table.c.id).cte(name), columns


@cache  # built once: building a statement costs about twice running it
def _statement() -> tuple[Any, tuple[str, ...]]:
    """The statement and the document's columns (its values bound as ``d_<column>``)."""
    events = cast(Table, EventRow.__table__)
    recorded, columns = bound_insert(DocumentRow, "d_", "recorded")
    first = insert(events).from_select(
        ["document_id", *EVENT_COLUMNS],
        select(recorded.c.id, *(bindparam(f"e_{name}", type_=events.c[name].type)
                                for name in EVENT_COLUMNS)),
    ).returning(events.c.document_id)
    return first, columns


def insert_with_event(session: Session, row: DocumentRow, event: dict[str, Any]) -> int:
    """Write the new document ``row`` (never added to a session) and its first
    ``event`` (:data:`EVENT_COLUMNS`) by one statement (PostgreSQL); give the row its
    id, which is returned."""
    statement, columns = _statement()
    values = row.__dict__
    row.id = int(session.execute(statement, {
        **{f"d_{name}": values.get(name) for name in columns},
        **{f"e_{name}": event[name] for name in EVENT_COLUMNS},
    }).scalar_one())
    return row.id

"""Rows written by one core INSERT, outside the session's unit of work.

The hot path of a batch run records an act, its first event, its licence and its
changes of state (:meth:`lavra.registry.store.Registry.record_reserved`,
:class:`lavra.registry.state.StateWriter`): each is written as one plain INSERT of its
columns, without the ORM's flush (the bookkeeping of a unit of work costs more than
the statement). On PostgreSQL the document and its first event are one statement
(:mod:`lavra.registry.first_event`), and a new act's licence and its changes of state
another (:mod:`lavra.registry.granting`): data-modifying WITH statements. The row
object stays out of the session; a later read in the same transaction loads it from the
database, as it would any row. ``session.execute`` still
flushes what the session holds first, so the statements reach the database in the
order they did when the row was flushed (and, on PostgreSQL, take their row locks in
that order).
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from sqlalchemy import CursorResult, Insert, Table, insert
from sqlalchemy.orm import DeclarativeBase, Session

from lavra.registry.tables import DocumentRow, LicenceRow

__all__ = ["insert_row", "insert_values", "table_insert"]


@cache  # built once per table: building a statement costs about twice running it
def table_insert(entity: type[DeclarativeBase]) -> tuple[Insert, tuple[str, ...]]:
    """The core INSERT of ``entity``'s table and its columns but the primary key."""
    table = cast(Table, entity.__table__)
    return insert(table), tuple(column.key for column in table.columns
                                if not column.primary_key)


def insert_row(session: Session, row: DocumentRow | LicenceRow) -> int:
    """Write the new ``row`` (built, never added to a session) by one INSERT of its
    columns (those not set: NULL) and give it its id, which is returned."""
    row.id = insert_values(session, type(row), row.__dict__)
    return row.id


def insert_values(session: Session, entity: type[DeclarativeBase],
                  values: dict[str, Any]) -> int:
    """Write one row of ``entity``'s table from ``values`` (its columns; those left
    out: NULL) by one INSERT, with no row object; its id."""
    statement, columns = table_insert(entity)
    result = cast(CursorResult[Any], session.execute(
        statement, {name: values.get(name) for name in columns}))
    key = result.inserted_primary_key
    assert key is not None  # a single-row INSERT: its key, returned or the row id
    return int(key[0])

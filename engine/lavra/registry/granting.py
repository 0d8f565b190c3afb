"""A granted licence and the changes of its act, written by one statement on PostgreSQL.

A new act's grant (:meth:`lavra.registry.state.StateWriter._grant`) writes the licence
(:func:`lavra.registry.guards.insert_licence`, in its savepoint on PostgreSQL) and then,
by one INSERT, the changes it recorded meanwhile: the licence it renews, those of the
group past their last day (vencido), the grant itself (whose row names the new licence).
On PostgreSQL both go in one data-modifying ``WITH``, inside that savepoint: the
licence's INSERT returns its id, the changes' INSERT takes it for the grant's row; the
same rows, columns and values, in the same order (the licence first, then the changes
in the order recorded). A replay, and SQLite (no INSERT inside a ``WITH``), keep the two
statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from sqlalchemy import Integer, Table, bindparam, insert, literal, select, union_all
from sqlalchemy.orm import Session

from lavra.registry.first_event import bound_insert
from lavra.registry.tables import LicenceRow, StateChangeRow

__all__ = ["CHANGE_COLUMNS", "change_row", "insert_granted"]

CHANGE_COLUMNS = ("document_id", "kind", "licence_id", "party_id", "vehicle_id", "on",
                  "detail", "before")
"""A change's columns (its row as :func:`change_row` makes it)."""


def change_row(document_id: int, kind: str, detail: str, on: Any, licence: Any,
               party: Any, vehicle: Any, before: dict[str, Any] | None) -> dict[str, Any]:
    """The row of one change (``licence``, ``party``, ``vehicle``: rows or None)."""
    return dict(document_id=document_id, kind=kind, detail=detail, on=on,
                licence_id=None if licence is None else licence.id,
                party_id=None if party is None else party.id,
                vehicle_id=None if vehicle is None else vehicle.id, before=before)


@cache  # one per number of changes: building a statement costs about twice running it
def _statement(count: int) -> tuple[Any, tuple[str, ...]]:
    """The statement for a licence and ``count`` changes, the last the grant's (its
    values bound as ``l_<column>`` and ``c<n>_<column>``), and the licence's columns."""
    changes = cast(Table, StateChangeRow.__table__)
    granted, columns = bound_insert(LicenceRow, "l_", "granted")
    rows = []
    for n in range(count):
        values = [granted.c.id if name == "licence_id" and n == count - 1
                  else bindparam(f"c{n}_{name}", type_=changes.c[name].type)
                  for name in CHANGE_COLUMNS]
        row = select(literal(n, Integer).label("n"), *(
            value.label(name) for value, name in zip(values, CHANGE_COLUMNS, strict=True)))
        rows.append(row.select_from(granted) if n == count - 1 else row)
    listed = union_all(*rows).subquery("listed")
    statement = insert(changes).from_select(
        list(CHANGE_COLUMNS),
        select(*(listed.c[name] for name in CHANGE_COLUMNS)).order_by(listed.c.n),
    ).returning(changes.c.kind, changes.c.licence_id)
    return statement, columns


def insert_granted(session: Session, licence: LicenceRow,
                   changes: Sequence[dict[str, Any]]) -> int:
    """Write the new ``licence`` (never added to a session) and ``changes`` (rows of
    :func:`change_row`; the last the grant's, its licence left empty) by one statement
    (PostgreSQL); give the licence its id, which is returned."""
    statement, columns = _statement(len(changes))
    values = licence.__dict__
    params = {f"l_{name}": values.get(name) for name in columns}
    for n, change in enumerate(changes):
        params.update({f"c{n}_{name}": change[name] for name in CHANGE_COLUMNS
                       if not (name == "licence_id" and n == len(changes) - 1)})
    grant = changes[-1]["kind"]  # the act's one grant (other kinds before it)
    licence.id = next(int(found) for kind, found in session.execute(statement, params)
                      if kind == grant)
    return licence.id

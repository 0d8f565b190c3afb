"""An act by its number, with its facts and whether an appeal annulled it, in one
statement.

A check that rests on an earlier act (a renewal: the licence renewed) asks the registry
for it by number (:meth:`lavra.issuing.RegistryHistory.document`): the documents of the
form so numbered (:data:`lavra.registry.queries.NUMBERED_RECORDS`), then the facts
recorded on them (:meth:`lavra.registry.facts.RegistryFacts.facts_of`: the events of the
fact kinds and their revocations, :data:`~lavra.registry.statements.EVENTS_OF`) and the
marks of an annulment on appeal (:func:`lavra.registry.reversal.annulled`,
:data:`~lavra.registry.statements.ANNULMENT_MARKS`): three statements, each by the
acts' ids. :func:`numbered_acts` asks them in one: the numbered documents, through the
same conditions (the number index), each joined (``LEFT OUTER``) to those events and
to those marks, ordered as the three reads ordered their rows; each answer is taken
apart from the rows as its own read gave it (an act with both facts and marks comes as
their product: each event and each mark is kept once). A mark whose deciding act was
itself reversed is followed as before (:func:`~lavra.registry.reversal.annulled`, one
statement a level): only when an act read is marked. Implements no provision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import Session

from lavra.registry.act_dates import order_by_act
from lavra.registry.facts import FACT_KINDS, REVOKED, Fact, facts_from_events
from lavra.registry.records import IssuedRecord, Status, check_text
from lavra.registry.reversal import ANNULLED, standing_marks
from lavra.registry.tables import DocumentRow, EventRow, StateChangeRow

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["NUMBERED_ACTS", "NumberedActs", "numbered_acts"]

LIMIT = 500
"""The most documents :data:`~lavra.registry.statements.DOCUMENTS_NUMBERED` reads."""

_FIELDS = tuple(spec.name for spec in fields(IssuedRecord))
_RECORD = tuple(DocumentRow.__table__.c[name] for name in _FIELDS)
_EVENT = ("id", "document_id", "kind", "actor", "at", "detail", "occurred_at", "data")
_KINDS = sorted({*FACT_KINDS, REVOKED})

NUMBERED_ACTS = (
    select(*_RECORD, *(EventRow.__table__.c[name].label(f"event_{name}") for name in _EVENT),
           StateChangeRow.id.label("mark_id"), StateChangeRow.before.label("mark_before"))
    .outerjoin(EventRow, and_(EventRow.document_id == DocumentRow.id,
                              EventRow.kind.in_(_KINDS)))
    .outerjoin(StateChangeRow, and_(StateChangeRow.document_id == DocumentRow.id,
                                    StateChangeRow.kind == ANNULLED))
    .where(DocumentRow.number == bindparam("number"), DocumentRow.year == bindparam("year"),
           DocumentRow.form == bindparam("form"))  # DOCUMENTS_NUMBERED's: the number index
    .order_by(*order_by_act(newest_first=True), EventRow.at, EventRow.id, StateChangeRow.id))
"""The documents of ``form`` numbered ``number``/``year`` (most recent act first), each
with its fact events (in the order recorded) and its annulment marks (by id)."""

NumberedActs = tuple[tuple[IssuedRecord, ...], dict[int, tuple[Fact, ...]],
                     dict[int, tuple[str, date]]]
"""The documents so numbered (as ``numbered``), the facts of each (as ``facts_of``)
and those annulled on appeal (as ``annulled_acts``)."""


def numbered_acts(registry: Registry, form: str, number: int, year: int) -> NumberedActs:
    """What :meth:`~lavra.registry.queries.RegistryQueries.numbered`, then ``facts_of``
    and ``annulled_acts`` of its documents answer, read by one statement (module doc)."""
    values = {"number": number, "year": year,
              "form": check_text(form, "o formulário", "/formulario", 120)}  # as numbered
    with registry.database_errors(), registry.read_session() as session:
        rows = session.connection().execute(NUMBERED_ACTS, values).all()
        return _apart(session, rows)


def _apart(session: Session, rows: Sequence[Any]) -> NumberedActs:
    records: dict[int, IssuedRecord] = {}
    events: dict[int, dict[int, EventRow]] = {}
    marks: dict[int, tuple[int, Any]] = {}
    width = len(_RECORD)
    for row in rows:
        ident = row.id
        if ident not in records:
            if len(records) == LIMIT:  # as the LIMIT of DOCUMENTS_NUMBERED
                break
            record = dict(zip(_FIELDS, row[:width], strict=True))
            records[ident] = IssuedRecord(**{**record, "status": Status(row.status)})
            events[ident] = {}
        if row.event_id is not None and row.event_id not in events[ident]:
            events[ident][row.event_id] = EventRow(
                **{name: row._mapping[f"event_{name}"] for name in _EVENT})
        if row.mark_id is not None:
            marks[row.mark_id] = (ident, row.mark_before)
    facts = {ident: tuple(facts_from_events(found.values())) for ident, found in events.items()}
    annulled = standing_marks(session, (marks[k] for k in sorted(marks)))
    return tuple(records.values()), facts, annulled

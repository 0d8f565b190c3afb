"""An act's own date, for ordering and filtering documents among lavra's.

A document lavra issued is of the moment it was signed (``issued_at``). An act imported
from before lavra (``lavra cadastro importar``, ``origin`` set) is written when the import
runs, but it is of its own date (``reference_date``, as :mod:`lavra.registry.facts` reads
it): a processo's acts, the registry's search and its date filters place it there.

Reading chosen (no law speaks of it): a paper act has no hour, so it is placed at the
start of its day, in America/Sao_Paulo, and precedes what lavra signed that day (as
:func:`lavra.registry.processos._named_before` reads a name an imported act gave on a
protocol's day). Acts of one moment follow the order they were written (``issued_at``,
then ids).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, or_
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from lavra.registry.records import LOCAL_TZ
from lavra.registry.tables import DocumentRow, UTCDateTime

__all__ = ["act_moment", "dated_between", "order_by_act"]


class _DayStart(FunctionElement[datetime]):
    """The start of a date's day in America/Sao_Paulo, as the instant ``issued_at``
    stores (UTC), so that both compare."""

    type = UTCDateTime()
    inherit_cache = True
    name = "lavra_day_start"


@compiles(_DayStart, "postgresql")
def _day_start_postgresql(element: _DayStart, compiler: Any, **kw: Any) -> str:
    day = compiler.process(element.clauses, **kw)
    return f"(CAST({day} AS timestamp) AT TIME ZONE 'America/Sao_Paulo')"


@compiles(_DayStart)
def _day_start_sqlite(element: _DayStart, compiler: Any, **kw: Any) -> str:
    # SQLite stores the UTC wall time as text; São Paulo keeps UTC-3 all year since
    # 2019 (Decreto nº 9.772/2019). Before it, a day of summer time starts an hour
    # earlier than this: only the order among acts of that hour could differ, and lavra
    # signed nothing then.
    day = compiler.process(element.clauses, **kw)
    return f"datetime({day}, '+3 hours')"


def act_moment() -> ColumnElement[Any]:
    """The moment an act is of (module doc): ``issued_at``, or the start of the day of
    an imported act."""
    return case((DocumentRow.origin.is_not(None), _DayStart(DocumentRow.reference_date)),
                else_=DocumentRow.issued_at)


def order_by_act(*, newest_first: bool) -> tuple[Any, ...]:
    """The ORDER BY of documents by their acts' moments, then the moments they were
    written, then ids."""
    if newest_first:
        return act_moment().desc(), DocumentRow.issued_at.desc(), DocumentRow.id.desc()
    return act_moment(), DocumentRow.issued_at, DocumentRow.id


def _start(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=LOCAL_TZ)


def dated_between(since: date | None, until: date | None) -> ColumnElement[bool] | None:
    """The documents whose act is of a day from ``since`` to ``until`` (both inclusive,
    None: open): lavra's by their local day of issue (through the index on
    ``issued_at``), the imported by their own date (through the index on
    ``reference_date``). None when both are open."""
    if since is None and until is None:
        return None
    signed: list[ColumnElement[bool]] = [DocumentRow.origin.is_(None)]
    imported: list[ColumnElement[bool]] = [DocumentRow.origin.is_not(None)]
    if since is not None:
        signed.append(DocumentRow.issued_at >= _start(since))
        imported.append(DocumentRow.reference_date >= since)
    if until is not None:
        signed.append(DocumentRow.issued_at < _start(until + timedelta(days=1)))
        imported.append(DocumentRow.reference_date <= until)
    return or_(and_(*signed), and_(*imported))

"""The bars on a party and the name it was last registered under, in one statement.

A draft's check asks the registry, for its holder, the bars still running on the day
of its act (:meth:`lavra.registry.licensing.RegistryState.bars_of`, the pack's guards)
and, a moment later, the name the CPF or CNPJ was last registered under (:meth:`~lavra.
registry.licensing.RegistryState.party_name`, the name-change items of
:mod:`lavra.registry.party_names`). Each was a statement of its own, both by the same
party. :func:`bars_and_name` reads them in one: the party by its CPF/CNPJ, its name, and
its bars running on the day joined to it (``LEFT OUTER``: a party without bars gives one
row with its name and no bar; no party, no row). The bars are the rows
:data:`~lavra.registry.statements.BARS_OF` reads, in its order (the last day; then the
bar's id, where that order left a tie undecided), the name what
:data:`~lavra.registry.statements.PARTY_NAME` reads (the CPF/CNPJ is unique: one party at
most). The name is kept in the read scope under the key ``party_name`` asks
(:meth:`lavra.registry.queries.RegistryQueries.remembered`): inside that scope (one
transaction, one snapshot) it is then read by no statement; outside a scope nothing is
kept and ``party_name`` reads it as before. Implements no provision.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import Session

from lavra.registry.records import printed_number
from lavra.registry.tables import BarRow, DocumentRow, PartyRow

__all__ = ["BARS_AND_NAME", "Bar", "bars_and_name"]

Bar = tuple[str, date, str]
"""A bar as ``bars_of`` gives it: (scope, last day, the act that set it, printed)."""

BARS_AND_NAME = (
    select(PartyRow.name, BarRow.scope, BarRow.until, DocumentRow.series, DocumentRow.number,
           DocumentRow.year, DocumentRow.id)
    .outerjoin(BarRow, and_(BarRow.party_id == PartyRow.id, BarRow.until >= bindparam("on")))
    .outerjoin(DocumentRow, DocumentRow.id == BarRow.document_id)
    .where(PartyRow.doc == bindparam("doc"))
    .order_by(BarRow.until, BarRow.id))
"""The party ``doc``'s name, and each bar on it running on ``on`` with the act that set
it (none: one row, the bar's columns NULL)."""


def bars_and_name(session: Session, doc: str, on: date) -> tuple[tuple[Bar, ...], str | None]:
    """The bars on the party ``doc`` (normalized CPF/CNPJ) running on ``on``, as
    ``bars_of`` gives them, and its registered name (None: unknown party, or no name)."""
    rows = session.execute(BARS_AND_NAME, {"doc": doc, "on": on}).all()
    # a bar whose act is not found: none (BARS_OF joins it)
    bars = tuple((scope, until, printed_number(series, number, year))
                 for _, scope, until, series, number, year, act in rows if act is not None)
    return bars, rows[0][0] if rows else None

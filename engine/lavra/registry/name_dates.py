"""The dates of a party's names: which act gave a name first, and which name is current,
read by the acts' own dates and not by the order the registry wrote them.

An act imported from before lavra (``lavra cadastro importar``) is written when the import
runs, perhaps after protocols and acts of lavra that named the same party later; it is of
its own date (``reference_date``), as :mod:`lavra.registry.facts` reads it. So that the
live state and its rebuild (``lavra cadastro reconstruir``, which replays every act at
its own moment, :mod:`lavra.registry.act_dates`) agree on each name, who gave it and
since when, both keep these readings (the municipal laws are silent):

- A name belongs to the act that gave it first (``party_names.since`` and
  ``document_id``). An imported act written after the act holding the name takes it when
  it is of an earlier date, or of the same day as an act of lavra's (a paper act has no
  hour: it precedes what lavra recorded that day), as the rebuild, which replays it at
  the start of its day, finds. lavra's own acts are written in their order: the first
  keeps the name. A name resting on a change staff recorded (no act: ``document_id``
  None) stays so.
- The current name (``parties.name``) is the one of the latest date: an act gives it
  unless another name of the party was given after the act's date (a later protocol or
  act already used a newer one). lavra's own acts are issued in order, so for them this
  changes nothing.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from lavra.registry.tables import DocumentRow, PartyNameRow

__all__ = ["gives_first", "newer_name"]


def _imported(session: Session, document_id: int | None) -> bool:
    if not document_id:
        return False
    origin = session.scalars(select(DocumentRow.origin)
                             .where(DocumentRow.id == document_id)).first()
    return origin is not None


def gives_first(session: Session, known: PartyNameRow, document_id: int, on: date) -> bool:
    """Whether the act ``document_id`` of date ``on`` gave the name ``known`` before the
    act that holds it (module doc): it then takes the name, from its date."""
    if known.document_id is None or known.document_id == document_id:
        return False
    if known.since is not None and on > known.since:
        return False
    if not _imported(session, document_id):
        return False  # lavra's acts come in their order: the first keeps the name
    return known.since is None or on < known.since or not _imported(session,
                                                                     known.document_id)


def newer_name(session: Session, party_id: int, name: str, on: date) -> bool:
    """Whether the party has a name other than ``name`` given after ``on``: then a name
    given on ``on`` does not become its current one."""
    return session.scalars(select(PartyNameRow.id).where(
        PartyNameRow.party_id == party_id, PartyNameRow.name != name,
        PartyNameRow.since > on).limit(1)).first() is not None

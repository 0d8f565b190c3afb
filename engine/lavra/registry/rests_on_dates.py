"""An act is never dated before what it rests on (issue 22, defect 9).

The law is silent; the reading chosen: an administrative act bears the date of its
making, and an act cannot produce effects on, nor be founded on, an act that did not
yet exist. So the reference date of a final act may not precede

(a) the date of an act it rests on or acts upon, as the registry holds it: the licence
    an accessory rests on (:attr:`Grant.rests_on`), the licence it renews, ends,
    restores, revalidates, transfers, moves to another vehicle or mentions, the acts it
    cites (:class:`Cites`: the auto a decision or notice concerns, the act appealed).
    An imported act counts from its own date (``DocumentRow.reference_date``), never
    from the moment it was imported;
(b) for an act that changes a licence or rests on it (not a mere mention), the date of
    the last event the state recorded on that licence (a renewal, a transfer, a change
    of vehicle, a recolhimento, an accessory ended with its titular...): the checks read
    the state as it is now, which is not the state of a day before that event. A licence
    closed as vencido is not counted (the act that closed it need not bear on it), nor
    a divergência.

Same day: allowed (the acts of one day are made in the order the registry numbers
them). The same lookups as the state's writer, by number and by licence (indexed
reads, no scan), through the pack's effects of the form run over the draft, as
:mod:`lavra.registry.identities` does: each finding carries the provision of the
effect that names the earlier act, and becomes a completeness item at the field the
reference date came from (:meth:`lavra.draftstate.DraftStateChecks.state_items`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, bindparam, select
from sqlalchemy.orm import Session

from lavra.registry.effects import (
    ChangeVehicle,
    Cites,
    Effect,
    EffectsOf,
    Grant,
    Mention,
    Restore,
    Revalidate,
    SetStatus,
    Transfer,
)
from lavra.registry.identifiers import parse_printed
from lavra.registry.identities import draft_effects
from lavra.registry.records import printed_number
from lavra.registry.tables import DocumentRow, LicenceRow, StateChangeRow
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["DateConflict", "date_conflicts", "effect_date_conflicts"]

NOT_COUNTED = ("expired", "divergence", "mentioned")
"""The changes on a licence that do not date its state (module doc, (b))."""


@dataclass(frozen=True)
class DateConflict:
    """An earlier act the draft's date precedes: ``message`` (pt-BR, naming both dates
    and the act), ``citation`` (the provision of the effect that names it) and
    ``target`` (the act as printed)."""

    target: str
    message: str
    citation: str


def _targets(effects: Sequence[Effect]) -> Iterator[tuple[str, str, bool]]:
    """(act printed, citation, whether (b) applies) for each earlier act named."""
    for effect in effects:
        if isinstance(effect, Grant):
            for number in (effect.rests_on, effect.renews):
                if number:
                    yield number, effect.citation, True
        elif isinstance(effect, (SetStatus, Restore, Revalidate, Transfer, ChangeVehicle)):
            yield effect.target, effect.citation, True
        elif isinstance(effect, Mention):
            yield effect.target, effect.citation, False
        elif isinstance(effect, Cites):
            for number in effect.numbers:
                yield number, effect.citation, False


ISSUED_BY_NUMBER = (
    select(DocumentRow.id, DocumentRow.series, DocumentRow.number, DocumentRow.year,
           DocumentRow.reference_date)
    .where(DocumentRow.series == bindparam("series"), DocumentRow.number == bindparam("number"),
           DocumentRow.year == bindparam("year"), DocumentRow.status == "issued").limit(2))
"""The issued act numbered ``number``/``year`` in ``series``, by the number index: the
columns the dates need (not the act's data)."""

LAST_EVENT = (
    select(StateChangeRow.on, DocumentRow.series, DocumentRow.number, DocumentRow.year)
    .join(LicenceRow, LicenceRow.id == StateChangeRow.licence_id)
    .join(DocumentRow, DocumentRow.id == StateChangeRow.document_id)
    .where(LicenceRow.document_id == bindparam("document_id"),
           StateChangeRow.document_id != bindparam("document_id"),
           StateChangeRow.kind.not_in(NOT_COUNTED))
    .order_by(StateChangeRow.on.desc(), StateChangeRow.id.desc()).limit(1))
"""The last change recorded on the licence the act ``document_id`` granted, but its grant."""


def _issued(session: Session, printed: str) -> Row[int, str, int, int, date] | None:
    """The issued act numbered ``printed`` (with its series): id, series, number, year
    and reference date."""
    parsed = parse_printed(printed)
    if parsed is None or parsed[0] is None:
        return None
    found = session.connection().execute(ISSUED_BY_NUMBER, {
        "series": str(parsed[0]).upper(), "number": parsed[1], "year": parsed[2]}).all()
    return found[0] if len(found) == 1 else None


def _last_event(session: Session, document_id: int) -> tuple[date, str] | None:
    """The day and act (printed) of the last change the state recorded on the licence
    the act ``document_id`` granted, other than its grant (module doc, (b))."""
    row = session.connection().execute(LAST_EVENT, {"document_id": document_id}).first()
    if row is None:
        return None
    on, series, number, year = row
    return on, printed_number(series, number, year)


def _conflict(session: Session, printed: str, citation: str, changes: bool,
              on: date) -> DateConflict | None:
    found = _issued(session, printed)
    if found is None:  # a paper act, or one the registry lacks: the form's to check
        return None
    act = printed_number(found.series, found.number, found.year)
    when = format_date(on)
    if on < found.reference_date:
        return DateConflict(act, (
            f"A data do ato ({when}) é anterior à expedição do {act}, em "
            f"{format_date(found.reference_date)}, em que ele se apoia: um ato "
            "administrativo leva a data em que é praticado e não pode fundar-se em ato "
            "que ainda não existia. Corrija a data do ato."), citation)
    last = _last_event(session, found.id) if changes else None
    if last is not None and on < last[0]:
        return DateConflict(act, (
            f"A data do ato ({when}) é anterior ao último registro sobre o {act}: o "
            f"{last[1]}, em {format_date(last[0])}. O ato não pode ser datado antes do "
            "estado da licença em que se apoia. Corrija a data do ato."), citation)
    return None


def date_conflicts(registry: Registry, effects_of: EffectsOf | None, form: str,
                   data: Mapping[str, Any], computed: Mapping[str, Any],
                   on: date) -> list[DateConflict]:
    """The earlier acts the draft of ``form`` dated ``on`` precedes (module doc).
    Nothing when the pack declares no effects for the form or they cannot be read from
    a draft still incomplete (its own checks say what lacks)."""
    return effect_date_conflicts(registry, draft_effects(effects_of, form, data, computed, on),
                                 on)


def effect_date_conflicts(registry: Registry, effects: Sequence[Effect],
                          on: date) -> list[DateConflict]:
    """:func:`date_conflicts` of the effects already run over the draft (the checks of
    one draft share one run of them, :mod:`lavra.draftstate`)."""
    found: list[DateConflict] = []
    with registry._database_errors(), registry._read() as session:
        for printed, citation, changes in _targets(effects):
            if not isinstance(printed, str) or any(c.target.upper() == printed.upper()
                                                   for c in found):
                continue
            conflict = _conflict(session, printed, citation, changes, on)
            if conflict is not None:
                found.append(conflict)
    return found

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

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, Select, bindparam, select
from sqlalchemy.orm import Session, aliased

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
from lavra.registry.identifiers import numbers_by_series, parse_printed
from lavra.registry.identities import draft_effects
from lavra.registry.records import printed_number
from lavra.registry.tables import DocumentRow, LicenceRow, StateChangeRow
from lavra.textutil import format_date

if TYPE_CHECKING:
    from lavra.registry.store import Registry

__all__ = ["DateConflict", "date_conflicts", "effect_date_conflicts", "read_issued"]

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


_CHANGE = aliased(StateChangeRow, name="last_change")
_BY = aliased(DocumentRow, name="last_act")

LAST_CHANGE = (
    select(StateChangeRow.id)
    .join(LicenceRow, LicenceRow.id == StateChangeRow.licence_id)
    .where(LicenceRow.document_id == DocumentRow.id,
           StateChangeRow.document_id != DocumentRow.id,
           StateChangeRow.kind.not_in(NOT_COUNTED))
    .order_by(StateChangeRow.on.desc(), StateChangeRow.id.desc()).limit(1)
    .correlate(DocumentRow).scalar_subquery())
"""The last change recorded on the licence the act granted, but its grant (module doc,
(b)): through the licences' ``document_id`` and the changes' ``licence_id`` indexes."""

_ISSUED = Row[int, str, int, int, date, date, str, int, int]


def _issued_select(number: Any,
                   ) -> Select[int, str, int, int, date, date, str, int, int]:
    return (select(DocumentRow.id, DocumentRow.series, DocumentRow.number, DocumentRow.year,
                   DocumentRow.reference_date, _CHANGE.on, _BY.series, _BY.number, _BY.year)
            .select_from(DocumentRow)
            .outerjoin(_CHANGE, _CHANGE.id == LAST_CHANGE)
            .outerjoin(_BY, _BY.id == _CHANGE.document_id)
            .where(DocumentRow.series == bindparam("series"), number,
                   DocumentRow.year == bindparam("year"), DocumentRow.status == "issued"))


ISSUED_BY_NUMBER = _issued_select(DocumentRow.number == bindparam("number")).limit(2)
"""The issued act numbered ``number``/``year`` in ``series``, by the number index: the
columns the dates need (not the act's data), with the day and number of the last change
on the licence it granted (:data:`LAST_CHANGE`; NULLs when none): one statement a
check asks of each act it rests on."""

ISSUED_BY_NUMBERS = _issued_select(DocumentRow.number.in_(bindparam("numbers", expanding=True)))
""":data:`ISSUED_BY_NUMBER` of the acts of ``series`` numbered ``numbers`` in ``year``."""


@dataclass(frozen=True)
class _Issued:
    """What :data:`ISSUED_BY_NUMBER` answers of one act."""

    printed: str
    reference_date: date
    last: tuple[date, str] | None
    """The day and act (printed) of the last change on the licence it granted."""


def _key(printed: str) -> tuple[str, int, int] | None:
    """(series, number, year) of an act printed with its series; None otherwise."""
    parsed = parse_printed(printed)
    if parsed is None or parsed[0] is None:
        return None
    return str(parsed[0]).upper(), parsed[1], parsed[2]


def _answer(found: Sequence[_ISSUED]) -> _Issued | None:
    """One act's rows: None unless exactly one act holds the number."""
    if len(found) != 1:
        return None
    _, series, number, year, reference_date, on, by_series, by_number, by_year = found[0]
    return _Issued(printed_number(series, number, year), reference_date,
                   None if on is None else (on, printed_number(by_series, by_number, by_year)))


def _issued(registry: Registry, session: Session, key: tuple[str, int, int]) -> _Issued | None:
    """The issued act ``key`` (series, number, year) with its reference date and the last
    change on the licence it granted (module doc, (b)); asked once per read scope
    (:func:`read_issued` reads a plan's acts ahead)."""
    def lookup() -> _Issued | None:
        series, number, year = key
        return _answer(session.connection().execute(ISSUED_BY_NUMBER, {
            "series": series, "number": number, "year": year}).all())
    return registry.remembered(("issued_act", *key), lookup)


def _given(answer: _Issued | None) -> Callable[[], _Issued | None]:
    return lambda: answer


def read_issued(registry: Registry, printed: Iterable[str], chunk: int = 500) -> None:
    """What :func:`effect_date_conflicts` reads of each act ``printed`` (with its series),
    read for all of them at once (``chunk`` numbers a statement) and kept in the
    caller's read scope, where each check finds it as if it had read it on its own (a
    renewal plan's acts: :mod:`lavra.batch.plan_reads`). Outside a read scope, nothing."""
    with registry.database_errors(), registry.read_session() as session:
        connection = session.connection()
        for (series, year), numbers in sorted(numbers_by_series(printed).items()):
            ordered = sorted(numbers)
            for start in range(0, len(ordered), chunk):
                rows: dict[int, list[_ISSUED]] = defaultdict(list)
                part = ordered[start:start + chunk]
                for row in connection.execute(ISSUED_BY_NUMBERS, {
                        "series": series, "year": year, "numbers": part}):
                    rows[row.number].append(row)
                for number in part:
                    registry.remembered(("issued_act", series, number, year),
                                         _given(_answer(rows[number])))


def _conflict(registry: Registry, session: Session, printed: str, citation: str,
              changes: bool, on: date) -> DateConflict | None:
    key = _key(printed)
    found = None if key is None else _issued(registry, session, key)
    if found is None:  # a paper act, or one the registry lacks: the form's to check
        return None
    act = found.printed
    when = format_date(on)
    if on < found.reference_date:
        return DateConflict(act, (
            f"A data do ato ({when}) é anterior à expedição do {act}, em "
            f"{format_date(found.reference_date)}, em que ele se apoia: um ato "
            "administrativo leva a data em que é praticado e não pode fundar-se em ato "
            "que ainda não existia. Corrija a data do ato."), citation)
    last = found.last if changes else None
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
    with registry.database_errors(), registry.read_session() as session:
        for printed, citation, changes in _targets(effects):
            if not isinstance(printed, str) or any(c.target.upper() == printed.upper()
                                                   for c in found):
                continue
            conflict = _conflict(registry, session, printed, citation, changes, on)
            if conflict is not None:
                found.append(conflict)
    return found

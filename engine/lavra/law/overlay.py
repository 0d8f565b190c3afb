"""The values staff register over the pack's shipped data, read "as of" a date.

The pack ships what is known when it is released (the law's original fines, the
municipal holidays with their source). What an administrator learns later — a ponto
facultativo the Prefeito decrees, each year's corrected fine — is registered with the
act that fixed it (:mod:`lavra.registry.staff_values`) and laid over the shipped data
here, so that every deadline and every amount is computed on the same calendar and
the same parameters:

    overlay = StaffOverlay(days=(DecreedDay(date(2026, 6, 5), "ponto_facultativo",
                                            "Ponto facultativo", "Decreto nº 1, de 1º/6/2026"),))
    calendar = overlay_calendar(shipped_calendar, overlay)
    parameters = overlay_parameters(shipped_parameters, overlay)

Where a registered period and a shipped one cover the same dates, the registered one
applies there (staff register what the pack did not know). :class:`StaffOverlay` is
hashable: contexts built over it are cached per overlay, and a new value registered
makes a new overlay, which takes effect for the next document.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from types import MappingProxyType

from lavra.law.calendar import BusinessCalendar, CalendarEntry, EntryKind
from lavra.law.params import Parameter, Parameters, Period
from lavra.law.statutory import StatutoryContext

__all__ = [
    "EMPTY_OVERLAY",
    "DecreedDay",
    "StaffOverlay",
    "StaffPeriod",
    "overlay_calendar",
    "overlay_context",
    "overlay_parameters",
]


@dataclass(frozen=True)
class DecreedDay:
    """A day without expediente staff registered: its date, kind, name and act."""

    on: date
    kind: EntryKind
    name: str
    act: str

    def entry(self) -> CalendarEntry:
        """The calendar entry; its name carries the act, so explanations cite it."""
        return CalendarEntry(name=f"{self.name} ({self.act})", kind=self.kind,
                             source=self.act, on=self.on)


@dataclass(frozen=True)
class StaffPeriod:
    """A period of a parameter staff registered (``since``–``until``, both inclusive)."""

    parameter: str
    since: date
    until: date
    value: Decimal
    act: str


@dataclass(frozen=True)
class StaffOverlay:
    """The staff values in force (revoked ones are never here)."""

    days: tuple[DecreedDay, ...] = ()
    periods: tuple[StaffPeriod, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.days or self.periods)


EMPTY_OVERLAY = StaffOverlay()


def overlay_calendar(calendar: BusinessCalendar, overlay: StaffOverlay) -> BusinessCalendar:
    """``calendar`` with the registered days."""
    return calendar.with_entries(day.entry() for day in overlay.days)


def _outside(period: Period, spans: list[tuple[date, date]]) -> list[Period]:
    """The parts of ``period`` that no span covers."""
    parts = [period]
    for since, until in spans:
        kept: list[Period] = []
        for part in parts:
            if (part.until is not None and part.until < since) or until < part.since:
                kept.append(part)
                continue
            if part.since < since:
                kept.append(replace(part, until=since - timedelta(days=1)))
            if part.until is None or until < part.until:
                kept.append(replace(part, since=until + timedelta(days=1)))
        parts = kept
    return parts


def _overlaid(parameter: Parameter, periods: list[StaffPeriod]) -> Parameter:
    spans = [(p.since, p.until) for p in periods]
    shipped = [part for period in parameter.periods for part in _outside(period, spans)]
    added = [Period(since=p.since, until=p.until, value=p.value, source=p.act) for p in periods]
    merged = tuple(sorted((*shipped, *added), key=lambda p: p.since))
    return replace(parameter, periods=merged)


def overlay_parameters(parameters: Parameters, overlay: StaffOverlay) -> Parameters:
    """``parameters`` with the registered periods (of parameters the pack has)."""
    if not overlay.periods:
        return parameters
    by_name: dict[str, list[StaffPeriod]] = {}
    for period in overlay.periods:
        if period.parameter in parameters:
            by_name.setdefault(period.parameter, []).append(period)
    table = dict(parameters.parameters)
    for name, periods in by_name.items():
        table[name] = _overlaid(table[name], periods)
    return Parameters(parameters=MappingProxyType(table))


def overlay_context(context: StatutoryContext, overlay: StaffOverlay) -> StatutoryContext:
    """The statutory context (laws, parameters, calendar, deadlines) with ``overlay``."""
    if not overlay:
        return context
    return replace(context, parameters=overlay_parameters(context.parameters, overlay),
                   calendar=overlay_calendar(context.calendar, overlay))

"""Business-day calendar: national and state holidays plus a municipality's own days.

National and state holidays come from the ``holidays`` package (its ``public``
category, names in pt-BR). The municipality's holidays and pontos facultativos are
content-pack data (``legal_text/feriados-municipais.json``), each with its source.
They are fed to the package as one more holiday set, so the package's own working-day
arithmetic (``is_working_day``, ``get_nth_working_day``, ``get_working_days_count``)
serves the whole calendar and nothing it already does is written again here.

The package's ``optional`` category for Brazil (Carnaval, Quarta-feira de Cinzas,
Corpus Christi, Dia do Servidor Público, vésperas de Natal e Ano-Novo) lists the
federal pontos facultativos of the Portaria MGI: they bind federal offices, not a
municipality, so they are never used here. Whatever the municipality closes is in
its own file: a feriado of its law, or a ponto facultativo it decrees.

Weekends (Saturday and Sunday) are never business days.

Which days have no expediente (Lei nº 9.784/1999, art. 66, § 1º: "considera-se
prorrogado o prazo até o primeiro dia útil seguinte se o vencimento cair em dia em que
não houver expediente"): the national, state and municipal feriados and, when the pack
says so (``pontos_facultativos_suspendem_prazos``), the pontos facultativos the
municipality decrees — on such a day the offices are closed and the citizen cannot
file, whatever the decree's name for the closure.

A day the pack marks ``confirmado: false`` (its existence or its source still to be
confirmed) counts in favour of the interested party: a deadline that would end on it
is extended to the next business day (forward moves: :meth:`BusinessCalendar.
next_business_day`, :meth:`~BusinessCalendar.add_business_days`), and a minimum
antecedence or a "last business day" that would fall on it is not brought forward
(backward moves: :meth:`~BusinessCalendar.previous_business_day`). Doubt about a
closure never shortens the time a citizen has to act. Its name says "a confirmar".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import holidays
from dateutil.easter import easter
from holidays import HolidayBase

from lavra.errors import ContentPackError, InputError
from lavra.law.params import PackFile

CALENDAR_FILE = Path("legal_text") / "feriados-municipais.json"
"""Where, inside a content pack, the municipal calendar lives."""

EntryKind = Literal["feriado", "ponto_facultativo"]
ENTRY_KINDS: tuple[EntryKind, ...] = ("feriado", "ponto_facultativo")

_LANGUAGE = "pt_BR"
DEFAULT_TIMEZONE = "America/Sao_Paulo"

CALENDAR = PackFile(CALENDAR_FILE, "_pacote/feriados-municipais.json",
                    "do calendário municipal", "Calendário municipal inválido")
"""The calendar file and its schema (``schemas/_pacote/feriados-municipais.json``)."""


@dataclass(frozen=True)
class CalendarEntry:
    """One municipal day off: a feriado or a ponto facultativo, with its source.

    Exactly one of ``month_day`` (every year, e.g. ``(6, 13)``), ``easter_offset``
    (days after Easter Sunday, every year: 60 is Corpus Christi) or ``on`` (one date,
    e.g. a decreed ponto facultativo) is set. ``since``/``until`` bound the years of a
    recurring entry (both inclusive; ``None`` means unbounded).
    """

    name: str
    kind: EntryKind
    source: str
    month_day: tuple[int, int] | None = None
    easter_offset: int | None = None
    on: date | None = None
    since: date | None = None
    until: date | None = None
    confirmed: bool = True

    @property
    def label(self) -> str:
        """The name as shown in explanations ("..., a confirmar" when unconfirmed)."""
        return self.name if self.confirmed else f"{self.name} (a confirmar)"

    def date_in(self, year: int) -> date | None:
        """The day this entry falls on in ``year``, or ``None`` if it does not occur."""
        if self.on is not None:
            return self.on if self.on.year == year else None
        if self.month_day is not None:
            month, day = self.month_day
            try:
                found = date(year, month, day)
            except ValueError:  # 29 February in a common year
                return None
        elif self.easter_offset is not None:
            found = easter(year) + timedelta(days=self.easter_offset)
            if found.year != year:
                return None
        else:
            return None
        if self.since is not None and found < self.since:
            return None
        if self.until is not None and found > self.until:
            return None
        return found


class _MunicipalDays(HolidayBase):
    """The municipal entries as a ``holidays`` set, populated year by year on demand."""

    def __init__(self, entries: Sequence[CalendarEntry]) -> None:
        self._entries = tuple(entries)
        super().__init__(language=_LANGUAGE)

    def _populate(self, year: int) -> None:
        for entry in self._entries:
            found = entry.date_in(year)
            if found is not None:
                self[found] = entry.label


class BusinessCalendar:
    """Which days are business days (dias úteis) for one municipality.

    ``country``/``subdiv`` select the national and state holidays of the ``holidays``
    package (e.g. ``"BR"``, ``"SP"``). ``entries`` are the municipality's own days.
    A ponto facultativo closes the day for deadline counting only when
    ``pontos_facultativos_stop_deadlines`` is true; it is always reported by
    :meth:`ponto_facultativo_name`.
    """

    def __init__(
        self,
        country: str,
        subdiv: str | None = None,
        entries: Iterable[CalendarEntry] = (),
        *,
        pontos_facultativos_stop_deadlines: bool = False,
        timezone: str = DEFAULT_TIMEZONE,
    ) -> None:
        self.country = country
        self.subdiv = subdiv
        self.entries: tuple[CalendarEntry, ...] = tuple(entries)
        self.pontos_facultativos_stop_deadlines = pontos_facultativos_stop_deadlines
        self.timezone = timezone
        try:
            national = holidays.country_holidays(country, subdiv=subdiv, language=_LANGUAGE)
        except NotImplementedError as exc:
            raise ContentPackError(
                f"Calendário de feriados indisponível para o país {country!r} e a "
                f"subdivisão {subdiv!r}."
            ) from exc
        closing = [
            entry
            for entry in self.entries
            if entry.kind == "feriado" or pontos_facultativos_stop_deadlines
        ]
        self._closed: HolidayBase = national + _MunicipalDays(closing)
        # Backward moves never stop on a doubtful day's account (see the module's note).
        self._closed_sure: HolidayBase = national + _MunicipalDays(
            [entry for entry in closing if entry.confirmed]
        )
        self._pontos = _MunicipalDays(
            [entry for entry in self.entries if entry.kind == "ponto_facultativo"]
        )

    def is_business_day(self, d: date) -> bool:
        """Whether ``d`` is a business day: not a weekend, not a closing day."""
        return bool(self._closed.is_working_day(_as_date(d)))

    def holiday_name(self, d: date) -> str | None:
        """The pt-BR name of the holiday on ``d`` (several joined by "; "), or ``None``.

        Pontos facultativos are named here only when they stop deadlines.
        """
        name = self._closed.get(_as_date(d))
        return None if name is None else str(name)

    def ponto_facultativo_name(self, d: date) -> str | None:
        """The name of a municipal ponto facultativo on ``d``, whether it stops deadlines."""
        name = self._pontos.get(_as_date(d))
        return None if name is None else str(name)

    def next_business_day(self, d: date) -> date:
        """``d`` itself if it is a business day, else the first business day after it."""
        return self._nth(d, 0)

    def previous_business_day(self, d: date) -> date:
        """``d`` itself if it is a business day, else the last business day before it.

        A day marked unconfirmed counts here as a business day: a backward move never
        shortens the citizen's time on a doubt.
        """
        d = _as_date(d)
        return d if self._closed_sure.is_working_day(d) else self._nth(d, -1)

    def with_entries(self, extra: Iterable[CalendarEntry]) -> BusinessCalendar:
        """This calendar with more municipal days (e.g. the days staff registered)."""
        added = tuple(extra)
        if not added:
            return self
        return BusinessCalendar(
            self.country, self.subdiv, (*self.entries, *added),
            pontos_facultativos_stop_deadlines=self.pontos_facultativos_stop_deadlines,
            timezone=self.timezone,
        )

    def add_business_days(self, d: date, n: int) -> date:
        """The ``n``-th business day after ``d`` (before it when ``n`` is negative).

        ``d`` itself is not counted; with ``n == 0`` this is :meth:`next_business_day`.
        """
        return self._nth(d, n)

    def last_business_day_of_year(self, year: int) -> date:
        """The last business day of ``year``."""
        if isinstance(year, bool) or not isinstance(year, int) or not 1 <= year <= 9999:
            raise InputError(f"Ano inválido: {year!r}.")
        return self.previous_business_day(date(year, 12, 31))

    def business_days_between(self, start: date, end: date) -> int:
        """Business days after ``start`` up to and including ``end``.

        This is the counting of art. 66 of Lei nº 9.784/1999 (start excluded, end
        included), so ``business_days_between(d, add_business_days(d, n)) == n``. When
        ``end`` is before ``start`` the count is negative.
        """
        start, end = _as_date(start), _as_date(end)
        if start == end:
            return 0
        low, high, sign = (start, end, 1) if start < end else (end, start, -1)
        try:
            count = int(self._closed.get_working_days_count(low + timedelta(days=1), high))
        except (OverflowError, ValueError) as exc:
            raise InputError("Data fora do intervalo do calendário.") from exc
        return sign * count

    def _nth(self, d: date, n: int) -> date:
        # Counting back (a minimum antecedence) skips only the days surely closed.
        closed = self._closed if n >= 0 else self._closed_sure
        try:
            return closed.get_nth_working_day(_as_date(d), n)
        except (OverflowError, ValueError) as exc:
            raise InputError("Data fora do intervalo do calendário.") from exc


def load_calendar(pack_dir: Path) -> BusinessCalendar:
    """The business calendar of the content pack at ``pack_dir``.

    Reads ``legal_text/feriados-municipais.json``; a missing file, unknown keys, bad
    dates or kinds raise :class:`ContentPackError` naming the JSON pointer at fault.
    """
    return _calendar(CALENDAR.load(pack_dir))


def calendar_from_data(raw: Any) -> BusinessCalendar:
    """Build a :class:`BusinessCalendar` from the parsed JSON of the calendar file."""
    return _calendar(CALENDAR.check(raw))


def _calendar(top: dict[str, Any]) -> BusinessCalendar:
    """The calendar from a document that satisfies ``schemas/_pacote/`` (see CALENDAR)."""
    entries: list[CalendarEntry] = []
    for index, item in enumerate(top.get("recorrentes", [])):
        entries.append(_recurring(item, f"/recorrentes/{index}"))
    for item in top.get("avulsas", []):
        entries.append(CalendarEntry(name=item["nome"], kind=item["tipo"],
                                     source=item["fonte"], on=date.fromisoformat(item["data"]),
                                     confirmed=item.get("confirmado", True)))
    timezone = top.get("fuso_horario")
    if timezone is not None:
        _check_timezone(timezone)
    return BusinessCalendar(
        top["pais"], top.get("uf"), entries,
        pontos_facultativos_stop_deadlines=top.get("pontos_facultativos_suspendem_prazos", False),
        timezone=timezone or DEFAULT_TIMEZONE,
    )


def _recurring(item: dict[str, Any], pointer: str) -> CalendarEntry:
    month_day: tuple[int, int] | None = None
    if "data" in item:
        month, day = item["data"].split("-")
        month_day = int(month), int(day)
    since = date.fromisoformat(item["desde"]) if "desde" in item else None
    until = date.fromisoformat(item["ate"]) if "ate" in item else None
    if since is not None and until is not None and until < since:
        raise CALENDAR.error("'ate' é anterior a 'desde'.", f"{pointer}/ate")
    return CalendarEntry(
        name=item["nome"],
        kind=item["tipo"],
        source=item["fonte"],
        month_day=month_day,
        easter_offset=item.get("dias_apos_pascoa"),
        since=since,
        until=until,
        confirmed=item.get("confirmado", True),
    )


def _check_timezone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise CALENDAR.error(f"fuso horário desconhecido {name!r}.", "/fuso_horario") from None


def _as_date(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    raise InputError(f"Data inválida: {value!r}.")

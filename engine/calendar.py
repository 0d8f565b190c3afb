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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import holidays
from dateutil.easter import easter
from holidays import HolidayBase

from lavra.errors import ContentPackError, InputError

CALENDAR_FILE = Path("legal_text") / "feriados-municipais.json"
"""Where, inside a content pack, the municipal calendar lives."""

EntryKind = Literal["feriado", "ponto_facultativo"]
ENTRY_KINDS: tuple[EntryKind, ...] = ("feriado", "ponto_facultativo")

_LANGUAGE = "pt_BR"
_TOP_KEYS = frozenset(
    {
        "$comment",
        "municipio",
        "pais",
        "uf",
        "fuso_horario",
        "pontos_facultativos_suspendem_prazos",
        "recorrentes",
        "avulsas",
    }
)
_RECURRING_KEYS = frozenset(
    {"$comment", "data", "dias_apos_pascoa", "nome", "tipo", "desde", "ate", "fonte"}
)
_SINGLE_KEYS = frozenset({"$comment", "data", "nome", "tipo", "fonte"})


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
                self[found] = entry.name


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
        timezone: str = "America/Sao_Paulo",
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
        """``d`` itself if it is a business day, else the last business day before it."""
        d = _as_date(d)
        return d if self.is_business_day(d) else self._nth(d, -1)

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
        try:
            return self._closed.get_nth_working_day(_as_date(d), n)
        except (OverflowError, ValueError) as exc:
            raise InputError("Data fora do intervalo do calendário.") from exc


def load_calendar(pack_dir: Path) -> BusinessCalendar:
    """The business calendar of the content pack at ``pack_dir``.

    Reads ``legal_text/feriados-municipais.json``; a missing file, unknown keys, bad
    dates or kinds raise :class:`ContentPackError` naming the JSON pointer at fault.
    """
    path = Path(pack_dir) / CALENDAR_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ContentPackError(f"Calendário municipal não encontrado: {path}.") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentPackError(f"Não foi possível ler o calendário municipal {path}.") from exc
    except json.JSONDecodeError as exc:
        raise ContentPackError(
            f"O calendário municipal {path} não é JSON válido (linha {exc.lineno}, "
            f"coluna {exc.colno})."
        ) from exc
    return calendar_from_data(raw, origin=str(path))


def calendar_from_data(raw: Any, *, origin: str = "calendário") -> BusinessCalendar:
    """Build a :class:`BusinessCalendar` from the parsed JSON of the calendar file."""
    top = _object(raw, "", _TOP_KEYS, origin)
    country = _text(top, "pais", "", origin)
    subdiv = _text(top, "uf", "", origin) if "uf" in top else None
    timezone = _text(top, "fuso_horario", "", origin) if "fuso_horario" in top else None
    stop = top.get("pontos_facultativos_suspendem_prazos", False)
    if not isinstance(stop, bool):
        raise _bad(origin, "/pontos_facultativos_suspendem_prazos", "deve ser true ou false")
    entries: list[CalendarEntry] = []
    for index, item in enumerate(_array(top, "recorrentes", origin)):
        entries.append(_recurring(item, f"/recorrentes/{index}", origin))
    for index, item in enumerate(_array(top, "avulsas", origin)):
        entries.append(_single(item, f"/avulsas/{index}", origin))
    if timezone is None:
        return BusinessCalendar(
            country, subdiv, entries, pontos_facultativos_stop_deadlines=stop
        )
    _check_timezone(timezone, origin)
    return BusinessCalendar(
        country, subdiv, entries, pontos_facultativos_stop_deadlines=stop, timezone=timezone
    )


def _recurring(item: Any, pointer: str, origin: str) -> CalendarEntry:
    obj = _object(item, pointer, _RECURRING_KEYS, origin)
    has_date, has_easter = "data" in obj, "dias_apos_pascoa" in obj
    if has_date == has_easter:
        raise _bad(origin, pointer, "informe exatamente um de 'data' (MM-DD) e 'dias_apos_pascoa'")
    month_day: tuple[int, int] | None = None
    easter_offset: int | None = None
    if has_date:
        month_day = _month_day(_text(obj, "data", pointer, origin), f"{pointer}/data", origin)
    else:
        offset = obj["dias_apos_pascoa"]
        if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) > 300:
            raise _bad(
                origin, f"{pointer}/dias_apos_pascoa", "deve ser um inteiro entre -300 e 300"
            )
        easter_offset = offset
    since = _iso_date(obj, "desde", pointer, origin) if "desde" in obj else None
    until = _iso_date(obj, "ate", pointer, origin) if "ate" in obj else None
    if since is not None and until is not None and until < since:
        raise _bad(origin, f"{pointer}/ate", "é anterior a 'desde'")
    return CalendarEntry(
        name=_text(obj, "nome", pointer, origin),
        kind=_kind(obj, pointer, origin),
        source=_text(obj, "fonte", pointer, origin),
        month_day=month_day,
        easter_offset=easter_offset,
        since=since,
        until=until,
    )


def _single(item: Any, pointer: str, origin: str) -> CalendarEntry:
    obj = _object(item, pointer, _SINGLE_KEYS, origin)
    return CalendarEntry(
        name=_text(obj, "nome", pointer, origin),
        kind=_kind(obj, pointer, origin),
        source=_text(obj, "fonte", pointer, origin),
        on=_iso_date(obj, "data", pointer, origin),
    )


def _object(
    value: Any, pointer: str, allowed: frozenset[str], origin: str
) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _bad(origin, pointer or "/", "deve ser um objeto JSON")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise _bad(
            origin,
            f"{pointer}/{_escape(unknown[0])}",
            f"chave desconhecida; as admitidas são: {', '.join(sorted(allowed))}",
        )
    return value


def _array(obj: Mapping[str, Any], key: str, origin: str) -> list[Any]:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise _bad(origin, f"/{key}", "deve ser uma lista")
    return value


def _text(obj: Mapping[str, Any], key: str, pointer: str, origin: str) -> str:
    if key not in obj:
        raise _bad(origin, f"{pointer}/{key}", "campo obrigatório ausente")
    value = obj[key]
    if not isinstance(value, str) or not value.strip():
        raise _bad(origin, f"{pointer}/{key}", "deve ser um texto não vazio")
    return value


def _kind(obj: Mapping[str, Any], pointer: str, origin: str) -> EntryKind:
    value = _text(obj, "tipo", pointer, origin)
    for kind in ENTRY_KINDS:
        if value == kind:
            return kind
    raise _bad(origin, f"{pointer}/tipo", f"deve ser {' ou '.join(ENTRY_KINDS)}")


def _month_day(value: str, pointer: str, origin: str) -> tuple[int, int]:
    try:
        if len(value) != 5 or value[2] != "-":
            raise ValueError(value)
        month, day = int(value[:2]), int(value[3:])
        date(2000, month, day)  # a leap year: 02-29 is a valid recurring date
    except ValueError as exc:
        raise _bad(origin, pointer, f"data recorrente inválida {value!r} (use MM-DD)") from exc
    return month, day


def _iso_date(obj: Mapping[str, Any], key: str, pointer: str, origin: str) -> date:
    value = _text(obj, key, pointer, origin)
    try:
        if len(value) != 10:
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError as exc:
        raise _bad(origin, f"{pointer}/{key}", f"data inválida {value!r} (use AAAA-MM-DD)") from exc


def _check_timezone(name: str, origin: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise _bad(origin, "/fuso_horario", f"fuso horário desconhecido {name!r}") from exc


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _bad(origin: str, pointer: str, problem: str) -> ContentPackError:
    return ContentPackError(
        f"Calendário municipal {origin}, em {pointer}: {problem}.", field=pointer
    )


def _as_date(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    raise InputError(f"Data inválida: {value!r}.")

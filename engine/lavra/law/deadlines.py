"""Counting statutory deadlines (prazos) on a business calendar.

Where the municipal law is silent, the counting follows art. 66 of the federal
Lei nº 9.784/1999 (processo administrativo), applied by analogy:

    Art. 66. Os prazos começam a correr a partir da data da cientificação oficial,
    excluindo-se da contagem o dia do começo e incluindo-se o do vencimento.
    § 1º Considera-se prorrogado o prazo até o primeiro dia útil seguinte se o
    vencimento cair em dia em que não houver expediente ou este for encerrado antes
    da hora normal.
    § 2º Os prazos expressos em dias contam-se de modo contínuo.
    § 3º Os prazos fixados em meses ou anos contam-se de data a data. Se no mês do
    vencimento não houver o dia equivalente àquele do início do prazo, tem-se como
    termo o último dia do mês.

Choices made here (each one is where the statute is silent):

- The start day is never moved: art. 66 moves only the vencimento. A cientificação
  on a Saturday starts the count that Saturday (the day itself excluded).
- "dias_uteis" is not a unit of Lei nº 9.784/1999 (§ 2º: days are continuous); it is
  for the laws that say "dias úteis": only business days are counted, so the last
  day is always a business day and never needs moving.
- "horas" needs the hour of the start, so it is counted by :func:`count_hours` on a
  ``datetime``; :func:`count` refuses it. 24 hours is the next day at the same clock
  time in the calendar's time zone; a vencimento on a day without expediente moves
  to the same clock time of the next business day (§ 1º).
- :func:`count_back` ("até N dias antes do vencimento") moves a non-business result
  to the *previous* business day: see its docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from types import MappingProxyType
from typing import Literal, get_args
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from lavra.errors import InputError
from lavra.inputs import reading as inputs
from lavra.law.calendar import BusinessCalendar
from lavra.textutil import format_date, format_datetime, weekday_name

Unit = Literal["dias", "dias_uteis", "meses", "anos", "horas"]
UNITS: tuple[Unit, ...] = get_args(Unit)

LAW = "Lei nº 9.784/1999"
"""The statute whose art. 66 the counting follows."""

_MAX_AMOUNT = 100_000
UNIT_NAMES: Mapping[str, tuple[str, str]] = MappingProxyType({
    "dias": ("dia", "dias"),
    "dias_uteis": ("dia útil", "dias úteis"),
    "meses": ("mês", "meses"),
    "anos": ("ano", "anos"),
    "horas": ("hora", "horas"),
})
"""The pt-BR words of each unit, singular and plural (used by :meth:`Period.describe`)."""


@dataclass(frozen=True)
class Period:
    """A length of time fixed by law: ``Period(15, "dias")``."""

    amount: int
    unit: Unit

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise InputError(
                f"Unidade de prazo desconhecida: {self.unit!r}. Use uma destas: "
                f"{', '.join(UNITS)}.",
                field="/unit",
            )
        if isinstance(self.amount, bool) or not isinstance(self.amount, int):
            raise InputError(
                f"A duração do prazo deve ser um número inteiro, não {self.amount!r}.",
                field="/amount",
            )
        if not 1 <= self.amount <= _MAX_AMOUNT:
            raise InputError(
                f"A duração do prazo deve estar entre 1 e {_MAX_AMOUNT}; recebido "
                f"{self.amount}.",
                field="/amount",
            )

    def describe(self) -> str:
        """pt-BR wording: "1 dia", "15 dias", "1 mês", "5 dias úteis"."""
        singular, plural = UNIT_NAMES[self.unit]
        return f"{self.amount} {singular if self.amount == 1 else plural}"


@dataclass(frozen=True)
class DeadlineResult:
    """A counted deadline.

    ``plain_last_day`` is the day the count lands on; ``last_day`` the day that
    governs after moving off a non-business day (``moved``). For :func:`count_back`
    (``backward``), ``start`` is the term counted back from and ``last_day`` is the
    latest day the act may be done, never after ``plain_last_day``.
    """

    start: date
    period: Period
    plain_last_day: date
    last_day: date
    moved: bool
    reason: str
    backward: bool = False


@dataclass(frozen=True)
class HourDeadlineResult:
    """A deadline counted in hours, on aware datetimes of the calendar's time zone."""

    start: datetime
    period: Period
    plain_end: datetime
    end: datetime
    moved: bool
    reason: str


@dataclass(frozen=True)
class Timeliness:
    """Whether an act was done in time, with the pt-BR explanation."""

    timely: bool
    filed: date
    last_day: date
    explanation: str


def count(
    start: date,
    period: Period,
    calendar: BusinessCalendar,
    *,
    move_to_business_day: bool = True,
) -> DeadlineResult:
    """Count ``period`` from ``start`` (the cientificação) per art. 66 of Lei nº 9.784/1999.

    The start day is excluded and the last day included; a last day without
    expediente moves to the next business day (§ 1º) unless ``move_to_business_day``
    is false; months and years count date to date, ending on the last day of the
    month when it lacks the start's day (§ 3º).
    """
    start = check_date(start, "/start")
    _check_period(period)
    head = f"O prazo de {period.describe()}, contado de {format_date(start)},"
    try:
        if period.unit == "horas":
            raise InputError(
                "Prazo em horas exige a hora da cientificação: use a contagem em horas "
                "(count_hours) com data e hora.",
                field="/period/unit",
            )
        if period.unit == "dias_uteis":
            last = calendar.add_business_days(start, period.amount)
            reason = (
                f"{head} computando-se somente os dias úteis, encerra-se em "
                f"{format_date(last)} ({weekday_name(last)})."
            )
            return DeadlineResult(start, period, last, last, False, reason)
        plain, clamped = _add(start, period, +1)
    except (OverflowError, ValueError) as exc:
        raise InputError(
            "O prazo ultrapassa o intervalo de datas admitido.", field="/period"
        ) from exc

    basis = "§ 3º" if period.unit in ("meses", "anos") else "caput"
    ends = f"{head} encerra-se em {format_date(plain)} ({_describe_day(plain, calendar)})"
    if clamped:
        ends += (
            ", último dia do mês, por nele não haver dia equivalente ao do início "
            f"(art. 66, § 3º, da {LAW})"
        )
    if calendar.is_business_day(plain):
        reason = f"{ends}, dia útil (art. 66, {basis}, da {LAW})." if not clamped else ends + "."
        return DeadlineResult(start, period, plain, plain, False, reason)
    if not move_to_business_day:
        reason = f"{ends}; não é dia útil, mas a norma aplicável não prorroga o vencimento."
        return DeadlineResult(start, period, plain, plain, False, reason)
    last = calendar.next_business_day(plain)
    reason = (
        f"{ends}; prorroga-se para o primeiro dia útil seguinte, {format_date(last)} "
        f"(art. 66, § 1º, da {LAW})."
    )
    return DeadlineResult(start, period, plain, last, True, reason)


def count_back(end: date, period: Period, calendar: BusinessCalendar) -> DeadlineResult:
    """The latest day to act "até N dias antes" of ``end`` (e.g. renewal 30 days before expiry).

    The count runs backwards from ``end`` with the rules of :func:`count` mirrored
    (``end`` excluded, the result included; months and years date to date), so
    counting ``period`` forward from the plain result lands on ``end`` again for
    days.

    A result that is not a business day moves to the *previous* business day, never
    the next: the law asks for the act at least N days ahead, and an applicant who
    waited for the next business day would file with less than N days left. Moving
    earlier means the date shown can never lead anyone to file late; art. 66, § 1º,
    extends deadlines that run towards a vencimento and does not apply to a minimum
    antecedence.
    """
    end = check_date(end, "/end")
    _check_period(period)
    if period.unit == "horas":
        raise InputError(
            "Antecedência em horas não é contada por dia: informe-a em dias.",
            field="/period/unit",
        )
    head = (
        f"Com antecedência mínima de {period.describe()} em relação a {format_date(end)}, "
        "o último dia para a prática do ato é"
    )
    try:
        if period.unit == "dias_uteis":
            last = calendar.add_business_days(end, -period.amount)
            reason = (f"{head} {format_date(last)} ({weekday_name(last)}), computados só os "
                      "dias úteis.")
            return DeadlineResult(end, period, last, last, False, reason, backward=True)
        plain, _ = _add(end, period, -1)
    except (OverflowError, ValueError) as exc:
        raise InputError(
            "O prazo ultrapassa o intervalo de datas admitido.", field="/period"
        ) from exc
    if calendar.previous_business_day(plain) == plain:
        reason = f"{head} {format_date(plain)} ({weekday_name(plain)}), dia útil."
        if not calendar.is_business_day(plain):  # a day not confirmed as closed
            reason = (f"{head} {format_date(plain)} ({_describe_day(plain, calendar)}); por "
                      "não estar confirmado como dia sem expediente, não se antecipa, em "
                      "favor do interessado.")
        return DeadlineResult(end, period, plain, plain, False, reason, backward=True)
    last = calendar.previous_business_day(plain)
    reason = (
        f"{head} {format_date(plain)} ({_describe_day(plain, calendar)}); por não ser dia útil, "
        f"antecipa-se para o dia útil anterior, {format_date(last)}, para que a antecedência "
        "exigida seja sempre respeitada."
    )
    return DeadlineResult(end, period, plain, last, True, reason, backward=True)


def count_hours(
    start: datetime,
    period: Period,
    calendar: BusinessCalendar,
    *,
    move_to_business_day: bool = True,
) -> HourDeadlineResult:
    """Count a period in hours from ``start``.

    A naive ``start`` is read as local time of the calendar's zone; an aware one is
    converted to it. Hours are added on the wall clock (24 h is the next day at the
    same hour). An end on a day without expediente moves to the same clock time of
    the next business day (art. 66, § 1º).
    """
    if not isinstance(start, datetime):
        raise InputError("Prazo em horas exige data e hora de início.", field="/start")
    check_date(start, "/start")
    if period.unit != "horas":
        raise InputError(
            "A contagem em horas só aceita prazos em horas; use count() para dias, "
            "meses e anos.",
            field="/period/unit",
        )
    _check_period(period)
    zone = ZoneInfo(calendar.timezone)
    local = start.replace(tzinfo=zone) if start.tzinfo is None else start.astimezone(zone)
    try:
        plain = local + timedelta(hours=period.amount)
        day = plain.date()
        moved = move_to_business_day and not calendar.is_business_day(day)
        end = (
            datetime.combine(calendar.next_business_day(day), plain.timetz())
            if moved
            else plain
        )
    except (OverflowError, ValueError) as exc:
        raise InputError(
            "O prazo ultrapassa o intervalo de datas admitido.", field="/period"
        ) from exc
    head = f"O prazo de {period.describe()}, contado de {format_datetime(local)}, encerra-se em"
    if moved:
        reason = (
            f"{head} {format_datetime(plain)} ({_describe_day(day, calendar)}); prorroga-se para "
            f"o primeiro dia útil seguinte, {format_datetime(end)} (art. 66, § 1º, da {LAW})."
        )
    else:
        reason = f"{head} {format_datetime(plain)} ({_describe_day(day, calendar)})."
    return HourDeadlineResult(local, period, plain, end, moved, reason)


def timeliness(
    filed: date,
    result: DeadlineResult | HourDeadlineResult,
    *,
    act: str = "Ato praticado",
) -> Timeliness:
    """Whether ``filed`` is within ``result``; ``act`` opens the explanation.

    E.g. ``timeliness(d, r, act="Recurso interposto")`` → "Recurso interposto em
    12/03/2026; o prazo de 15 dias, contado de 20/02/2026, encerrou-se em
    09/03/2026: intempestivo."
    """
    if isinstance(result, HourDeadlineResult):
        return _hour_timeliness(filed, result, act)
    filed = check_date(filed, "/filed")
    timely = filed <= result.last_day
    verdict = "tempestivo" if timely else "intempestivo"
    if result.backward:
        explanation = (
            f"{act} em {format_date(filed)}; com antecedência mínima de "
            f"{result.period.describe()} em relação a {format_date(result.start)}, devia sê-lo "
            f"até {format_date(result.last_day)}: {verdict}."
        )
    else:
        tense = "encerra-se" if timely else "encerrou-se"
        explanation = (
            f"{act} em {format_date(filed)}; o prazo de {result.period.describe()}, contado de "
            f"{format_date(result.start)}, {tense} em {format_date(result.last_day)}: {verdict}."
        )
    return Timeliness(timely, filed, result.last_day, explanation)


def _hour_timeliness(filed: date, result: HourDeadlineResult, act: str) -> Timeliness:
    if not isinstance(filed, datetime):
        raise InputError(
            "Para prazo em horas, informe a data e a hora do protocolo.", field="/filed"
        )
    zone = result.end.tzinfo
    local = filed.replace(tzinfo=zone) if filed.tzinfo is None else filed.astimezone(zone)
    timely = local <= result.end
    tense = "encerra-se" if timely else "encerrou-se"
    explanation = (
        f"{act} em {format_datetime(local)}; o prazo de {result.period.describe()}, contado de "
        f"{format_datetime(result.start)}, {tense} em {format_datetime(result.end)}: "
        f"{'tempestivo' if timely else 'intempestivo'}."
    )
    return Timeliness(timely, local, result.end, explanation)


def _add(d: date, period: Period, sign: int) -> tuple[date, bool]:
    """``d`` moved by ``period`` (days continuous, months/years date to date).

    The flag says whether a month or year count fell on a month without the
    starting day and was clamped to the last day of that month (§ 3º).
    """
    n = sign * period.amount
    if period.unit == "dias":
        return d + timedelta(days=n), False
    delta = relativedelta(months=n) if period.unit == "meses" else relativedelta(years=n)
    moved: date = d + delta
    return moved, moved.day != d.day


def check_date(value: object, field: str) -> date:
    """``value`` as a date (a datetime gives its date) within the range every date of
    lavra is held to (:data:`lavra.inputs.reading.DATE_MIN` to
    :data:`~lavra.inputs.reading.DATE_MAX`, so
    that no count can overflow); InputError naming ``field`` otherwise."""
    if isinstance(value, datetime):
        day = value.date()
    elif isinstance(value, date):
        day = value
    else:
        raise InputError(f"Data inválida: {value!r}.", field=field)
    return inputs.check_date(day, what=_DATE_WORDS.get(field, "data"), field=field)


_DATE_WORDS = {
    "/start": "data de início do prazo",
    "/end": "data final do prazo",
    "/filed": "data do protocolo",
}


def _check_period(value: object) -> None:
    if not isinstance(value, Period):
        raise InputError(f"Prazo inválido: {value!r}.", field="/period")


def _describe_day(d: date, calendar: BusinessCalendar) -> str:
    """"sábado" or "quinta-feira, feriado: Revolução Constitucionalista"."""
    weekday = weekday_name(d)
    name = calendar.holiday_name(d)
    ponto = calendar.ponto_facultativo_name(d)
    if ponto is not None and (name is None or name == ponto):
        return f"{weekday}, ponto facultativo: {ponto}"
    if name is not None:
        return f"{weekday}, feriado: {name}"
    return weekday

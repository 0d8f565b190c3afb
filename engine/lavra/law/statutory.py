"""The deadlines the laws of the content pack set, each keyed by the citation that sets it.

``legal_text/prazos.json`` says, for every fragment that fixes a deadline, what kind of
period it is, where its number lives (a parameter of ``parametros.json``, read as of
the date of the start event), the event it counts from or to, the act it governs, what
happens when the last day is not a business day, and the wording of the explanation.
This module turns that into two pure functions over a :class:`StatutoryContext`
(laws, parameters, business calendar and the deadline table):

- :func:`deadline_for` — the deadline the cited fragment sets, counted from a date;
- :func:`lavra.checking.timeliness.check_timeliness` — whether an act on a given date
  met it, with the pt-BR explanation printed in decisions and a report item (it lives
  in ``checking`` because it yields report items).

The table itself is read by :mod:`lavra.law.deadline_table`.

Counting follows :mod:`lavra.law.deadlines` (art. 66 of Lei nº 9.784/1999). The
kinds (``tipo`` in the table) and the decisions taken where the law is silent:

``prazo`` / ``apos``
    An act to be done within N after the event: start day excluded, last day included,
    a last day without expediente moves to the next business day when the table says
    ``prorroga``. An act done *before* the start event (an appeal filed before the
    formal ciência) is timely: it shows the party already knew, and a premature act is
    not a late one (art. 218, § 4º, of the Código de Processo Civil, by analogy).
``prazo`` / ``antes``
    A minimum antecedence ("com 30 dias de antecedência da data do vencimento"):
    counted back from the event; a result without expediente moves to the *previous*
    business day (``antecipa``), so the minimum is always respected.
``prazo_minimo``
    A period the Administration must grant (the edital's registration period): the
    result is the earliest day the period may end; an end fixed earlier fails.
``carencia``
    A bar ("só poderá obter novo alvará depois de transcorridos 12 meses"): nothing is
    done at its term, so art. 66, § 1º, which protects whoever must act by a
    vencimento, has nothing to protect, and stretching a restriction of a right by
    analogy is not allowed: a bar never moves. The period counts date to date, start
    day excluded; ``last_day`` is its last day and ``first_allowed_day`` the day after.
``duracao``
    A validity or a duty that lasts the period (a temporary licence, keeping the
    tachograph discs, a substitute driver): a fact on a date (or at a moment) is
    covered when it falls between the start and the last day. Such periods do not
    move: they are not acts before the Administration.
``fim_do_ano``
    "Até o último dia útil do ano": the last business day of the year of the
    reference date, on the municipal calendar.
``janela``
    "Com até N dias de antecedência": the act may be done from N days before the
    event (counted back, not moved) until the event itself, moved back to the previous
    business day when the event is not one. An act before the window opens is
    *premature* (``prematuro``): not timely, to be repeated within the window.
``meses_do_ano``
    "Nos meses de maio e de novembro": the window is the month in course, when it is
    one of them and its last business day has not passed, else the next such month;
    it runs from the 1st to the last business day of the month (the law fixed the
    month, so nothing moves into the next one).

The parameter in force on the date of the start event applies (the law in force on
the date of the infraction, of the ciência, of the expiry). Dates of hour deadlines
are datetimes in the calendar's time zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from lavra.errors import CitationError, InputError, ParameterError
from lavra.law.calendar import BusinessCalendar, load_calendar
from lavra.law.deadline_table import (
    DeadlineRule,
    Direction,
    Kind,
    check_rule_against_pack,
    load_deadline_rules,
)
from lavra.law.deadlines import Period, Unit, count, count_back, count_hours
from lavra.law.model import Law, load_laws, resolve
from lavra.law.params import Parameters, ParameterValue, escape, load_parameters
from lavra.pack import default_pack_dir
from lavra.textutil import format_date, format_datetime, format_span, month_name, weekday_name

__all__ = [
    "FEDERAL",
    "StatutoryContext",
    "StatutoryDeadline",
    "deadline_citations",
    "deadline_for",
    "describe_day",
    "load_statutory_context",
    "lower_first",
    "period_size",
]

FEDERAL = "Lei nº 9.784/1999"


@dataclass(frozen=True)
class StatutoryContext:
    """Everything a deadline needs: laws, parameters, calendar and the deadline table."""

    laws: Mapping[str, Law] = field(hash=False)
    parameters: Parameters
    calendar: BusinessCalendar = field(hash=False)
    rules: Mapping[str, DeadlineRule] = field(hash=False)


@dataclass(frozen=True)
class StatutoryDeadline:
    """The deadline a fragment sets, counted from ``start``.

    ``last_day`` is the day that governs: the last day to act (``prazo``, ``janela``,
    ``fim_do_ano``, ``meses_do_ano``), the earliest admissible end of a period
    (``prazo_minimo``), the last day of a validity or duty (``duracao``) or of a bar
    (``carencia``, whose ``first_allowed_day`` is the day after). ``plain_last_day``
    is where the count landed before any move (``moved``). ``first_day`` opens a
    window; ``end`` is the exact moment for hour deadlines; ``inside_window`` says,
    for ``meses_do_ano``, whether ``start`` lies in the window found.
    """

    citation: str
    reference: str
    kind: Kind
    direction: Direction
    act: str
    start: date | datetime
    period: Period | None
    parameter: ParameterValue | None
    plain_last_day: date
    last_day: date
    moved: bool
    explanation: str
    counting: str
    basis: tuple[str, ...]
    first_day: date | None = None
    first_allowed_day: date | None = None
    end: datetime | None = None
    inside_window: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (dates in ISO 8601)."""
        return {
            "citation": self.citation,
            "reference": self.reference,
            "kind": self.kind,
            "direction": self.direction,
            "act": self.act,
            "start": self.start.isoformat(),
            "period": None if self.period is None else {
                "amount": self.period.amount, "unit": self.period.unit},
            "parameter": None if self.parameter is None else {
                "name": self.parameter.name,
                "value": int(self.parameter.value),
                "unit": self.parameter.unit,
                "since": self.parameter.since.isoformat(),
                "source": self.parameter.source,
            },
            "first_day": _iso(self.first_day),
            "plain_last_day": self.plain_last_day.isoformat(),
            "last_day": self.last_day.isoformat(),
            "moved": self.moved,
            "first_allowed_day": _iso(self.first_allowed_day),
            "end": None if self.end is None else self.end.isoformat(),
            "inside_window": self.inside_window,
            "explanation": self.explanation,
            "counting": self.counting,
            "basis": list(self.basis),
        }



# ---------------------------------------------------------------- public functions


def load_statutory_context(pack_dir: Path | None = None) -> StatutoryContext:
    """Laws, parameters, calendar and deadline table of the pack (default: the shipped one).

    Every rule is checked against the laws and the parameters: a citation that does
    not resolve, an unknown parameter or a unit the kind cannot count is a
    :class:`ContentPackError` naming the entry.
    """
    root = default_pack_dir() if pack_dir is None else Path(pack_dir)
    laws = load_laws(root)
    parameters = load_parameters(root)
    calendar = load_calendar(root)
    rules = load_deadline_rules(root)
    for citation, rule in rules.items():
        check_rule_against_pack(rule, laws, parameters, f"/prazos/{escape(citation)}")
    return StatutoryContext(laws=MappingProxyType(dict(laws)), parameters=parameters,
                            calendar=calendar, rules=rules)


def deadline_citations(context: StatutoryContext) -> tuple[str, ...]:
    """The citations that set a deadline, in the table's order."""
    return tuple(context.rules)


def deadline_for(
    citation: str,
    start: date | datetime,
    *,
    context: StatutoryContext | None = None,
    pack_dir: Path | None = None,
) -> StatutoryDeadline:
    """The deadline ``citation`` sets, counted from (or back from) ``start``.

    ``start`` is the date of the event the table names (the infraction, the ciência,
    the expiry of the alvará, a reference date in the year); hour deadlines need a
    ``datetime``. Raises :class:`CitationError` for a citation that does not resolve,
    :class:`InputError` for one that sets no deadline or a bad date, and
    :class:`ParameterError` when the number has no value in force on ``start``.
    """
    ctx = context if context is not None else load_statutory_context(pack_dir)
    rule = _rule(ctx, citation)
    try:
        return _compute(ctx, rule, start)
    except (OverflowError, ValueError) as exc:
        raise InputError("O prazo ultrapassa o intervalo de datas admitido.",
                         field="/inicio") from exc



# ---------------------------------------------------------------- computing


def _rule(ctx: StatutoryContext, citation: str) -> DeadlineRule:
    available = ", ".join(ctx.rules) or "nenhuma"
    try:
        canonical = resolve(ctx.laws, citation).citation
    except CitationError as exc:
        raise CitationError(f"{exc.message} Citações que fixam prazo: {available}.",
                            field="/citacao") from None
    rule = ctx.rules.get(canonical)
    if rule is None:
        raise InputError(
            f"O dispositivo {citation!r} não fixa prazo no pacote de conteúdo. Citações "
            f"que fixam prazo: {available}.",
            field="/citacao",
        )
    return rule


def _deadline(
    rule: DeadlineRule,
    reference: str,
    start: date | datetime,
    period: Period | None,
    value: ParameterValue | None,
    *,
    plain: date,
    last: date,
    explanation: str,
    counting: str = "",
    first_day: date | None = None,
    first_allowed_day: date | None = None,
    end: datetime | None = None,
    inside_window: bool | None = None,
) -> StatutoryDeadline:
    return StatutoryDeadline(
        citation=rule.citation, reference=reference, kind=rule.kind,
        direction=rule.direction, act=rule.act, start=start, period=period,
        parameter=value, plain_last_day=plain, last_day=last, moved=plain != last,
        explanation=explanation, counting=counting, basis=rule.basis, first_day=first_day,
        first_allowed_day=first_allowed_day, end=end, inside_window=inside_window,
    )


def _compute(ctx: StatutoryContext, rule: DeadlineRule, start: date | datetime
             ) -> StatutoryDeadline:
    if isinstance(start, datetime):
        day = start.date()
    elif isinstance(start, date):
        day = start
    else:
        raise InputError(f"Data inválida: {start!r}.", field="/inicio")
    reference = resolve(ctx.laws, rule.citation).short
    cal = ctx.calendar
    if rule.kind == "fim_do_ano":
        return _end_of_year(rule, reference, day, cal)
    if rule.kind == "meses_do_ano":
        return _months(rule, reference, day, cal)
    assert rule.parameter is not None
    value = ctx.parameters.value(rule.parameter, day)
    period = Period(int(value.value), cast(Unit, value.unit))
    if period.unit == "horas":
        return _hours(rule, reference, start, period, value, cal)
    size = period_size(period, rule)
    act = lower_first(rule.act)
    head = f"{rule.event_dated} {format_date(day)} ({reference})"
    if rule.kind == "janela":
        opening = count_back(day, period, cal).plain_last_day
        last = cal.previous_business_day(day) if rule.non_business == "antecipa" else day
        text = (f"O prazo para {act}, com até {size} de antecedência, contados "
                f"retroativamente {head}, abre-se em {format_date(opening)} e encerra-se em "
                f"{format_date(last)}.")
        if last != day:
            text += (f" O vencimento recai em {describe_day(day, cal)}, dia sem expediente; "
                     "o último dia é o dia útil anterior.")
        return _deadline(rule, reference, day, period, value, plain=day, last=last,
                         explanation=text, first_day=opening)
    if rule.direction == "antes":
        back = count_back(day, period, cal)
        last = back.last_day if rule.non_business == "antecipa" else back.plain_last_day
        text = (f"O prazo para {act}, com antecedência mínima de {size} {head}, "
                f"encerra-se em {format_date(last)}.")
        if last != back.plain_last_day:
            text += (" Contada a antecedência, o termo recairia em "
                     f"{describe_day(back.plain_last_day, cal)}, dia sem expediente, e "
                     "antecipa-se para o dia útil anterior, para que a antecedência mínima "
                     "seja respeitada.")
        return _deadline(rule, reference, day, period, value, plain=back.plain_last_day,
                         last=last, explanation=text, counting=back.reason)
    result = count(day, period, cal, move_to_business_day=rule.non_business == "prorroga")
    plain, last = result.plain_last_day, result.last_day
    if rule.kind == "carencia":
        allowed = plain + timedelta(days=1)
        text = (f"O prazo de carência de {size} para {act}, contado {head}, estende-se até "
                f"{format_date(plain)}; a partir de {format_date(allowed)}, cessa o impedimento.")
        return _deadline(rule, reference, day, period, value, plain=plain, last=plain,
                         explanation=text, counting=result.reason, first_allowed_day=allowed)
    if rule.kind == "prazo_minimo":
        text = (f"O prazo mínimo de {size} para {act}, contado {head}, completa-se em "
                f"{format_date(last)}, data mais cedo admitida para o seu encerramento.")
    else:
        text = f"O prazo de {size} para {act}, contado {head}, encerra-se em {format_date(last)}."
    text += _move_note(plain, last, cal)
    return _deadline(rule, reference, day, period, value, plain=plain, last=last,
                     explanation=text, counting=result.reason)


def _move_note(plain: date, last: date, cal: BusinessCalendar) -> str:
    if last != plain:
        return (f" O termo recairia em {describe_day(plain, cal)}, dia sem expediente, e "
                f"prorroga-se para o primeiro dia útil seguinte (art. 66, § 1º, da {FEDERAL}).")
    if not cal.is_business_day(plain):
        return (f" O termo recai em {describe_day(plain, cal)}, e não se prorroga, por não se "
                "tratar de prazo para a prática de ato perante a Administração.")
    return ""


def _hours(rule: DeadlineRule, reference: str, start: date | datetime, period: Period,
           value: ParameterValue, cal: BusinessCalendar) -> StatutoryDeadline:
    if not isinstance(start, datetime):
        raise InputError(
            f"O prazo do {reference} é contado em horas: informe também a hora do evento "
            "(AAAA-MM-DDTHH:MM).",
            field="/inicio",
        )
    result = count_hours(start, period, cal,
                         move_to_business_day=rule.non_business == "prorroga")
    text = (f"O prazo de {period_size(period, rule)} para {lower_first(rule.act)}, contado "
            f"{rule.event_dated} {format_datetime(result.start)} ({reference}), encerra-se em "
            f"{format_datetime(result.end)}.")
    plain_day = result.plain_end.date()
    if result.moved:
        text += (f" O termo recairia em {describe_day(plain_day, cal)}, às "
                 f"{result.plain_end:%Hh%M}, dia sem expediente, e prorroga-se para a mesma "
                 f"hora do primeiro dia útil seguinte (art. 66, § 1º, da {FEDERAL}).")
    elif not cal.is_business_day(plain_day):
        text += (f" O termo recai em {describe_day(plain_day, cal)}, e não se prorroga, por não "
                 "se tratar de prazo para a prática de ato perante a Administração.")
    return _deadline(rule, reference, result.start, period, value, plain=plain_day,
                     last=result.end.date(), explanation=text, counting=result.reason,
                     end=result.end)


def _end_of_year(rule: DeadlineRule, reference: str, day: date, cal: BusinessCalendar
                 ) -> StatutoryDeadline:
    year_end = date(day.year, 12, 31)
    last = cal.last_business_day_of_year(day.year)
    text = (f"O prazo para {lower_first(rule.act)} encerra-se no último dia útil do ano "
            f"({reference}): no exercício de {day.year}, em {format_date(last)} "
            f"({weekday_name(last)}).")
    if last != year_end:
        text += (f" O dia 31/12/{day.year} é {describe_day(year_end, cal, dated=False)}, dia sem "
                 "expediente.")
    return _deadline(rule, reference, day, None, None, plain=year_end, last=last,
                     explanation=text)


def _months(rule: DeadlineRule, reference: str, day: date, cal: BusinessCalendar
            ) -> StatutoryDeadline:
    months = _months_in_force(rule, day)
    first, last = _window(months, day, cal)
    inside = first <= day <= last
    period_name = f"{month_name(first)} de {first.year}"
    text = (f"O prazo para {lower_first(rule.act)} corre nos meses de "
            f"{_join_months(months)} ({reference}); ")
    if inside:
        text += (f"em {format_date(day)}, está em curso o período de {period_name}, que se encerra "
                 f"em {format_date(last)}, último dia útil do mês.")
    else:
        text += (f"em {format_date(day)}, fora do período, o próximo é o mês de {period_name}, de "
                 f"{format_date(first)} a {format_date(last)}, último dia útil do mês.")
    return _deadline(rule, reference, day, None, None, plain=_month_end(first), last=last,
                     explanation=text, first_day=first, inside_window=inside)


def _join_months(months: tuple[int, ...]) -> str:
    """(5, 11) → "maio e de novembro"; (1, 5, 9) → "janeiro, de maio e de setembro"."""
    names = [month_name(date(2000, m, 1)) for m in months]
    if len(names) == 1:
        return names[0]
    return ", de ".join(names[:-1]) + " e de " + names[-1]


def _months_in_force(rule: DeadlineRule, day: date) -> tuple[int, ...]:
    for period in rule.months:
        if period.covers(day):
            return period.months
    known = "; ".join(
        format_span(p.since, p.until)
        for p in rule.months
    )
    raise ParameterError(
        f"Os meses do prazo do dispositivo {rule.citation} não têm valor vigente em "
        f"{format_date(day)}. Períodos conhecidos: {known}."
    )


def _window(months: tuple[int, ...], day: date, cal: BusinessCalendar) -> tuple[date, date]:
    """The month in course (if listed and its last business day not past) or the next."""
    year, month = day.year, day.month
    while True:  # months is never empty: some listed month comes within 13 steps
        if month in months:
            first = date(year, month, 1)
            last = cal.previous_business_day(_month_end(first))
            if day <= last:
                return first, last
        month += 1
        if month == 13:
            year, month = year + 1, 1


def _month_end(first: date) -> date:
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return following - timedelta(days=1)



# ---------------------------------------------------------------- wording


def _iso(d: date | None) -> str | None:
    return None if d is None else d.isoformat()


def period_size(period: Period, rule: DeadlineRule) -> str:
    return period.describe() + (f" {rule.qualifier}" if rule.qualifier else "")


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def describe_day(d: date, cal: BusinessCalendar, *, dated: bool = True) -> str:
    """"07/03/2026, sábado" or "09/07/2026, quinta-feira, feriado: Revolução ..."."""
    text = f"{format_date(d)}, {weekday_name(d)}" if dated else weekday_name(d)
    name = cal.holiday_name(d)
    if name is not None:
        return f"{text}, feriado: {name}"
    ponto = cal.ponto_facultativo_name(d)
    if ponto is not None:
        return f"{text}, ponto facultativo: {ponto}"
    return text



"""Periods of years and months, counted from date to date, in both laws.

Every period of years or months is counted from date to date (art. 66, § 3º, of Lei
federal nº 9.784/1999, applied where the municipal law is silent, as the STJ admits
for municipalities in Súmula 633): N years counted from a day end on the day of equal
number N years later (:func:`anniversary`), and on the last day of that month when it
has no such day (a start on 29 February ends its years on 28 February of a common
year). None of these is a time limit for doing an act, so the count is never moved
to a business day. What the anniversary *means* depends on what the law says of the
period, and the two readings are kept apart here, one function each:

A state the person has reached: :func:`has_elapsed` (the anniversary included).
    Age ("possuir mais de 21 (vinte e um) anos de idade", art. 7º, I, of Lei nº
    4.515/2007) and residence ("possuir residência no Município … há, no mínimo, 3
    (três) anos", art. 7º, III) describe a situation, and a situation is reached on a
    day: a person completes an age on the birthday itself, and has resided in the city
    "há, no mínimo, 3 anos" on the 3rd anniversary of moving in. Reading it a day later
    would deny the citizen a right he already has.

A bar, or a minimum time that must run before an act: :func:`free_from` and
    :func:`bar_lifted` (free from the day *after* the anniversary).
    The transfer only when "tenha decorrido o prazo mínimo de 2 (dois) anos de sua
    expedição" (art. 15, I) and the transferor who "não poderá obter outra licença,
    antes de decorridos 3 (três) anos da data da transferência" (art. 15, § 2º) are
    periods in the sense of art. 66 of Lei nº 9.784/1999: counted excluding the day of
    the start and *including the last day* (caput and § 3º; also Código Civil, art. 132,
    caput and § 3º). The last day of the period is the anniversary; the period has
    "decorrido" only when that day is over, so the act is admissible from the following
    day. This is the reading of the deadline table (``legal_text/prazos.json``, rows
    ``transporte-escolar#art15_inc1`` and ``#art15_par2``, kind ``carencia``: barred
    until the anniversary inclusive, ``first_allowed_day`` the day after). The rules
    that apply these two periods (:mod:`lavra_americana.transporte_escolar.eligibility`,
    :mod:`lavra_americana.transporte_escolar.transferencia`) count with
    :func:`free_from`, so that the table and the rules cannot disagree again
    (tests/test_eligibility.py checks both on the same dates). It is not a stricter
    reading of a restriction of rights: it is the count the federal law prescribes for
    every period, and the one a judge would apply.

A validity of N years or months that begins on a day: :func:`term_end`.
    "Validade de 5 (cinco) anos" (fretamento, art. 8º) is not a time limit counted
    from an event: it is the time the act is in force, and the act is in force on the
    day it starts (the day of issue, or the day after the licence it renews ends). That
    first day is one of the N years, so the last day of validity is the eve of the
    anniversary: 5 years from 05/12/2026 run to 04/12/2031, not to 05/12/2031 (which
    would be 5 years and one day). Art. 66 of Lei nº 9.784/1999 excludes the first day
    because the event that starts a deadline happens during it; a validity has no such
    event. The renewal then starts on the anniversary, and the terms follow each
    other without a gap or an overlap.

The look-back periods of the penalties (:mod:`lavra_americana.comum.infractions`) are
counted from date to date as well. Implements no provision by itself: the rules that
count a period cite the article that sets it.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from dateutil.relativedelta import relativedelta

from lavra.errors import InputError

__all__ = [
    "IMPLEMENTED",
    "anniversary",
    "bar_lifted",
    "check_date",
    "completed_years",
    "free_from",
    "has_elapsed",
    "term_end",
]

IMPLEMENTED: tuple[str, ...] = ()
"""Counting only: each rule that counts a period cites its own article."""


def anniversary(start: date, *, years: int = 0, months: int = 0) -> date:
    """The day on which ``years`` and ``months`` counted from ``start`` have elapsed.

    Date to date; a missing day (29 February, the 31st) falls on the last day of the
    month (art. 66, § 3º, of Lei nº 9.784/1999).
    """
    result: date = start + relativedelta(years=years, months=months)
    return result


def term_end(start: date, *, years: int = 0, months: int = 0) -> date:
    """The last day of a validity of ``years``/``months`` in force from ``start``
    inclusive: the eve of the anniversary (module docstring). 05/12/2026 + 5 years →
    04/12/2031; 29/02/2028 + 1 year → 27/02/2029."""
    return anniversary(start, years=years, months=months) - timedelta(days=1)


def has_elapsed(start: date, on: date, *, years: int = 0, months: int = 0) -> bool:
    """Whether the state of ``years``/``months`` from ``start`` is reached on ``on``: age,
    residence (the anniversary included; module docstring)."""
    return on >= anniversary(start, years=years, months=months)


def free_from(start: date, *, years: int = 0, months: int = 0) -> date:
    """The first day on which a bar (or minimum period) of ``years``/``months`` from
    ``start`` no longer holds: the day after the anniversary, the period's last day
    being included in it (art. 66, caput and § 3º, of Lei nº 9.784/1999; module
    docstring). The deadline table's ``first_allowed_day`` of a ``carencia``."""
    return anniversary(start, years=years, months=months) + timedelta(days=1)


def bar_lifted(start: date, on: date, *, years: int = 0, months: int = 0) -> bool:
    """Whether the bar of ``years``/``months`` from ``start`` is over on ``on`` (the
    anniversary still barred; module docstring)."""
    return on >= free_from(start, years=years, months=months)


def completed_years(start: date, on: date) -> int:
    return max(relativedelta(on, start).years, 0) if on >= start else 0


def check_date(value: object, field: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise InputError(
            f"Data inválida: {value!r} (informe dia, mês e ano, sem horário).", field=field
        )
    return value

"""Periods of years and months, counted from date to date, in both laws.

Periods of years and months of a person's situation (age, art. 7º, I; residence,
art. 7º, III; the bar after a transfer, art. 15, § 2º; the 12 months of art. 7º,
VIII) are counted from date to date (art. 66, § 3º, of Lei federal nº 9.784/1999,
applied where the municipal law is silent, as the STJ admits for municipalities
in Súmula 633): N years have elapsed on the day of equal number N years later,
and on the last day of that month when it has no such day (a start on 29
February completes its years on 28 February of a common year). The period is
complete *on* that anniversary, as a person completes an age on the birthday
itself; the count is not moved to a business day, since none of these is a time
limit for doing an act. The same "3 anos" thus means the same thing in art. 7º,
III, and art. 15, § 2º, and each reading is the one least restrictive of the
candidate's right, as restrictions of rights are read strictly.

The look-back periods of the penalties (:mod:`lavra_americana.comum.infractions`) are
counted the same way. Implements no provision by itself: the rules that count a
period cite the article that sets it.
"""

from __future__ import annotations

from datetime import date, datetime

from dateutil.relativedelta import relativedelta

from lavra.errors import InputError

__all__ = [
    "IMPLEMENTED",
    "anniversary",
    "check_date",
    "completed_years",
    "has_elapsed",
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


def has_elapsed(start: date, on: date, *, years: int = 0, months: int = 0) -> bool:
    """Whether ``years``/``months`` from ``start`` have elapsed on ``on`` (anniversary
    included: see the module docstring)."""
    return on >= anniversary(start, years=years, months=months)


def completed_years(start: date, on: date) -> int:
    return max(relativedelta(on, start).years, 0) if on >= start else 0


def check_date(value: object, field: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise InputError(
            f"Data inválida: {value!r} (informe dia, mês e ano, sem horário).", field=field
        )
    return value

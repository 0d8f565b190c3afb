"""Small pt-BR text helpers shared by the engine (dates in messages and explanations)."""

from __future__ import annotations

from datetime import date, datetime

from babel.dates import format_date as _babel_date

__all__ = ["format_date", "format_datetime", "format_span", "month_name", "weekday_name"]

_LOCALE = "pt_BR"


def format_date(value: date) -> str:
    """``29/11/2026``."""
    return value.strftime("%d/%m/%Y")


def format_datetime(value: datetime) -> str:
    """``29/11/2026, às 14h30`` (the wall time of ``value``, in its own zone)."""
    return value.strftime("%d/%m/%Y, às %Hh%M")


def format_span(since: date, until: date | None) -> str:
    """``de 01/01/2000 a 31/12/2009``, or ``de 01/01/2010 em diante`` when open."""
    return f"de {format_date(since)} " + (
        f"a {format_date(until)}" if until is not None else "em diante"
    )


def weekday_name(value: date) -> str:
    """``quinta-feira``."""
    return str(_babel_date(value, "EEEE", locale=_LOCALE))


def month_name(value: date) -> str:
    """``novembro``."""
    return str(_babel_date(value, "MMMM", locale=_LOCALE))

"""Small pt-BR text helpers shared by the engine (dates in messages and explanations)."""

from __future__ import annotations

import re
from datetime import date, datetime

from babel.dates import format_date as _babel_date

__all__ = [
    "format_act_number",
    "format_date",
    "format_datetime",
    "format_span",
    "month_name",
    "weekday_name",
]

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


_ACT_NUMBER = re.compile(
    r"^\s*(?:(?P<series>[A-ZÀ-Ú][A-ZÀ-Ú0-9]*(?:-[A-ZÀ-Ú0-9]+)*)\s+)?(?:n[º°o]\.?\s*)?"
    r"(?P<number>\d{1,6})/(?P<year>\d{4})\s*$"
)


def format_act_number(value: str) -> str:
    """An earlier act's number as the registry prints it: ``"ALV-X nº 0007/2026"``.

    ``"ALV-X 0007/2026"``, ``"ALV-X nº 7/2026"`` → ``"ALV-X nº 0007/2026"``; a number
    without series keeps its digits (``"7/2026"`` → ``"nº 7/2026"``: no series is
    invented for an act lavra may not have issued); any other text gets ``"nº "``.
    """
    text = " ".join(str(value).split())
    found = _ACT_NUMBER.match(text)
    if found is None:
        return text if text.lower().startswith(("nº", "n°")) else f"nº {text}"
    number, year = found["number"], found["year"]
    if found["series"] is None:
        return f"nº {number}/{year}"
    return f"{found['series']} nº {int(number):04d}/{year}"

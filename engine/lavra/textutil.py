"""Small pt-BR text helpers shared by the engine (dates in messages and explanations)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.dates import format_date as _babel_date

__all__ = [
    "act_titles",
    "format_act_number",
    "format_cited_act",
    "format_date",
    "format_datetime",
    "format_number_sign",
    "format_span",
    "month_name",
    "weekday_name",
    "without_sign",
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
    return _weekday_name(value.weekday())


def month_name(value: date) -> str:
    """``novembro``."""
    return _month_name(value.month)


# A name depends only on the weekday or the month: babel's ≈ 0.1 ms is paid once each
# (a check names the weekday of every deadline it counts, for every document).
@lru_cache(maxsize=7)
def _weekday_name(weekday: int) -> str:
    return str(_babel_date(date(2024, 1, 1 + weekday), "EEEE", locale=_LOCALE))  # a Monday


@lru_cache(maxsize=12)
def _month_name(month: int) -> str:
    return str(_babel_date(date(2024, month, 1), "MMMM", locale=_LOCALE))


#: Every way a number sign is typed: "nº", "n.º", "Nº", "N.º", "n°", "no.", "nro.",
#: "número", repeated or not ("nº nº"). Printed once, as "nº".
_SIGN = r"(?:n[º°o]\.?|n\.\s?[º°]|nr?o\.|n[úu]mero)(?![a-zà-ú])"
_LEADING_SIGNS = re.compile(rf"^(?:{_SIGN}\s*)+", re.IGNORECASE)
_ACT_NUMBER = re.compile(
    r"^\s*(?:(?P<series>[A-ZÀ-Ú][A-ZÀ-Ú0-9]*(?:-[A-ZÀ-Ú0-9]+)*)\s+)?"
    rf"(?:{_SIGN}\s*)*"
    r"(?P<number>\d{1,6})/(?P<year>\d{4}|\d{2})\s*$",
    re.IGNORECASE,
)


def without_sign(value: Any) -> str:
    """``value`` without the number signs typed before it: ``"n.º CT-2026/015"``,
    ``"Nº nº 12"`` → ``"CT-2026/015"``, ``"12"``."""
    text = " ".join(str(value).split())
    return _LEADING_SIGNS.sub("", text).strip()


def format_number_sign(value: Any) -> str:
    """``"nº 123"`` from ``"123"``, ``"nº 123"``, ``"n.º 123"`` or ``"Nº nº 123"``: the
    sign printed once, as official acts write it."""
    return f"nº {without_sign(value)}"


def _full_year(year: str) -> str:
    """A year typed with two digits is of this century (``"26"`` → ``"2026"``): lavra's
    acts and the acts they cite are all later than 2000."""
    return year if len(year) == 4 else f"20{year}"


def format_act_number(value: Any) -> str:
    """An earlier act's number as the registry prints it: ``"ALV-X nº 0007/2026"``.

    ``"ALV-X 0007/2026"``, ``"ALV-X nº 7/2026"``, ``"ALV-X n.º 7/26"``, ``"ALV-X Nº
    0007/2026"`` → ``"ALV-X nº 0007/2026"``; a number without series keeps its digits
    (``"7/2026"`` → ``"nº 7/2026"``: no series is invented for an act lavra may not have
    issued); any other text gets one ``"nº "`` (``"nº nº CT-1"`` → ``"nº CT-1"``).
    """
    text = " ".join(str(value).split())
    found = _ACT_NUMBER.match(text)
    if found is None or (found["series"] is not None
                         and _LEADING_SIGNS.fullmatch(found["series"] + " ")):
        return format_number_sign(text)
    number, year = found["number"], _full_year(found["year"])
    if found["series"] is None:
        return f"nº {number}/{year}"
    return f"{found['series'].upper()} nº {int(number):04d}/{year}"


def act_series(value: Any) -> str | None:
    """The series of an act's number as typed (``"rev-esc 1/26"`` → ``"REV-ESC"``), or
    None when it has none."""
    found = _ACT_NUMBER.match(" ".join(str(value).split()))
    if found is None or found["series"] is None:
        return None
    if _LEADING_SIGNS.fullmatch(found["series"] + " "):
        return None
    return found["series"].upper()


def format_cited_act(value: Any, titles: Mapping[str, str], label: str | None = None) -> str:
    """An earlier act cited by its own label, ``"nº"`` and series/number: ``"Decisão de
    Revogação do Alvará REV-X nº 0001/2026"``.

    The label is the title of the form that issues the series (``titles``: series →
    title, :func:`act_titles`); a number of no known series takes ``label`` (what the
    data say the act is: ``"Auto de infração"`` + ``"nº 7/2026"``), or none."""
    printed = format_act_number(value)
    series = act_series(value)
    named = (titles.get(series) if series is not None else None) or label
    return f"{named} {printed}" if named else printed


def act_titles(root: Path) -> dict[str, str]:
    """Series → the title of the form that issues it, from a pack's
    ``forms/*/formulario.json`` (a file that cannot be read is skipped: the content
    check reports it)."""
    import json

    titles: dict[str, str] = {}
    for meta in sorted((root / "forms").glob("*/formulario.json")):
        try:
            form = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(form, dict):
            continue
        series, title = form.get("serie"), form.get("titulo")
        if isinstance(series, str) and isinstance(title, str) and series and title:
            titles[series.upper()] = title
    return titles

"""How the licensing state writes the identifiers acts print: a document's printed
number (``ALV-TAXI nº 0007/2026``), a vehicle's plate in both its forms (old and Mercosul)
and a processo's number. Re-exported by :mod:`lavra.registry.state`."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement

from lavra.inputs.textnorm import clean_text
from lavra.registry.records import normalize_plate

__all__ = ["mercosul", "normalize_processo", "normalize_series", "numbers_by_series",
           "overlong_number", "parse_printed", "plate_forms", "same_plate"]

_PRINTED = re.compile(
    r"\s*(?:([A-Za-z][A-Za-z0-9._-]{0,39})\s+)?(?:n[º°o.]*\s*)?(\d{1,9})\s*/\s*(\d{4})\s*",
    re.IGNORECASE,
)


def parse_printed(printed: str) -> tuple[str | None, int, int] | None:
    """``("ALV-TAXI", 7, 2026)`` from ``"ALV-TAXI nº 0007/2026"`` (series None when absent)."""
    match = _PRINTED.fullmatch(printed) if isinstance(printed, str) else None
    if match is None:
        return None
    return match.group(1), int(match.group(2)), int(match.group(3))


def numbers_by_series(printed: Iterable[str]) -> dict[tuple[str, int], set[int]]:
    """The numbers of the acts ``printed`` with their series, by (series in capitals,
    year), for reading them a series and a year at a time; anything else is left out."""
    wanted: dict[tuple[str, int], set[int]] = defaultdict(set)
    for act in printed:
        parsed = parse_printed(act)
        if parsed is not None and parsed[0] is not None:
            wanted[parsed[0].upper(), parsed[2]].add(parsed[1])
    return wanted


_OVERLONG = re.compile(
    r"\s*(?:[A-Za-z][A-Za-z0-9._-]{0,39}\s+)?(?:n[º°o.]*\s*)?\d{10,}\s*/\s*\d{4}\s*",
    re.IGNORECASE,
)


def overlong_number(printed: str) -> bool:
    """``"SELO-ESC 99999999999/2026"``: the shape of a printed number whose number has
    more than 9 digits, which no series gives (:func:`parse_printed` reads none). A check
    that refuses it says the number is too long, not that it is of another series."""
    return isinstance(printed, str) and _OVERLONG.fullmatch(printed) is not None


def mercosul(placa: str) -> str:
    """The plate in the Mercosul format: ``ABC1234`` → ``ABC1C34`` (the second digit
    becomes a letter, A for 0 to J for 9); a Mercosul plate as it is."""
    if len(placa) == 7 and placa[:3].isalpha() and placa[3:].isdigit():
        return placa[:4] + "ABCDEFGHIJ"[int(placa[4])] + placa[5:]
    return placa


def plate_forms(placa: str) -> tuple[str, ...]:
    """Every form one vehicle's plate takes (normalized): the plate itself and, for an
    old plate, its Mercosul form, or, for a Mercosul plate, the old plate it was converted
    from (``ABC1C34`` → ``ABC1234``). The conversion is one to one, so a search by
    either form finds the vehicle."""
    plate = normalize_plate(placa)
    forms = [plate, mercosul(plate)]
    letters = "ABCDEFGHIJ"
    if (len(plate) == 7 and plate[:3].isalpha() and plate[3].isdigit()
            and plate[4] in letters and plate[5:].isdigit()):
        forms.append(plate[:4] + str(letters.index(plate[4])) + plate[5:])
    return tuple(dict.fromkeys(forms))


def same_plate(column: Any, placa: str) -> ColumnElement[bool]:
    """The registry's one plate comparison: ``column`` (a plate as the registry writes
    it, :func:`~lavra.registry.records.normalize_plate`, and indexed) holds a form of
    ``placa`` as typed: with or without the dash or spaces, in any case, old or
    Mercosul (:func:`plate_forms`). An ``IN`` of at most three values, which the
    column's index answers. InputError when ``placa`` is not a plate."""
    condition: ColumnElement[bool] = column.in_(plate_forms(placa))
    return condition


def normalize_series(series: str | None) -> str | None:
    """A series as staff type it, as the registry keeps it: in capitals, without the
    spaces around it (``" alv-esc "`` is ``ALV-ESC``); None when absent or blank. Every
    place the CLI or the web takes a series reads it through here."""
    if series is None or not series.strip():
        return None
    return series.strip().upper()


def normalize_processo(numero: str) -> str:
    """The PA number as kept: spaces collapsed, letters upper case."""
    return " ".join(clean_text(numero, field="/processo/numero").split()).upper()

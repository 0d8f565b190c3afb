"""Checks of the Americana pack that a form's ``verificacoes`` may name.

``idade_veiculo``
    The vehicle at ``campo`` (with ``tipo`` and ``ano_fabricacao``) is at most the
    number of years of manufacture that parameter ``<parametro>.<tipo>`` sets on the
    reference date (each form cites the provision that sets its limit, e.g.
    ``fretamento#art10_inc1``). The rule is
    :func:`lavra_americana.comum.vehicle_age.vehicle_age` (one implementation, one message).
    Counting: the law says "no máximo N anos de fabricação" and the CRLV records only
    the year of manufacture, so the age is the reference year minus the year of
    manufacture; the vehicle is within the limit while that difference is not greater
    than N (a 2016 micro-ônibus may run through 31/12/2026 under a 10-year limit). That
    takes the vehicle as made on 31 December of its year, the latest day the record
    allows: the reading most favourable to the holder. Counting from 1 January, the
    earliest possible day, would be the strictest one (the same vehicle out from
    02/01/2026).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

from lavra.checking.checks import CheckSpec, Rule
from lavra.checking.report import Item, Status
from lavra.errors import LavraError
from lavra.inputs import pointers
from lavra.law.params import Parameters
from lavra_americana.comum.vehicle_age import vehicle_age

__all__ = ["CHECKS", "IMPLEMENTED"]

IMPLEMENTED: tuple[str, ...] = ()
"""The checks apply the rule of :mod:`lavra_americana.comum.vehicle_age`, which cites
the provisions; each form cites the one that sets its limit."""


def _vehicle_age(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping):
        return
    year, kind = value.get("ano_fabricacao"), value.get("tipo")
    if not isinstance(year, int) or not isinstance(kind, str) or spec.parameter is None:
        return
    if f"{spec.parameter}.{kind}" not in params:
        # A type the law sets no limit for is a value the form's schema does not accept
        # either: its item already says so, by the field's label and the types accepted
        # (art. 9º); no second item naming the parameter that does not exist.
        return
    field = pointer + "/ano_fabricacao"
    plate = value.get("placa")
    try:
        found = vehicle_age(
            year,
            on,
            parameter=f"{spec.parameter}.{kind}",
            params=params,
            plate=plate if isinstance(plate, str) and plate else None,
            field=field,
            basis=spec.basis or None,
        )
    except LavraError as error:
        yield Item(pointers.dotted(field), Status.INVALID, field, error.message, spec.basis)
        return
    yield from found.items


CHECKS: Mapping[str, Rule] = {"idade_veiculo": _vehicle_age}

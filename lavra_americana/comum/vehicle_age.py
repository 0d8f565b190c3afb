"""The age of a vehicle, in both laws: fretamento art. 10, I; transporte escolar
art. 17, I, and art. 5º, II.

Every rule is a pure function of its inputs and a reference date. It returns a frozen
result with the value, the report items (:class:`lavra.checking.report.Item`, one per
requirement, each citing its inciso) and a short pt-BR explanation fit to be printed
in a decision. Numbers fixed by law are read from the pack's parameters as of the
reference date; a parameter with no value in force is a :class:`ParameterError`.

Vehicle age ("no máximo N anos de fabricação", fretamento art. 10, I; transporte
escolar art. 17, I, and art. 5º, II). The law limits the time elapsed since the
vehicle was made, but the CRLV records only the *year* of manufacture, so the day
within that year is unknown. The age is the reference year minus that year
(:func:`vehicle_age_years`), and the vehicle is within the limit while the
difference is not greater than N: under a 10-year limit a 2016 vehicle runs
through 31/12/2026 and is out on 01/01/2027. That is exactly the result of taking
the vehicle as made on 31 December of its year, the latest day the record allows
(N years from 31/12/2016 elapse on 31/12/2026): the reading most favourable to the
holder, chosen because a restriction of rights is read strictly and the doubt the
record leaves is not held against the holder. Counting from 1 January, the
earliest possible day, would be the strictest reading: the same vehicle would be
out from 02/01/2026, almost a year earlier. The rule needs nothing but the CRLV,
so a clerk can check it by hand. :func:`vehicle_age` is its only implementation:
the forms' check ``idade_veiculo`` (:mod:`lavra_americana.comum.checks`) calls it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from lavra.checking.report import Item, Status
from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.law.model import Law
from lavra.law.params import Parameters
from lavra.textutil import format_date
from lavra_americana.comum.citing import short
from lavra_americana.comum.periods import check_date

__all__ = [
    "IMPLEMENTED",
    "VehicleAge",
    "VehicleLaw",
    "vehicle_age",
    "vehicle_age_years",
]

VehicleLaw = Literal["fretamento", "transporte-escolar", "transporte-escolar-substituto"]
SCHOOL = "transporte-escolar"

IMPLEMENTED: tuple[str, ...] = (
    "fretamento#art10_inc1",
    "transporte-escolar#art5_inc2",
    "transporte-escolar#art17_inc1",
)
"""The age limits of both laws' vehicles: fretamento art. 10, I; transporte escolar
art. 17, I, and the substitute vehicle of art. 5º, II."""


def vehicle_age_years(year_of_manufacture: int, on: date) -> int:
    """Years of manufacture on ``on``: the reference year minus the year of manufacture.

    The CRLV records the year only; see the module docstring. Negative when the year
    is after the reference date (the caller reports that as an error).
    """
    if isinstance(year_of_manufacture, bool) or not isinstance(year_of_manufacture, int):
        raise InputError(
            f"Ano de fabricação inválido: {year_of_manufacture!r} (informe o ano com "
            "quatro algarismos).",
            field="/ano_fabricacao",
        )
    check_date(on, "/data_referencia")
    return on.year - year_of_manufacture


@dataclass(frozen=True)
class VehicleAge:
    """The age of a vehicle on a date against the limit in force.

    ``within`` is None when the year of manufacture is after the reference date
    (bad data; the item is ``invalid``).
    """

    year_of_manufacture: int
    on: date
    age: int
    limit: int
    within: bool | None
    basis: tuple[str, ...]
    items: tuple[Item, ...]
    explanation: str

    @property
    def last_day(self) -> date:
        """The last day the vehicle is within the limit: 31/12 of the year of
        manufacture plus the limit (module docstring). A licence for it ends no later."""
        return date(self.year_of_manufacture + self.limit, 12, 31)


def _vehicle_parameter(law: VehicleLaw, kind: str | None, params: Parameters) -> str:
    if law == "fretamento":
        prefix = "fretamento.idade_maxima_veiculo."
        kinds = sorted(name.removeprefix(prefix) for name in params if name.startswith(prefix))
        if kind is None or f"{prefix}{kind}" not in params:
            raise InputError(
                f"Tipo de veículo de fretamento inválido: {kind!r}. Use um destes: "
                f"{', '.join(kinds)}.",
                field="/tipo",
            )
        return f"{prefix}{kind}"
    if law == "transporte-escolar":
        return f"{SCHOOL}.idade_maxima_veiculo"
    if law == "transporte-escolar-substituto":
        return f"{SCHOOL}.idade_maxima_veiculo_substituto"
    raise InputError(f"Lei desconhecida para a idade do veículo: {law!r}.", field="/lei")


def vehicle_age(
    year_of_manufacture: int,
    on: date,
    *,
    law: VehicleLaw | None = None,
    params: Parameters,
    laws: Mapping[str, Law] | None = None,
    kind: str | None = None,
    plate: str | None = None,
    field: str = "/veiculo/ano_fabricacao",
    parameter: str | None = None,
    basis: Sequence[str] | None = None,
) -> VehicleAge:
    """Whether a vehicle made in ``year_of_manufacture`` is within the age limit on ``on``.

    The limit is the parameter named by ``law``: ``"fretamento"`` (art. 10, I: the
    limit by ``kind``, one of the ``fretamento.idade_maxima_veiculo.<tipo>``
    parameters), ``"transporte-escolar"`` (art. 17, I) or
    ``"transporte-escolar-substituto"`` (the substitute vehicle under a Licença
    Temporária, art. 5º, II); or, instead of ``law``, the parameter named by
    ``parameter`` (a content pack's form check). The message cites the parameter's
    legal basis through ``laws``, or, without them, the parameter's source. ``basis``
    replaces the parameter's basis in the item (a form check's own annotation).
    A parameter without value in force on ``on`` is a :class:`ParameterError`.
    """
    if law is not None and parameter is None:
        name = _vehicle_parameter(law, kind, params)
    elif parameter is not None and law is None:
        name = parameter
    else:
        raise InputError(
            "Informe a lei ou o parâmetro do limite de idade do veículo (um dos dois).",
            field="/lei",
        )
    age = vehicle_age_years(year_of_manufacture, on)
    limit_value = params.value(name, on)
    limit = int(limit_value.value)
    cited = limit_value.basis
    ref = short(laws, cited[0]) if cited and laws is not None else limit_value.source
    item_basis = tuple(basis) if basis is not None else cited
    who = f"Veículo de placa {plate}" if plate else "Veículo"
    ident = pointers.dotted(field)
    within: bool | None
    if age < 0:
        within, status = None, Status.INVALID
        message = (
            f"{who}: ano de fabricação {year_of_manufacture} posterior à data de "
            f"referência ({format_date(on)})."
        )
    elif age > limit:
        within, status = False, Status.INVALID
        last_year = year_of_manufacture + limit
        message = (
            f"{who}, fabricado em {year_of_manufacture}: em {format_date(on)} conta "
            f"{age} anos de fabricação, acima do máximo de {limit} anos ({ref}); "
            f"poderia circular até 31/12/{last_year}."
        )
    else:
        within, status = True, Status.MET
        message = (
            f"{who}, fabricado em {year_of_manufacture}: {age} "
            f"{'ano' if age == 1 else 'anos'} de fabricação em {format_date(on)}, dentro "
            f"do máximo de {limit} anos ({ref}), até 31/12/{year_of_manufacture + limit}."
        )
    item = Item(ident, status, field, message, item_basis)
    return VehicleAge(
        year_of_manufacture=year_of_manufacture,
        on=on,
        age=age,
        limit=limit,
        within=within,
        basis=item_basis,
        items=(item,),
        explanation=message,
    )

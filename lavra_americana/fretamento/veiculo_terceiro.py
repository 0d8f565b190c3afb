"""The vehicle another company lends (Lei nº 4.419/2006, art. 15, VI) must itself meet
art. 10, I: "no máximo, 20 (vinte) anos de fabricação para ônibus rodoviário e 10 (dez)
anos para microônibus e 5 (cinco) anos para os demais".

An authorisation for a third party's vehicle that knew neither its year nor its type
never checked the vehicle actually used. :func:`third_party_vehicle_age`:

- the year of manufacture and the type are the registry's when it holds the vehicle's
  alvará (the licensing state's vehicle: the alvará that licensed it recorded both,
  required by its schema); the data may state them, and a stated value the registry
  contradicts is *invalid* (the registry wins, as for the alvará's vencimento);
- without the registry's record, the stated ones (a paper alvará, checked in the
  original by a servant); neither known: *missing* for the act (the requerimento
  only shows it);
- the age limit of the type (:func:`lavra_americana.comum.validity.vehicle_limit`,
  :mod:`lavra_americana.comum.vehicle_age`): a vehicle past it on the date of the act
  is *invalid*; otherwise its last day is one more limit of the authorisation, which
  cannot outlive the vehicle's admissibility any more than the alvarás.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from lavra.checking.computations import clean_text, item_at
from lavra.checking.report import Item, Status
from lavra.inputs import pointers
from lavra.law.statutory import StatutoryContext
from lavra.textutil import format_date
from lavra_americana.comum.validity import Limit, vehicle_limit

__all__ = ["AGE", "IMPLEMENTED", "VehicleAge", "third_party_vehicle_age"]

AGE = "fretamento#art10_inc1"

IMPLEMENTED: tuple[str, ...] = (AGE,)
"""Citations this module applies (coverage): art. 10, I for the vehicle lent."""

_KIND_WORDS = {"onibus_rodoviario": "ônibus rodoviário", "microonibus": "micro-ônibus",
               "outro": "outro tipo"}


@dataclass(frozen=True)
class VehicleAge:
    """The vehicle's year and type as judged, its age limit (None when unknown) and the
    report items."""

    year: int | None
    kind: str | None
    limit: Limit | None
    items: tuple[Item, ...]


def _year(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def third_party_vehicle_age(
    data: Mapping[str, Any],
    registered: Mapping[str, Any] | None,
    on: date,
    context: StatutoryContext,
    *,
    act: bool,
) -> VehicleAge:
    """Art. 10, I, for the vehicle at ``/veiculo``; ``registered`` is the data of its
    alvará in the registry (None when the registry lacks it)."""
    items: list[Item] = []
    stated_year = _year(pointers.get(data, "/veiculo/ano_fabricacao"))
    stated_kind = clean_text(pointers.get(data, "/veiculo/tipo"))
    year, kind = stated_year, stated_kind
    if registered is not None:
        known_year = _year(pointers.get(registered, "/veiculo/ano_fabricacao"))
        known_kind = clean_text(pointers.get(registered, "/veiculo/tipo"))
        for field, stated, known, words in (
            ("/veiculo/ano_fabricacao", stated_year, known_year, str(known_year)),
            ("/veiculo/tipo", stated_kind, known_kind,
             _KIND_WORDS.get(known_kind or "", known_kind or "")),
        ):
            if stated is not None and known is not None and stated != known:
                items.append(item_at(
                    field, Status.INVALID,
                    f"Segundo o alvará do veículo no registro, o dado é «{words}»: o limite "
                    "de idade do art. 10, I, se confere com o veículo efetivamente usado.",
                    AGE,
                ))
        year = known_year if known_year is not None else stated_year
        kind = known_kind if known_kind is not None else stated_kind
    if year is None or kind is None:
        if act:
            field = "/veiculo/ano_fabricacao" if year is None else "/veiculo/tipo"
            items.append(item_at(
                field, Status.MISSING,
                "Informe o ano de fabricação e o tipo do veículo da outra empresa: o "
                "limite de idade do art. 10, I (20 anos para ônibus rodoviário, 10 para "
                "micro-ônibus e 5 para os demais) vale para o veículo efetivamente usado.",
                AGE,
            ))
        return VehicleAge(year, kind, None, tuple(items))
    vehicle = {"veiculo": {"ano_fabricacao": year, "tipo": kind}}
    limit = vehicle_limit(vehicle, "/veiculo", on, context, "fretamento", kind=kind,
                          what="do veículo da outra empresa")
    if limit is not None and limit.end < on:
        items.append(item_at(
            "/veiculo/ano_fabricacao", Status.INVALID,
            f"O veículo ({_KIND_WORDS.get(kind, kind)}, fabricado em {year}) ultrapassou "
            f"em {format_date(limit.end)} o limite de idade do art. 10, I: não pode ser "
            "usado no fretamento, nem por autorização.",
            AGE,
        ))
    return VehicleAge(year, kind, limit, tuple(items))

"""Checks a schema cannot express: small pure functions of data and a reference date.

A form's metadata lists the checks it needs (``verificacoes``), each naming a rule,
the field it applies to (a pointer pattern) and the legal basis. Every check returns
report items of the same kind as the schema-derived ones, so the draft, the CLI and
the web pages show them alike.

Rules available to content packs:

``idade_veiculo``
    The vehicle at ``campo`` (with ``tipo`` and ``ano_fabricacao``) is at most the
    number of years of manufacture that parameter ``<parametro>.<tipo>`` sets on the
    reference date. The rule is :func:`lavra.eligibility.vehicle_age` (one
    implementation, one message). Counting: the law says "no máximo N anos de
    fabricação" and the CRLV records only the year of manufacture, so the age is the
    reference year minus the year of manufacture; the vehicle is within the limit
    while that difference is not greater than N (a 2016 micro-ônibus may run through
    31/12/2026 under a 10-year limit). That takes the vehicle as made on 31 December
    of its year, the latest day the record allows: the reading most favourable to the
    holder. Counting from 1 January, the earliest possible day, would be the
    strictest one (the same vehicle out from 02/01/2026).
``emitido_ha_no_maximo``
    The document at ``campo`` was issued no more than ``<parametro>`` months before
    the reference date (e.g. the annual vehicle inspection).
``vigente``
    The object at ``campo`` has a ``validade`` not earlier than the reference date.

Every attachment (a field whose schema is the shared ``documento``) is also checked
on its own: it may not be past its ``validade`` nor issued after the reference date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from lavra import pointers
from lavra.eligibility import vehicle_age
from lavra.errors import ContentPackError, LavraError
from lavra.inputs import maybe_date
from lavra.params import Parameters
from lavra.report import Item, Status
from lavra.schemas import FieldInfo
from lavra.textutil import format_date


@dataclass(frozen=True)
class CheckSpec:
    rule: str
    field: str
    basis: tuple[str, ...]
    parameter: str | None = None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], where: str) -> CheckSpec:
        known = {"regra", "campo", "fundamento", "parametro"}
        unknown = set(raw) - known
        if unknown or "regra" not in raw or "campo" not in raw:
            raise ContentPackError(
                f"{where}: verificação malformada (chaves desconhecidas: "
                f"{', '.join(sorted(unknown)) or 'nenhuma'}; exigidas: regra, campo)."
            )
        if raw["regra"] not in RULES:
            raise ContentPackError(f"{where}: regra desconhecida «{raw['regra']}».")
        return cls(
            rule=str(raw["regra"]),
            field=str(raw["campo"]),
            basis=tuple(raw.get("fundamento", ())),
            parameter=raw.get("parametro"),
        )


def _vehicle_age(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping):
        return
    year, kind = value.get("ano_fabricacao"), value.get("tipo")
    if not isinstance(year, int) or not isinstance(kind, str) or spec.parameter is None:
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


def _issued_within(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping) or spec.parameter is None:
        return
    issued = maybe_date(value.get("data_emissao"))
    if issued is None:
        return
    ident = pointers.dotted(pointer)
    try:
        months = int(params.value(spec.parameter, on).value)
    except LavraError as error:
        yield Item(ident, Status.INVALID, pointer, error.message, spec.basis)
        return
    valid_until = issued + relativedelta(months=months)
    if valid_until < on:
        yield Item(
            ident,
            Status.INVALID,
            pointer,
            f"Documento emitido em {format_date(issued)}, há mais de {months} meses "
            f"da data de referência ({format_date(on)}): deve ser renovado.",
            spec.basis,
        )


def _in_force(
    spec: CheckSpec, pointer: str, value: Any, on: date, params: Parameters
) -> Iterator[Item]:
    if not isinstance(value, Mapping):
        return
    expiry = maybe_date(value.get("validade"))
    if expiry is not None and expiry < on:
        yield Item(
            pointers.dotted(pointer),
            Status.INVALID,
            pointer + "/validade",
            f"Validade vencida em {format_date(expiry)} (data de referência {format_date(on)}).",
            spec.basis,
        )


Rule = Callable[[CheckSpec, str, Any, date, Parameters], Iterator[Item]]

RULES: dict[str, Rule] = {
    "idade_veiculo": _vehicle_age,
    "emitido_ha_no_maximo": _issued_within,
    "vigente": _in_force,
}


def document_findings(
    fields: Iterable[FieldInfo], data: Mapping[str, Any], on: date
) -> Iterator[Item]:
    """Every attachment: not past its own validity, not issued after the reference date."""
    for info in fields:
        if not info.document:
            continue
        for pointer in pointers.expand(info.pattern, data):
            value = pointers.get(data, pointer)
            if not isinstance(value, Mapping):
                continue
            ident, label = pointers.dotted(pointer), info.title or pointers.dotted(pointer)
            expiry = maybe_date(value.get("validade"))
            issued = maybe_date(value.get("data_emissao"))
            if expiry is not None and expiry < on:
                yield Item(
                    ident,
                    Status.INVALID,
                    pointer + "/validade",
                    f"{label}: documento vencido em {format_date(expiry)} "
                    f"(data de referência {format_date(on)}); apresente documento válido.",
                    tuple(info.basis),
                )
            elif issued is not None and issued > on:
                yield Item(
                    ident,
                    Status.INVALID,
                    pointer + "/data_emissao",
                    f"{label}: data de emissão {format_date(issued)} posterior à data de "
                    f"referência ({format_date(on)}).",
                    tuple(info.basis),
                )


def run_checks(
    specs: Iterable[CheckSpec], data: Mapping[str, Any], on: date, params: Parameters
) -> list[Item]:
    """All findings of the form's checks on the reference date."""
    found: list[Item] = []
    for spec in specs:
        rule = RULES[spec.rule]
        for pointer in pointers.expand(spec.field, data):
            found.extend(rule(spec, pointer, pointers.get(data, pointer), on, params))
    return found

"""Legal parameters with validity periods, read "as of" a date (OpenFisca style).

``legal_text/parametros.json`` holds every value a law fixes or that changes over time
(validity of licences, deadlines, vehicle age limits, fines)::

    {"parametros": {
      "transito.validade_licenca": {
        "descricao": "...", "unidade": "anos", "fundamento": ["transito#art8"],
        "nota": null,
        "vigencias": [{"desde": "2006-11-17", "ate": null, "valor": 5,
                       "fonte": "Lei nº 4.419/2006, art. 8º"}]}}}

``ate`` is inclusive; ``null`` means "until further change". Periods are in order and do
not overlap; gaps are allowed and mean "no known value". Values are integers or, written
as JSON strings, decimals; money (``"unidade": "BRL"``) is always a :class:`Decimal`.
:meth:`Parameters.value` never falls back silently: a date outside every period is a
:class:`ParameterError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from referencing.jsonschema import SchemaRegistry

from lavra.errors import ContentPackError, InputError, ParameterError
from lavra.inputs.reading import describe_os_error
from lavra.inputs.schemas.registry import build_registry
from lavra.inputs.schemas.validation import validate
from lavra.textutil import format_date, format_span

__all__ = [
    "PARAMETERS",
    "PackFile",
    "Parameter",
    "ParameterValue",
    "Parameters",
    "Period",
    "Validity",
    "escape",
    "load_parameters",
    "parameters_from_document",
    "parameters_from_table",
    "validity_periods",
]

PARAMETERS_FILE = Path("legal_text") / "parametros.json"
MONEY_UNIT = "BRL"

Value = int | Decimal


@dataclass(frozen=True)
class Validity:
    """A span in which something is in force: ``since`` to ``until`` (inclusive, None = open)."""

    since: date
    until: date | None

    def covers(self, on: date) -> bool:
        return self.since <= on and (self.until is None or on <= self.until)


@dataclass(frozen=True)
class Period(Validity):
    """One validity period of a parameter, with its value and the act that fixed it."""

    value: Value
    source: str


@dataclass(frozen=True)
class Parameter:
    """A parameter and all its periods."""

    name: str
    description: str
    unit: str
    basis: tuple[str, ...]
    note: str | None
    periods: tuple[Period, ...]
    registered_by: str | None = None
    """Who registers the values the pack lacks (``cadastrado_por``), in the registry:
    e.g. the administrator of the corrected fines; None when only the pack sets it."""


@dataclass(frozen=True)
class ParameterValue:
    """The value of a parameter in force on a date, with the period and its source."""

    name: str
    value: Value
    unit: str
    since: date
    until: date | None
    source: str
    basis: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Parameters:
    """All parameters of a content pack."""

    parameters: Mapping[str, Parameter] = field(hash=False)

    def __contains__(self, name: object) -> bool:
        return name in self.parameters

    def __iter__(self) -> Iterator[str]:
        return iter(self.parameters)

    def parameter(self, name: str) -> Parameter:
        """The parameter ``name``; :class:`ParameterError` when unknown."""
        found = self.parameters.get(name)
        if found is None:
            raise ParameterError(
                f"O parâmetro legal {name!r} não existe em {PARAMETERS_FILE.as_posix()}."
            )
        return found

    def value(self, name: str, on: date) -> ParameterValue:
        """The value of ``name`` in force on ``on``.

        Raises :class:`ParameterError` naming the parameter and the date when the
        parameter is unknown or no period covers the date; :class:`InputError` when
        ``on`` is not a calendar date.
        """
        if isinstance(on, datetime) or not isinstance(on, date):
            raise InputError(
                f"Data de referência inválida para o parâmetro {name!r}: informe uma data "
                "(dia, mês e ano), sem horário."
            )
        param = self.parameter(name)
        for period in param.periods:
            if period.covers(on):
                return ParameterValue(
                    name=name,
                    value=period.value,
                    unit=param.unit,
                    since=period.since,
                    until=period.until,
                    source=period.source,
                    basis=param.basis,
                    description=param.description,
                )
        known = "; ".join(
            format_span(p.since, p.until)
            for p in param.periods
        )
        raise ParameterError(
            f"O parâmetro legal {name!r} ({param.description}) não tem valor vigente em "
            f"{format_date(on)}. Períodos conhecidos: {known}."
            + (f" Observação: {param.note}" if param.note else "")
        )


# ---------------------------------------------------------------- pack files

SCHEMAS_DIR = Path(__file__).resolve().parent / "pack_schemas"
"""The schemas shipped with the engine; ``_pacote/`` there describes the pack's files.

The shape of ``legal_text/parametros.json``, ``prazos.json``, ``feriados-municipais.json``
and ``exemplo-valores-corrigidos.json`` is the engine's contract, not a municipality's
choice: every pack is checked against these schemas, whatever schemas it ships itself.
"""


@lru_cache(maxsize=1)
def _registry() -> SchemaRegistry:
    return build_registry(SCHEMAS_DIR)


@dataclass(frozen=True)
class PackFile:
    """A JSON file of the content pack described by a schema of ``schemas/_pacote/``.

    ``path`` is relative to the pack root; ``schema`` the schema's name under
    ``schemas/``; ``of`` names the file in messages ("dos parâmetros legais");
    ``invalid`` opens the message of a broken entry ("Parâmetros inválidos").
    """

    path: Path
    schema: str
    of: str
    invalid: str

    def error(self, message: str, pointer: str) -> ContentPackError:
        """A :class:`ContentPackError` naming this file and the JSON pointer at fault."""
        return ContentPackError(
            f"{self.invalid} em {self.path.as_posix()} ({pointer or '/'}): {message}",
            field=pointer or "/",
        )

    def check(self, raw: Any) -> Any:
        """``raw`` when it satisfies the file's schema; else the first issue as an error."""
        issues = validate(_registry(), self.schema, raw)
        if not issues:
            return raw
        first, *others = issues
        error = self.error(first.message, first.pointer)
        if others:
            more = " ".join(f"({issue.pointer}) {issue.message}" for issue in others)
            error = ContentPackError(f"{error.message} Outros problemas: {more}",
                                     field=error.field)
        raise error

    def load(self, pack_dir: Path) -> Any:
        """The file of the pack at ``pack_dir``, read, parsed and checked."""
        path = Path(pack_dir) / self.path
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ContentPackError(f"Arquivo {self.of} não encontrado: {path}.") from None
        except OSError as exc:
            raise ContentPackError(
                f"Não foi possível ler o arquivo {self.of} ({path}): {describe_os_error(exc)}."
            ) from None
        except UnicodeDecodeError:
            raise ContentPackError(
                f"O arquivo {self.of} ({path}) não está codificado em UTF-8."
            ) from None
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ContentPackError(
                f"O arquivo {self.of} ({path}) não é JSON válido (linha {exc.lineno}, "
                f"coluna {exc.colno})."
            ) from None
        return self.check(raw)


PARAMETERS = PackFile(PARAMETERS_FILE, "_pacote/parametros.json", "dos parâmetros legais",
                      "Parâmetros inválidos")


def escape(key: str) -> str:
    """``key`` as one token of a JSON pointer."""
    return key.replace("~", "~0").replace("/", "~1")


def validity_periods(raw: list[Any], pointer: str, file: PackFile
                     ) -> list[tuple[date, date | None]]:
    """``(desde, ate)`` of schema-checked periods, each in order and without overlap."""
    found: list[tuple[date, date | None]] = []
    for index, item in enumerate(raw):
        where = f"{pointer}/{index}"
        since = date.fromisoformat(item["desde"])
        until = None if item["ate"] is None else date.fromisoformat(item["ate"])
        if until is not None and until < since:
            raise file.error("a vigência termina antes de começar.", where)
        if found:
            previous = found[-1][1]
            if previous is None or since <= previous:
                raise file.error("as vigências devem estar em ordem e sem sobreposição.", where)
        found.append((since, until))
    return found


def _value(raw: int | float | str, unit: str, pointer: str, file: PackFile) -> Value:
    # The schema admits integers and decimal texts; JSON Schema counts 1.0 as an integer.
    if isinstance(raw, float):
        raise file.error("use um inteiro ou, para decimais, um texto como \"140.00\".", pointer)
    if isinstance(raw, int):
        return Decimal(raw) if unit == MONEY_UNIT else raw
    return Decimal(raw)


def _parameter(name: str, raw: dict[str, Any], pointer: str, file: PackFile) -> Parameter:
    unit: str = raw["unidade"]
    spans = validity_periods(raw["vigencias"], f"{pointer}/vigencias", file)
    periods = tuple(
        Period(since=since, until=until,
               value=_value(item["valor"], unit, f"{pointer}/vigencias/{index}/valor", file),
               source=item["fonte"])
        for index, ((since, until), item) in enumerate(zip(spans, raw["vigencias"], strict=True))
    )
    return Parameter(name=name, description=raw["descricao"], unit=unit,
                     basis=tuple(raw["fundamento"]), note=raw.get("nota"), periods=periods,
                     registered_by=raw.get("cadastrado_por"))


def parameters_from_table(table: dict[str, Any], file: PackFile = PARAMETERS) -> Parameters:
    """:class:`Parameters` from the schema-checked ``parametros`` object of ``file``."""
    params = {
        name: _parameter(name, item, f"/parametros/{escape(name)}", file)
        for name, item in table.items()
    }
    return Parameters(parameters=MappingProxyType(params))


def parameters_from_document(raw: Any) -> Parameters:
    """Build :class:`Parameters` from the parsed JSON document of ``parametros.json``."""
    return parameters_from_table(PARAMETERS.check(raw)["parametros"])


def load_parameters(pack_dir: Path) -> Parameters:
    """Load ``legal_text/parametros.json`` of the pack; :class:`ContentPackError` if broken."""
    return parameters_from_table(PARAMETERS.load(pack_dir)["parametros"])

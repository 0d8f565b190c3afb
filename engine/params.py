"""Legal parameters with validity periods, read "as of" a date (OpenFisca style).

``legal_text/parametros.json`` holds every value a law fixes or that changes over time
(validity of licences, deadlines, vehicle age limits, fines)::

    {"parametros": {
      "fretamento.validade_alvara": {
        "descricao": "...", "unidade": "anos", "fundamento": ["fretamento#art8"],
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
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from types import MappingProxyType
from typing import Any

from lavra.errors import ContentPackError, InputError, ParameterError

__all__ = ["Parameter", "ParameterValue", "Parameters", "Period", "load_parameters"]

PARAMETERS_FILE = Path("legal_text") / "parametros.json"
MONEY_UNIT = "BRL"
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9_]+)+$")

Value = int | Decimal

_PARAM_KEYS = ("descricao", "unidade", "fundamento", "vigencias")
_PARAM_OPTIONAL = ("nota",)
_PERIOD_KEYS = ("desde", "ate", "valor", "fonte")


@dataclass(frozen=True)
class Period:
    """One validity period of a parameter (``until`` inclusive, None = open)."""

    since: date
    until: date | None
    value: Value
    source: str

    def covers(self, on: date) -> bool:
        return self.since <= on and (self.until is None or on <= self.until)


@dataclass(frozen=True)
class Parameter:
    """A parameter and all its periods."""

    name: str
    description: str
    unit: str
    basis: tuple[str, ...]
    note: str | None
    periods: tuple[Period, ...]


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


def _fmt(day: date) -> str:
    return day.strftime("%d/%m/%Y")


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
            f"de {_fmt(p.since)} " + (f"a {_fmt(p.until)}" if p.until else "em diante")
            for p in param.periods
        )
        raise ParameterError(
            f"O parâmetro legal {name!r} ({param.description}) não tem valor vigente em "
            f"{_fmt(on)}. Períodos conhecidos: {known}."
            + (f" Observação: {param.note}" if param.note else "")
        )


# ---------------------------------------------------------------- loading


def _fail(message: str, pointer: str) -> ContentPackError:
    return ContentPackError(
        f"Parâmetros inválidos em {PARAMETERS_FILE.as_posix()} ({pointer}): {message}",
        field=pointer,
    )


def _object(raw: Any, required: tuple[str, ...], optional: tuple[str, ...],
            pointer: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _fail("esperava-se um objeto JSON.", pointer)
    unknown = sorted(set(raw) - set(required) - set(optional))
    if unknown:
        raise _fail(f"chave(s) desconhecida(s): {', '.join(unknown)}.", pointer)
    missing = [k for k in required if k not in raw]
    if missing:
        raise _fail(f"chave(s) obrigatória(s) ausente(s): {', '.join(missing)}.", pointer)
    return raw


def _text(raw: Any, pointer: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise _fail("esperava-se um texto não vazio.", pointer)
    return raw


def _day(raw: Any, pointer: str) -> date:
    try:
        return date.fromisoformat(_text(raw, pointer))
    except ValueError:
        raise _fail(f"data inválida {raw!r} (use AAAA-MM-DD).", pointer) from None


def _value(raw: Any, unit: str, pointer: str) -> Value:
    if isinstance(raw, (bool, float)):
        raise _fail("use um inteiro ou, para decimais, um texto como \"140.00\".", pointer)
    if isinstance(raw, int):
        return Decimal(raw) if unit == MONEY_UNIT else raw
    if isinstance(raw, str):
        try:
            number = Decimal(raw)
        except InvalidOperation:
            raise _fail(f"valor numérico inválido {raw!r}.", pointer) from None
        if number.is_finite():
            return number
    raise _fail(f"valor inválido {raw!r}.", pointer)


def _parameter(name: str, raw: Any, pointer: str) -> Parameter:
    if not NAME.match(name):
        raise _fail(f"nome de parâmetro inválido {name!r} (ex.: fretamento.validade_alvara).",
                    pointer)
    obj = _object(raw, _PARAM_KEYS, _PARAM_OPTIONAL, pointer)
    unit = _text(obj["unidade"], f"{pointer}/unidade")
    basis = obj["fundamento"]
    if not isinstance(basis, list) or not all(isinstance(c, str) and c for c in basis):
        raise _fail("fundamento deve ser uma lista de citações.", f"{pointer}/fundamento")
    note = obj.get("nota")
    if note is not None:
        note = _text(note, f"{pointer}/nota")
    raw_periods = obj["vigencias"]
    if not isinstance(raw_periods, list) or not raw_periods:
        raise _fail("vigencias deve ser uma lista não vazia.", f"{pointer}/vigencias")
    periods: list[Period] = []
    for index, item in enumerate(raw_periods):
        where = f"{pointer}/vigencias/{index}"
        period_obj = _object(item, _PERIOD_KEYS, (), where)
        since = _day(period_obj["desde"], f"{where}/desde")
        until = None if period_obj["ate"] is None else _day(period_obj["ate"], f"{where}/ate")
        if until is not None and until < since:
            raise _fail("a vigência termina antes de começar.", where)
        if periods:
            previous = periods[-1]
            if previous.until is None or since <= previous.until:
                raise _fail("as vigências devem estar em ordem e sem sobreposição.", where)
        periods.append(Period(since=since, until=until,
                              value=_value(period_obj["valor"], unit, f"{where}/valor"),
                              source=_text(period_obj["fonte"], f"{where}/fonte")))
    return Parameter(name=name, description=_text(obj["descricao"], f"{pointer}/descricao"),
                     unit=unit, basis=tuple(basis), note=note, periods=tuple(periods))


def parameters_from_document(raw: Any) -> Parameters:
    """Build :class:`Parameters` from the parsed JSON document."""
    top = _object(raw, ("parametros",), (), "/")
    table = top["parametros"]
    if not isinstance(table, dict):
        raise _fail("esperava-se um objeto com os parâmetros.", "/parametros")
    params = {
        name: _parameter(name, item, f"/parametros/{name.replace('~', '~0').replace('/', '~1')}")
        for name, item in table.items()
    }
    return Parameters(parameters=MappingProxyType(params))


def load_parameters(pack_dir: Path) -> Parameters:
    """Load ``legal_text/parametros.json`` of the pack; :class:`ContentPackError` if broken."""
    path = pack_dir / PARAMETERS_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentPackError(
            f"Não foi possível ler os parâmetros legais em {path}: {exc.strerror}."
        ) from None
    except ValueError as exc:
        raise ContentPackError(f"Os parâmetros legais em {path} não são JSON válido: {exc}.") \
            from None
    return parameters_from_document(raw)

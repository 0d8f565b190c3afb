"""The JSON data of a submitted HTML form, and the way back (data → submitted pairs).

:func:`parse_form` turns the pairs posted by the form :func:`lavra.web.formmodel.build_form`
describes back into data: empty fields are left out (not answered), dates typed as
dd/mm/aaaa become ISO dates, integers become numbers, a value that cannot be
converted is kept as typed so that the schema reports it in the completeness report.
A form with more than :data:`~lavra.web.formmodel.MAX_FIELDS` fields, or a list with
more than :data:`~lavra.web.formmodel.MAX_ROWS` rows, is refused (:class:`InputError`).
:func:`to_pairs` is the inverse (a stored requerimento shown again); :func:`remove_row`
drops one list item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from lavra.errors import InputError
from lavra.inputs import pointers
from lavra.inputs.textnorm import nfc
from lavra.render.fillable.schema import field_name, with_required_objects
from lavra.web.formmodel import (
    MAX_FIELDS,
    MAX_ROWS,
    PathT,
    Schema,
    display_value,
    is_array,
    is_boolean,
    is_object,
    item_schema,
    options_of,
    properties,
    schema_types,
)

__all__ = ["parse_form", "remove_row", "to_pairs"]

_ABSENT: Any = object()
_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_INT = re.compile(r"[+-]?\d{1,15}")
_NUMBER = re.compile(r"[+-]?\d{1,15}([.,]\d{1,10})?")


def _convert(schema: Schema, raw: str) -> Any:
    text = raw.strip()
    if not text:
        return _ABSENT
    types = schema_types(schema)
    if is_boolean(schema):
        if schema.get("const") is True and "boolean" in types:
            return True
        lowered = text.lower()
        if lowered in ("sim", "true", "on"):
            return True
        if lowered in ("nao", "não", "false"):
            return False
        return _ABSENT
    options = options_of(schema)
    if options:
        for value, _ in options:
            if str(value) == text:
                return value
        return text
    if schema.get("format") == "date":
        match = _DMY.fullmatch(text)
        if match is not None:
            day, month, year = (int(g) for g in match.groups())
            try:
                return date(year, month, day).isoformat()
            except ValueError:
                return text
        return text
    if "integer" in types and _INT.fullmatch(text):
        return int(text)
    if "number" in types and _NUMBER.fullmatch(text):
        number = float(text.replace(",", "."))
        return int(number) if number.is_integer() and "integer" in types else number
    if schema.get("format") in ("placa",):
        return text.upper()
    return text


class _Values:
    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        self.values: dict[str, list[str]] = {}
        count = 0
        for key, value in pairs:
            if key.startswith("_") or key == "csrf":
                continue
            count += 1
            if count > MAX_FIELDS:
                raise InputError(
                    f"O formulário enviado tem campos em excesso (máximo {MAX_FIELDS})."
                )
            if len(key) > 400:
                raise InputError("O formulário enviado tem um nome de campo longo demais.")
            # NFC here, so that a decomposed accent matches its option; the refusal of
            # hidden characters, naming the field, comes with the data (check_values).
            self.values.setdefault(nfc(key), []).append(
                nfc(value) if isinstance(value, str) else value
            )

    def indexes(self, prefix: str) -> list[int]:
        found: set[int] = set()
        start = prefix + "/"
        for key in self.values:
            if key.startswith(start):
                token = key[len(start):].split("/", 1)[0]
                if token.isdigit() and len(token) < 6:
                    found.add(int(token))
        return sorted(found)


def _read(schema: Schema, path: PathT, values: _Values) -> Any:
    name = field_name(path) if path else ""
    if is_object(schema):
        out: dict[str, Any] = {}
        for key, sub in properties(schema).items():
            value = _read(sub, (*path, key), values)
            if value is not _ABSENT:
                out[key] = value
        return out if out or not path else _ABSENT
    if is_array(schema):
        items = item_schema(schema)
        if is_object(items):
            indexes = values.indexes(name)
            if len(indexes) > MAX_ROWS:
                raise InputError(f"Linhas em excesso em {pointers.join(path)}.")
            rows = [_read(items, (*path, index), values) for index in indexes]
            kept = [row for row in rows if row is not _ABSENT]
            return kept or _ABSENT
        chosen = [_convert(items, raw) for raw in values.values.get(name, [])]
        kept = [value for value in chosen if value is not _ABSENT]
        return list(dict.fromkeys(kept)) or _ABSENT
    raw = values.values.get(name)
    if not raw:
        return _ABSENT
    if len(set(raw)) > 1:
        # As a repeated JSON key: another reader of the same post would see another value.
        where = pointers.join(path)
        raise InputError(
            f"O campo {where} foi enviado mais de uma vez, com valores diferentes. Cada "
            "campo deve ser informado uma só vez.",
            field=where,
        )
    return _convert(schema, raw[0])


def parse_form(schema: Schema, pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The JSON data of a submitted form (``pairs`` as posted, in order)."""
    data = _read(schema, (), _Values(pairs))
    return with_required_objects(schema, data if isinstance(data, dict) else {})


def to_pairs(schema: Schema, data: Any, path: PathT = ()) -> list[tuple[str, str]]:
    """The submitted pairs that :func:`parse_form` turns back into ``data``."""
    out: list[tuple[str, str]] = []
    if is_object(schema):
        if isinstance(data, Mapping):
            for key, sub in properties(schema).items():
                if key in data:
                    out.extend(to_pairs(sub, data[key], (*path, key)))
        return out
    if is_array(schema):
        items = item_schema(schema)
        if isinstance(data, list):
            for index, value in enumerate(data):
                if is_object(items):
                    out.extend(to_pairs(items, value, (*path, index)))
                else:
                    out.append((field_name(path), str(value)))
        return out
    if data is None:
        return out
    out.append((field_name(path), display_value(schema, data)))
    return out


def remove_row(data: dict[str, Any], pointer: str) -> dict[str, Any]:
    """``data`` without the array item at ``pointer`` (``/veiculos/1``); unchanged if absent."""
    tokens = pointers.split(pointer)
    if not tokens or not tokens[-1].isdigit():
        return data
    parent = pointers.get(data, pointers.join(tokens[:-1]))
    index = int(tokens[-1])
    if isinstance(parent, list) and index < len(parent):
        del parent[index]
    return data


